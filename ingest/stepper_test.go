package ingest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/store/arrowstore"
)

// gatedStep records its ranges and holds each Apply until released, so a
// test decides what is committed while a step runs.
type gatedStep struct {
	mu      sync.Mutex
	ranges  []string
	entered chan string
	release chan error
}

func newGatedStep() *gatedStep {
	return &gatedStep{entered: make(chan string, 16), release: make(chan error)}
}

func (*gatedStep) Name() string { return "gated" }

func (g *gatedStep) Apply(ctx context.Context, _ arrowstore.Writer, from, to uint64) error {
	r := fmt.Sprintf("%d..%d", from, to)
	g.entered <- r
	select {
	case err := <-g.release:
		if err == nil {
			g.mu.Lock()
			g.ranges = append(g.ranges, r)
			g.mu.Unlock()
		}
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (g *gatedStep) applied() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return strings.Join(g.ranges, " ")
}

// doneLog records the slots done is called with.
type doneLog struct {
	mu    sync.Mutex
	slots []uint64
}

func (d *doneLog) done(_ context.Context, _, to uint64, _ bool) error {
	d.mu.Lock()
	d.slots = append(d.slots, to)
	d.mu.Unlock()
	return nil
}

func (d *doneLog) String() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return fmt.Sprint(d.slots)
}

func waitEntered(t *testing.T, g *gatedStep, want string) {
	t.Helper()
	select {
	case got := <-g.entered:
		if got != want {
			t.Fatalf("step entered %s, want %s", got, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("step never entered %s", want)
	}
}

func TestStepperCoalesces(t *testing.T) {
	g, d := newGatedStep(), &doneLog{}
	st := StartStepper(context.Background(), nil, []StateStep{g}, d.done, func() { t.Error("fail called") })
	st.Advance(10, 10)
	waitEntered(t, g, "10..10")
	// Committed while the first range is applied: one range, not three,
	// and nothing is done for it before it is applied.
	st.Advance(10, 11)
	st.Advance(10, 12)
	st.Advance(10, 13)
	st.Advance(10, 12) // the watermark never moves back; a lower value is ignored
	if got := d.String(); got != "[]" {
		t.Errorf("done %s before any range was applied", got)
	}
	g.release <- nil
	waitEntered(t, g, "11..13")
	g.release <- nil
	// Committed after the goroutine stopped: CatchUp applies it.
	waitDone(t, d, "[10 13]")
	if err := st.Stop(); err != nil {
		t.Fatal(err)
	}
	st.Advance(10, 15)
	go func() { waitEntered(t, g, "14..15"); g.release <- nil }()
	if err := st.CatchUp(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := g.applied(); got != "10..10 11..13 14..15" {
		t.Errorf("applied %s", got)
	}
	if got := d.String(); got != "[10 13 15]" {
		t.Errorf("done %s", got)
	}
}

func waitDone(t *testing.T, d *doneLog, want string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); d.String() != want; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("done %s, want %s", d, want)
		}
	}
}

func TestStepperHalts(t *testing.T) {
	g, d := newGatedStep(), &doneLog{}
	failed := make(chan struct{})
	st := StartStepper(context.Background(), nil, []StateStep{g}, d.done, func() { close(failed) })
	st.Advance(5, 7)
	waitEntered(t, g, "5..7")
	g.release <- errors.New("cannot derive")
	<-failed
	st.Advance(5, 9)
	err := st.Stop()
	if err == nil || !strings.Contains(err.Error(), "state step gated over slots 5..7: cannot derive") {
		t.Fatalf("stop: %v", err)
	}
	// Halted: nothing more is applied or done, not even by CatchUp.
	if cerr := st.CatchUp(context.Background()); !errors.Is(cerr, err) {
		t.Errorf("catch up: %v, want %v", cerr, err)
	}
	if got := d.String(); got != "[]" || g.applied() != "" {
		t.Errorf("done %s, applied %q after a failure", got, g.applied())
	}
}

func TestStepperCutShort(t *testing.T) {
	g, d := newGatedStep(), &doneLog{}
	ctx, cancel := context.WithCancel(context.Background())
	st := StartStepper(ctx, nil, []StateStep{g}, d.done, func() { t.Error("fail called for a cancelled step") })
	st.Advance(1, 4)
	waitEntered(t, g, "1..4")
	cancel()
	if err := st.Stop(); err != nil {
		t.Fatalf("stop: %v", err)
	}
	// The range cut short is still to be applied, from its first slot.
	go func() { waitEntered(t, g, "1..4"); g.release <- nil }()
	if err := st.CatchUp(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := d.String(); got != "[4]" || g.applied() != "1..4" {
		t.Errorf("done %s, applied %q", got, g.applied())
	}
}

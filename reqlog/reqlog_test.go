package reqlog_test

import (
	"context"
	"errors"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/reqlog"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

func TestMain(m *testing.M) {
	code := m.Run()
	storetest.Close()
	os.Exit(code)
}

func count(t *testing.T, s store.Querier) uint64 {
	t.Helper()
	res, err := s.Query(context.Background(), `SELECT count() FROM request_log`, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Rows[0][0].(uint64)
}

func row(i int) reqlog.Row {
	return reqlog.Row{At: time.Date(2026, 4, 2, 10, 0, 0, i*int(time.Millisecond), time.UTC), ProjectID: "p1", KeyID: "00112233aabbccdd",
		Method: "getAsset", Service: "das", CreditsMicro: 10_000_000, Billed: true, HTTPStatus: 200,
		RequestBytes: 80, ResponseBytes: 900, BatchSize: 1, Latency: 1500 * time.Microsecond, ContextSlot: 77}
}

// Every member of a row reaches its column.
func TestRowRoundTrip(t *testing.T) {
	s := storetest.Open(t)
	l, err := reqlog.New(s, reqlog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := row(5)
	r.RPCCode, r.HTTPStatus, r.Billed, r.CreditsMicro = -32602, 400, false, 0
	l.Add(r)
	l.Add(row(6))
	if err := l.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	res, err := s.Query(context.Background(), `SELECT toString(at), project_id, key_id, method, service, credits_micro, credits,
		billed, http_status, rpc_code, request_bytes, response_bytes, batch_size, latency_us, context_slot
		FROM request_log ORDER BY at`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 2 {
		t.Fatalf("%d rows", len(res.Rows))
	}
	want := []any{"2026-04-02 10:00:00.005", "p1", "00112233aabbccdd", "getAsset", "das", uint64(0), float64(0),
		false, uint16(400), int32(-32602), uint32(80), uint32(900), uint16(1), uint32(1500), uint64(77)}
	for i, v := range want {
		if res.Rows[0][i] != v {
			t.Errorf("%s = %v (%T), want %v (%T)", res.Columns[i].Name, res.Rows[0][i], res.Rows[0][i], v, v)
		}
	}
	if res.Rows[1][6] != float64(10) {
		t.Errorf("credits %v, want 10", res.Rows[1][6])
	}
}

// stalled is the real store with its inserts held until release is
// closed: a store that does not answer.
type stalled struct {
	arrowstore.Store
	release chan struct{}
}

func (s stalled) Insert(ctx context.Context, table string, rec arrow.RecordBatch) error {
	<-s.release
	return s.Store.Insert(ctx, table, rec)
}

// With the store stalled, Add neither blocks nor grows the buffer past
// its capacity: rows beyond it are counted as dropped, and the rows
// taken are stored once the store answers.
func TestFullBufferDrops(t *testing.T) {
	s := storetest.Open(t)
	st := stalled{s, make(chan struct{})}
	l, err := reqlog.New(st, reqlog.Options{Capacity: 100, BatchRows: 10, FlushEvery: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for i := range 1000 {
		l.Add(row(i))
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("1000 adds took %v with the store stalled", took)
	}
	stats := l.Stats()
	// The writer holds one batch (10 rows) in its stalled insert, the
	// buffer 100.
	if stats.Dropped < 1000-100-10 || stats.Added > 110 || stats.Added+stats.Dropped != 1000 {
		t.Errorf("stats %+v: want about 890 dropped of 1000", stats)
	}
	close(st.release)
	if err := l.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := count(t, s); n != stats.Added {
		t.Errorf("%d rows stored, %d taken", n, stats.Added)
	}
	if got := l.Stats(); got.Written != stats.Added || got.Lost != 0 {
		t.Errorf("after close %+v", got)
	}
	if l.Add(row(1)) {
		t.Error("Add after Close took the row")
	}
}

// A crash loses only what was added within the last FlushEvery: rows
// older than that are in the store with the log still open.
func TestCrashLossBound(t *testing.T) {
	s := storetest.Open(t)
	const every = 100 * time.Millisecond
	l, err := reqlog.New(s, reqlog.Options{FlushEvery: every})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close(context.Background())
	for i := range 50 {
		l.Add(row(i))
	}
	deadline := time.Now().Add(every + 5*time.Second) // the insert's own time on a loaded machine
	for count(t, s) < 50 {
		if time.Now().After(deadline) {
			t.Fatalf("%d of 50 rows stored %v after they were added, log open", count(t, s), every)
		}
		time.Sleep(every / 4)
	}
	if st := l.Stats(); st.Buffered != 0 || st.Written != 50 {
		t.Errorf("stats %+v", st)
	}
	// And a full batch goes at once, without waiting for the interval.
	l2, err := reqlog.New(s, reqlog.Options{BatchRows: 20, FlushEvery: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Close(context.Background())
	for i := range 20 {
		l2.Add(row(100 + i))
	}
	deadline = time.Now().Add(5 * time.Second)
	for count(t, s) < 70 {
		if time.Now().After(deadline) {
			t.Fatalf("a full batch was not sent: %d rows", count(t, s))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// lostAck stores the first insert and then reports it failed, as a
// store whose answer was lost does: the retry must not store it twice.
type lostAck struct {
	arrowstore.Store
	n atomic.Int32
}

func (s *lostAck) Insert(ctx context.Context, table string, rec arrow.RecordBatch) error {
	err := s.Store.Insert(ctx, table, rec)
	if s.n.Add(1) == 1 && err == nil {
		return errors.New("connection reset")
	}
	return err
}

func TestRetryStoresOnce(t *testing.T) {
	s := storetest.Open(t)
	la := &lostAck{Store: s}
	var inserts atomic.Int32
	l, err := reqlog.New(la, reqlog.Options{OnInsert: func(int, time.Duration, error) { inserts.Add(1) }})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 30 {
		l.Add(row(i))
	}
	if err := l.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if inserts.Load() != 2 {
		t.Errorf("%d inserts, want 2 (one failed, one retried)", inserts.Load())
	}
	if n := count(t, s); n != 30 {
		t.Errorf("%d rows stored after a retried insert, want 30", n)
	}
}

package proc

import (
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestTailKeepsTheEnd(t *testing.T) {
	var tl Tail
	for i := range 3000 {
		_, _ = tl.Write([]byte(strings.Repeat("x", 9) + string(rune('a'+i%26))))
	}
	_, _ = tl.Write([]byte("last words\n"))
	s := tl.String()
	if len(s) > 8<<10 || !strings.HasSuffix(s, "last words") {
		t.Errorf("tail of %d bytes ending %q", len(s), s[max(0, len(s)-20):])
	}
}

func TestStartStop(t *testing.T) {
	p, err := Start(exec.Command("sh", "-c", "echo started; exec sleep 60"))
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(p.Out.String(), "started"); {
		if p.Exited() || time.Now().After(deadline) {
			t.Fatalf("no output: exited %v, %q", p.Exited(), p.Out.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := p.Stop(); err != nil {
		t.Errorf("stop: %v", err)
	}
	if !p.Exited() || p.Err() == nil {
		t.Errorf("after stop: exited %v, err %v (want the signal)", p.Exited(), p.Err())
	}
	if err := p.Stop(); err != nil {
		t.Errorf("second stop: %v", err)
	}
	if _, err := FreeAddr(); err != nil {
		t.Error(err)
	}
}

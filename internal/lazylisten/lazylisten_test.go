package lazylisten

import (
	"strings"
	"testing"
)

func TestListener(t *testing.T) {
	l := New("test", "127.0.0.1:0")
	if l.Addr() != "" {
		t.Fatal("an address before Listen")
	}
	if err := l.Listen(); err != nil {
		t.Fatal(err)
	}
	addr := l.Addr()
	if !strings.HasPrefix(addr, "127.0.0.1:") || strings.HasSuffix(addr, ":0") {
		t.Fatalf("addr %q", addr)
	}
	ln, err := l.Bound()
	if err != nil || ln.Addr().String() != addr {
		t.Fatalf("bound again: %v %v", ln, err)
	}
	defer ln.Close()
	// The address is taken: a second listener on it names its server.
	if err := New("other", addr).Listen(); err == nil || !strings.Contains(err.Error(), "other: listen "+addr) {
		t.Errorf("err %v", err)
	}
}

package tokenbucket

import (
	"testing"
	"time"
)

func TestBucket(t *testing.T) {
	t0 := time.Unix(1000, 0)
	b := New(2, 3, t0)
	tests := []struct {
		at   time.Duration
		want bool
	}{
		{0, true}, {0, true}, {0, true}, {0, false}, // the burst, then empty
		{250 * time.Millisecond, false}, // half a token
		{500 * time.Millisecond, true},  // one token at 2/s
		{500 * time.Millisecond, false},
		{-time.Second, false}, // time going back adds nothing
		{10 * time.Second, true},
	}
	for i, tt := range tests {
		if got := b.Take(t0.Add(tt.at)); got != tt.want {
			t.Errorf("step %d at %v: Take = %v, want %v", i, tt.at, got, tt.want)
		}
	}
	if !b.Full(t0.Add(20 * time.Second)) {
		t.Error("not full long after")
	}
	if b.Full(t0.Add(10 * time.Second)) {
		t.Error("full right after a take")
	}
}

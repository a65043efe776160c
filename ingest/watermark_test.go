package ingest

import (
	"fmt"
	"strings"
	"testing"
)

// TestWatermark drives the tracker with ops: "b<seq>@<slot>" begins an item,
// "d<seq>" commits it, "f" finishes the source; after each op the slot
// must equal the expectation.
func TestWatermark(t *testing.T) {
	cases := []struct {
		name string
		ops  string
		want []uint64
	}{
		{
			name: "in order",
			ops:  "b0@10 d0 b1@11 d1 f",
			want: []uint64{0, 0, 10, 10, 11},
		},
		{
			name: "higher slot done first does not pass an uncommitted lower slot",
			ops:  "b0@10 b1@11 b2@12 b3@13 d2 d3 d1 d0 f",
			want: []uint64{0, 0, 0, 0, 0, 0, 0, 12, 13},
		},
		{
			name: "slot with several items waits for all of them",
			ops:  "b0@5 b1@7 b2@7 b3@9 d0 d1 d3 d2 f",
			want: []uint64{0, 0, 0, 0, 5, 5, 5, 7, 9},
		},
		{
			name: "last slot seen may still grow until the source finishes",
			ops:  "b0@3 b1@4 d0 d1 b2@4 d2 f",
			want: []uint64{0, 0, 3, 3, 3, 3, 4},
		},
		{
			name: "finish before completion",
			ops:  "b0@1 b1@2 f d1 d0",
			want: []uint64{0, 0, 0, 0, 2},
		},
		{
			name: "gap in slots",
			ops:  "b0@100 b1@250 d1 d0 b2@251 d2",
			want: []uint64{0, 0, 0, 100, 250, 250},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWatermark()
			ops := strings.Fields(c.ops)
			if len(ops) != len(c.want) {
				t.Fatalf("%d ops, %d expectations", len(ops), len(c.want))
			}
			for i, op := range ops {
				var seq, slot uint64
				switch op[0] {
				case 'b':
					fmt.Sscanf(op, "b%d@%d", &seq, &slot)
					if err := w.Begin(seq, slot); err != nil {
						t.Fatal(err)
					}
				case 'd':
					fmt.Sscanf(op, "d%d", &seq)
					w.Done(seq)
				case 'f':
					w.Finish()
				case 's':
					fmt.Sscanf(op, "s%d", &slot)
					if err := w.Seal(slot); err != nil {
						t.Fatal(err)
					}
				}
				if got := w.Slot(); got != c.want[i] {
					t.Fatalf("after %q (op %d): slot %d, want %d", op, i, got, c.want[i])
				}
			}
		})
	}
}

func TestWatermarkRejectsOutOfOrderSource(t *testing.T) {
	w := newWatermark()
	if err := w.Begin(0, 10); err != nil {
		t.Fatal(err)
	}
	if err := w.Begin(1, 9); err == nil || !strings.Contains(err.Error(), "out of order") {
		t.Fatalf("err = %v", err)
	}
	// A sealed slot takes no more items, and seals do not go back.
	if err := w.Seal(10); err != nil {
		t.Fatal(err)
	}
	if err := w.Begin(2, 10); err == nil || !strings.Contains(err.Error(), "after slot 10 was sealed") {
		t.Fatalf("err = %v", err)
	}
	if err := w.Seal(9); err == nil || !strings.Contains(err.Error(), "slot 9 sealed after slot 10") {
		t.Fatalf("err = %v", err)
	}
	if err := w.Begin(3, 11); err != nil {
		t.Fatal(err)
	}
}

func TestWatermarkCompacts(t *testing.T) {
	w := newWatermark()
	for i := uint64(0); i < 5000; i++ {
		if err := w.Begin(i, i/10); err != nil {
			t.Fatal(err)
		}
		w.Done(i)
	}
	if len(w.queue) > 2048 {
		t.Fatalf("queue holds %d committed items", len(w.queue))
	}
	if got := w.Slot(); got != 498 {
		t.Fatalf("slot %d, want 498", got)
	}
	w.Finish()
	if got := w.Slot(); got != 499 {
		t.Fatalf("slot %d, want 499", got)
	}
}

// TestWatermarkComplete tells a completed slot 0 from nothing complete.
func TestWatermarkComplete(t *testing.T) {
	cases := []struct {
		name  string
		ops   string
		want  []string // "slot/ok" after each op
		first uint64
	}{
		{"slot 0 completes when the source finishes", "b0@0 b1@0 d0 d1 f", []string{"0/false", "0/false", "0/false", "0/false", "0/true"}, 0},
		{"slot 0 below a later slot", "b0@0 b1@5 d0 d1 f", []string{"0/false", "0/false", "0/true", "0/true", "5/true"}, 0},
		{"nothing committed", "b0@3 f", []string{"0/false", "0/false"}, 3},
		// A sealed slot is complete without a later one or the end.
		{"sealed live slot", "b0@3 b1@3 d0 s3 d1 b2@4 d2 s4", []string{"0/false", "0/false", "0/false", "0/false", "3/true", "3/true", "3/true", "4/true"}, 3},
		{"seal below the last slot", "b0@3 b1@5 d0 d1 s3", []string{"0/false", "0/false", "3/true", "3/true", "3/true"}, 3},
		{"seal of skipped slots", "b0@3 d0 s7", []string{"0/false", "0/false", "3/true"}, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWatermark()
			for i, op := range strings.Fields(c.ops) {
				var seq, slot uint64
				switch op[0] {
				case 'b':
					fmt.Sscanf(op, "b%d@%d", &seq, &slot)
					if err := w.Begin(seq, slot); err != nil {
						t.Fatal(err)
					}
				case 'd':
					fmt.Sscanf(op, "d%d", &seq)
					w.Done(seq)
				case 'f':
					w.Finish()
				case 's':
					fmt.Sscanf(op, "s%d", &slot)
					if err := w.Seal(slot); err != nil {
						t.Fatal(err)
					}
				}
				slot, ok := w.Complete()
				if got := fmt.Sprintf("%d/%v", slot, ok); got != c.want[i] {
					t.Fatalf("after %q (op %d): %s, want %s", op, i, got, c.want[i])
				}
			}
			if first := w.First(); first != c.first {
				t.Errorf("first %d, want %d", first, c.first)
			}
		})
	}
}

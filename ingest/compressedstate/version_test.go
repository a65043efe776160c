package compressedstate

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/internal/storetest"
)

func TestVersionsStrictlyIncrease(t *testing.T) {
	cases := []struct {
		name   string
		stored string   // an INSERT run first; "" for none
		clock  []int64  // microseconds at each call
		want   []uint64 // versions handed out
	}{
		{"follow the clock", "", []int64{100, 250}, []uint64{100, 250}},
		{"same microsecond", "", []int64{100, 100}, []uint64{100, 101}},
		{"clock steps back", "", []int64{100, 40, 41}, []uint64{100, 101, 102}},
		{"above stored balances", `INSERT INTO token_balances (owner, mint, balance, version) VALUES ('', '', 1, 1000)`,
			[]int64{10, 2000}, []uint64{1001, 2000}},
		{"above stored holders", `INSERT INTO mint_holders (mint, balance, owner, version, is_deleted) VALUES ('', 1, '', 5000, 1)`,
			[]int64{10}, []uint64{5001}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := storetest.Open(t)
			ctx := context.Background()
			if c.stored != "" {
				if err := s.Exec(ctx, c.stored, nil); err != nil {
					t.Fatal(err)
				}
			}
			i := 0
			v := versions{now: func() time.Time { return time.UnixMicro(c.clock[i]) }}
			var got []uint64
			for i = range c.clock {
				n, err := v.next(ctx, s)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, n)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("versions %v, want %v", got, c.want)
			}
		})
	}
}

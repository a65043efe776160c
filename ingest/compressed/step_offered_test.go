package compressed

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/internal/storetest"
)

// offeredOutput is a token output of the offered-outputs script.
type offeredOutput struct {
	hash, owner, mint string
	slot, amount      int
}

// offeredRecordOf is the record the pipeline would show the step after
// inserting outs: the columns stepOffered reads.
func offeredRecordOf(outs []offeredOutput) arrow.RecordBatch {
	mem := memory.DefaultAllocator
	slot, amount := array.NewUint64Builder(mem), array.NewUint64Builder(mem)
	isToken := array.NewBooleanBuilder(mem)
	hash, owner, mint := array.NewFixedSizeBinaryBuilder(mem, keyType()), array.NewFixedSizeBinaryBuilder(mem, keyType()), array.NewFixedSizeBinaryBuilder(mem, keyType())
	key := func(name string) []byte {
		k := make([]byte, 32)
		copy(k, name)
		return k
	}
	for _, o := range outs {
		slot.Append(uint64(o.slot))
		amount.Append(uint64(o.amount))
		isToken.Append(true)
		hash.Append(key(o.hash))
		owner.Append(key(o.owner))
		mint.Append(key(o.mint))
	}
	u64 := arrow.PrimitiveTypes.Uint64
	return record([]arrow.Field{field("slot_created", u64), field("hash", keyType()), field("is_token", arrow.FixedWidthTypes.Boolean),
		field("token_owner", keyType()), field("mint", keyType()), field("amount", u64)},
		slot, hash, isToken, owner, mint, amount)
}

// TestOfferedOutputs steps a history of token outputs whose ranges take
// the in-memory path (stepOffered) when the step was shown what the
// pipeline inserted, and the SQL path otherwise: a range with spends,
// outputs inserted but not shown, outputs shown twice, a range stepped
// again after its outputs were re-indexed, no balance copy, and a step
// failing in each of its writes, applied again. Every way must end with
// the balances, holders and markers the history adds up to, and take the
// in-memory path exactly where it may.
func TestOfferedOutputs(t *testing.T) {
	// Outputs of slots 1..8, five a slot over four owners and two mints
	// (pairs grow across ranges, so old balances and tombstones are
	// written); slot 5 also spends two outputs of slot 2.
	r := rand.New(rand.NewPCG(5, 9))
	bySlot := make([][]offeredOutput, 9)
	bal := map[string]int{}
	for slot := 1; slot <= 8; slot++ {
		for k := range 5 {
			o := offeredOutput{fmt.Sprintf("o%d-%d", slot, k), fmt.Sprintf("w%d", r.IntN(4)), fmt.Sprintf("n%d", r.IntN(2)), slot, 1 + r.IntN(100)}
			bySlot[slot] = append(bySlot[slot], o)
			bal[o.owner+" "+o.mint] += o.amount
		}
	}
	spent := bySlot[2][:2]
	for _, o := range spent {
		bal[o.owner+" "+o.mint] -= o.amount
	}
	var want []string
	for k, v := range bal {
		want = append(want, fmt.Sprintf("%s %d", k, v))
	}
	slices.Sort(want)
	// The pipeline's inserts (slots 6 and 7 in one record) and the
	// ranges the step applies (the last covers 7..8).
	inserts := [][]int{{1}, {2}, {3}, {4}, {5}, {6, 7}, {8}}
	ranges := [][2]uint64{{1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 5}, {6, 6}, {7, 8}}

	cases := []struct {
		name  string
		limit int
		// hidden inserts of this slot are not shown; twice are shown and
		// inserted twice.
		hidden, twice int
		// reindex inserts, shows and steps slots 2..3 again at the end.
		reindex bool
		// The step of the range ending at failAt fails once in its
		// write into fail, and is applied again.
		failAt int
		fail   string
		// offered: ranges that took the in-memory path.
		offered int
	}{
		{name: "offered", limit: DefaultBalanceCache, offered: 6},
		{name: "not shown", limit: DefaultBalanceCache, hidden: -1},
		{name: "one insert not shown", limit: DefaultBalanceCache, hidden: 3, offered: 5},
		{name: "shown twice", limit: DefaultBalanceCache, twice: 4, offered: 5},
		{name: "re-indexed", limit: DefaultBalanceCache, reindex: true, offered: 6},
		{name: "no balance copy", limit: 0},
		// A failed in-memory step is applied again by the SQL path (its
		// records were let go), after the redo of its markers if stored.
		{name: "failed markers", limit: DefaultBalanceCache, failAt: 3, fail: "token_ledger_applied", offered: 6},
		{name: "failed holders", limit: DefaultBalanceCache, failAt: 3, fail: "mint_holders", offered: 6},
		{name: "failed balances", limit: DefaultBalanceCache, failAt: 8, fail: "token_balances", offered: 6},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			fs := &failingStore{Store: storetest.Open(t), sql: "INSERT INTO " + c.fail + " "}
			step := NewStateStep()
			step.BalanceCache(c.limit)
			var mu sync.Mutex
			offered := 0
			step.Observe(func(what string, _ time.Duration) {
				if what == "deltas (offered)" {
					mu.Lock()
					offered++
					mu.Unlock()
				}
			})
			insert := func(slots []int) {
				var outs []offeredOutput
				for _, sl := range slots {
					outs = append(outs, bySlot[sl]...)
				}
				times := 1
				if slices.Contains(slots, c.twice) {
					times = 2
				}
				for range times {
					for _, o := range outs {
						execAll(t, fs, fixtureMintAccount(o.hash, "ctoken", o.slot, true, o.mint, o.owner, "", o.amount))
					}
					if c.hidden == -1 || slices.Contains(slots, c.hidden) {
						continue
					}
					rec := offeredRecordOf(outs)
					step.Inserted("compressed_accounts", rec)
					rec.Release()
				}
				if slices.Contains(slots, 5) {
					for _, o := range spent {
						execAll(t, fs, fixtureSpend(o.hash, 5))
					}
				}
			}
			apply := func(from, to uint64) {
				fs.arm(int(to) == c.failAt)
				err := step.Apply(ctx, fs, from, to)
				if int(to) == c.failAt {
					if err == nil {
						t.Fatal("the injected failure was not returned")
					}
					err = step.Apply(ctx, fs, from, to)
				}
				if err != nil {
					t.Fatalf("slots %d..%d: %v", from, to, err)
				}
			}
			next := 0
			for _, rg := range ranges {
				for next < len(inserts) && uint64(inserts[next][0]) <= rg[1] {
					insert(inserts[next])
					next++
				}
				apply(rg[0], rg[1])
			}
			if c.reindex {
				insert([]int{2, 3})
				apply(2, 3)
			}
			checkBalances(t, fs, want)
			if got := rows(t, fs, `SELECT count() FROM token_ledger_applied FINAL WHERE kind = 0`); !slices.Equal(got, []string{"40"}) {
				t.Errorf("outputs marked: %v, want 40", got)
			}
			if offered != c.offered {
				t.Errorf("%d ranges took the in-memory path, want %d", offered, c.offered)
			}
			if n := len(step.offered.recs); n != 0 {
				t.Errorf("%d records still held after every range was applied", n)
			}
		})
	}
}

package compressedstate

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// balanceScript is a seeded history of token outputs and spends over
// slots 1..n, one step per slot (the last covers n-1..n): pairs that grow, shrink, return to zero
// and change twice in one slot, spends in the output's slot and later,
// and one spend indexed before its output.
type balanceScript struct {
	slots [][]string // the inserts of each slot
	want  []string   // "owner mint balance" of every pair, sorted
}

func newBalanceScript(n int) balanceScript {
	r := rand.New(rand.NewPCG(7, 11))
	type output struct {
		hash, owner, mint string
		amount            int
	}
	var live []output
	bal := map[string]int{}
	sc := balanceScript{slots: make([][]string, n+1)}
	for slot := 1; slot <= n; slot++ {
		for i := range 4 {
			o := output{fmt.Sprintf("h%d-%d", slot, i), fmt.Sprintf("o%d", r.IntN(5)), fmt.Sprintf("m%d", r.IntN(3)), 1 + r.IntN(1000)}
			live = append(live, o)
			bal[o.owner+" "+o.mint] += o.amount
			sc.slots[slot] = append(sc.slots[slot], fixtureMintAccount(o.hash, "ctoken", slot, true, o.mint, o.owner, "", o.amount))
		}
		for range 3 {
			if len(live) == 0 {
				break
			}
			i := r.IntN(len(live))
			o := live[i]
			live = slices.Delete(live, i, i+1)
			bal[o.owner+" "+o.mint] -= o.amount
			sc.slots[slot] = append(sc.slots[slot], fixtureSpend(o.hash, slot))
		}
	}
	// Spent at slot n-1 before its output (created at n-1) is indexed:
	// the output comes with slot n's inserts, whose step covers n-1..n,
	// and its spend is found through the pending list.
	sc.slots[n-1] = append(sc.slots[n-1], fixtureSpend("early", n-1))
	sc.slots[n] = append(sc.slots[n], fixtureMintAccount("early", "ctoken", n-1, true, "m0", "o0", "", 5))
	bal["o0 m0"] += 0
	for k, v := range bal {
		sc.want = append(sc.want, fmt.Sprintf("%s %d", k, v))
	}
	slices.Sort(sc.want)
	return sc
}

// failingStore fails the first statement containing sql once armed. A
// step runs some statements side by side: the mutex guards armed.
type failingStore struct {
	arrowstore.Store
	sql   string
	mu    sync.Mutex
	armed bool
}

func (f *failingStore) arm(on bool) {
	f.mu.Lock()
	f.armed = on
	f.mu.Unlock()
}

func (f *failingStore) Exec(ctx context.Context, sql string, params store.Params) error {
	f.mu.Lock()
	fail := f.armed && strings.Contains(sql, f.sql)
	if fail {
		f.armed = false
	}
	f.mu.Unlock()
	if fail {
		return errors.New("injected failure")
	}
	return f.Store.Exec(ctx, sql, params)
}

// rawFailingStore is a failingStore that keeps the engine's raw query
// (store.RawQuerier), as the embedded engine itself has it.
type rawFailingStore struct {
	*failingStore
	store.RawQuerier
}

// TestBalanceCache steps one history with the old balances found by
// scanning token_balances and through the step's in-memory copy: alone,
// alternating with a second step object (another writer: the copy must
// notice and reload), over a limit the copy outgrows, and with a step
// failing after its markers (its balances or its holders write) or in
// the rewrite of its spent accounts; the copy reads the deltas as the
// engine's RowBinary, and in two ways as one string. Every way ends with
// the balances and holders the history adds up to.
func TestBalanceCache(t *testing.T) {
	const slots = 12
	sc := newBalanceScript(slots)
	cases := []struct {
		name string
		// limit of the copy; 0 scans.
		limit int
		// steps: the objects stepping, in turn.
		steps int
		// failAt fails the write into table fail of this slot's step once.
		failAt int
		fail   string
		// cached: whether steps used the copy: all, some or none.
		cached string
		// plain hides the engine's raw query: the copy reads the deltas
		// as one string, as from a ClickHouse server (readDeltas).
		plain bool
	}{
		{name: "scan", limit: 0, steps: 1, cached: "none"},
		{name: "cached", limit: DefaultBalanceCache, steps: 1, cached: "all"},
		{name: "two writers", limit: DefaultBalanceCache, steps: 2, cached: "all"},
		{name: "outgrown", limit: 8, steps: 1, cached: "some"},
		{name: "failed step", limit: DefaultBalanceCache, steps: 1, failAt: 7, fail: "token_balances", cached: "all"},
		// The balances are written beside the holders: they may be
		// stored when the holders' write fails.
		{name: "failed holders", limit: DefaultBalanceCache, steps: 1, failAt: 7, fail: "mint_holders", cached: "all"},
		// Spent accounts' rows are rewritten beside the balance writes,
		// which may finish when the rewrite fails.
		{name: "failed spent rewrite", limit: DefaultBalanceCache, steps: 1, failAt: 7, fail: "token_accounts", cached: "all"},
		{name: "cached, deltas as a string", limit: DefaultBalanceCache, steps: 1, cached: "all", plain: true},
		{name: "failed step, deltas as a string", limit: DefaultBalanceCache, steps: 1, failAt: 7, fail: "token_balances", cached: "all", plain: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			base := storetest.Open(t)
			fs := &failingStore{Store: base, sql: "INSERT INTO " + c.fail + " "}
			var s arrowstore.Writer = fs
			if !c.plain {
				rq, ok := base.(store.RawQuerier)
				if !ok {
					t.Fatal("the embedded engine has no raw query")
				}
				s = rawFailingStore{fs, rq}
			}
			var mu sync.Mutex
			used := 0
			steps := make([]*StateStep, c.steps)
			for i := range steps {
				steps[i] = NewStateStep()
				steps[i].BalanceCache(c.limit)
				steps[i].Observe(func(what string, _ time.Duration) {
					if what == "stored balances" {
						mu.Lock()
						used++
						mu.Unlock()
					}
				})
			}
			for slot := 1; slot <= slots; slot++ {
				execAll(t, fs, sc.slots[slot]...)
				step := steps[slot%len(steps)]
				from, to := uint64(slot), uint64(slot)
				if slot == slots {
					from--
				}
				fs.arm(slot == c.failAt)
				err := step.Apply(ctx, s, from, to)
				if c.failAt == slot {
					if err == nil {
						t.Fatal("the injected failure was not returned")
					}
					// The pipeline applies the range again.
					err = step.Apply(ctx, s, from, to)
				}
				if err != nil {
					t.Fatalf("slot %d: %v", slot, err)
				}
				// Stepping a range again counts nothing twice.
				if slot == slots/2 {
					if err := step.Apply(ctx, s, 1, uint64(slot)); err != nil {
						t.Fatal(err)
					}
				}
			}
			checkBalances(t, fs, sc.want)
			if got := rows(t, fs, `SELECT count() FROM token_accounts FINAL
				WHERE NOT spent AND hash IN (SELECT hash FROM compressed_spent)`); !slices.Equal(got, []string{"0"}) {
				t.Errorf("spent accounts listed as unspent: %v", got)
			}
			switch {
			case c.cached == "none" && used != 0,
				c.cached == "all" && used < slots,
				c.cached == "some" && (used == 0 || used >= slots):
				t.Errorf("the copy served %d steps of %d, want %s", used, slots, c.cached)
			}
		})
	}
}

// checkBalances compares token_balances and the live mint_holders with
// want ("owner mint balance").
func checkBalances(t *testing.T, s arrowstore.Writer, want []string) {
	t.Helper()
	name := fixtureName
	if got := rows(t, s, `SELECT `+name("owner")+`, `+name("mint")+`, balance FROM token_balances FINAL ORDER BY owner, mint`); !slices.Equal(got, want) {
		t.Errorf("balances:\n%q\nwant\n%q", got, want)
	}
	var holders []string
	for _, w := range want {
		if !strings.HasSuffix(w, " 0") {
			holders = append(holders, w)
		}
	}
	if got := rows(t, s, `SELECT `+name("owner")+`, `+name("mint")+`, balance FROM mint_holders FINAL
		WHERE NOT is_deleted AND balance > 0 ORDER BY owner, mint`); !slices.Equal(got, holders) {
		t.Errorf("holders:\n%q\nwant\n%q", got, holders)
	}
	if got := rows(t, s, `SELECT count() FROM (SELECT owner, mint FROM mint_holders FINAL WHERE NOT is_deleted GROUP BY owner, mint HAVING count() > 1)`); !slices.Equal(got, []string{"0"}) {
		t.Errorf("pairs with more than one live holder row: %v", got)
	}
	// The step writes the digest the lookups find pairs by (migration 23),
	// as token_balances' own expression would.
	if got := rows(t, s, `SELECT count() FROM token_balances WHERE pair != sipHash128Reference(concat(owner, mint))`); !slices.Equal(got, []string{"0"}) {
		t.Errorf("balances whose pair is not their digest: %v", got)
	}
	if got := rows(t, s, `SELECT `+name("owner")+`, `+name("mint")+`, balance FROM (`+ledgerBalances+`) ORDER BY owner, mint`); !slices.Equal(got, want) {
		t.Errorf("balances summed from the marked events:\n%q\nwant\n%q", got, want)
	}
}

// ledgerBalances sums the marked events per pair: docs/schema.md gives it
// as what the balances are.
const ledgerBalances = `SELECT owner, mint, sum(if(kind = 0, toInt128(amount), -toInt128(amount))) AS balance
FROM (
  SELECT token_owner AS owner, mint, toUInt8(0) AS kind, amount FROM compressed_accounts
  WHERE is_token AND (slot_created, hash) IN (SELECT slot, hash FROM token_ledger_applied WHERE kind = 0)
  LIMIT 1 BY hash
  UNION ALL
  SELECT a.token_owner, a.mint, 1, a.amount
  FROM (SELECT hash FROM token_ledger_applied FINAL WHERE kind = 1) AS m
  INNER JOIN (SELECT hash, token_owner, mint, amount FROM compressed_accounts
    WHERE is_token LIMIT 1 BY hash) AS a USING (hash)
) GROUP BY owner, mint`

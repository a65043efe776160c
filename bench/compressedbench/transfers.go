package compressedbench

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/dasch-labs/dasch/bench/internal/measure"
	"github.com/dasch-labs/dasch/chain/light"
	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/ingest/compressedstate"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// transfersPerSlot places the transfers on the slots after the state.
const transfersPerSlot = 100

// transferChunk is the transfers per chunk: each touches three accounts,
// so a chunk touches as many accounts as a chunk of the load stores.
func (c *Config) transferChunk() int { return max(1, c.ChunkAccounts/3) }

// TransferFigures measure the transfer phase: transactions that each
// spend one token account picked at random through the whole state (so
// its spends hit every part of the tables, as real transfers of old
// accounts do) and create two, the payment to another owner and the
// change, ingested end to end after the pages were measured.
type TransferFigures struct {
	Transfers int
	IngestFigures
	// Supply is the sum of all balances, before and after: transfers move
	// tokens, so it must not change.
	SupplyBefore, SupplyAfter uint64
	// PG is PostgreSQL's time for the same transfers (zero without it).
	PG time.Duration
	// Live is the series of slots ingested one at a time after them (see
	// liveSlots); LiveTransfers is the transfers those slots held.
	Live          []LiveSeries
	LiveTransfers int
}

// LiveSeries is one series of live slots.
type LiveSeries struct {
	Name string
	measure.Series
	// Warmup is the unmeasured first slot's time, which includes loading
	// what the series' state step keeps when it must (the balance copy of
	// the third series).
	Warmup time.Duration
	// Phases are the measured slots' phases, per slot.
	Phases Phases
}

// Rate and PGRate are transfers per second.
func (f TransferFigures) Rate() float64   { return float64(f.Transfers) / f.Load.Seconds() }
func (f TransferFigures) PGRate() float64 { return float64(f.Transfers) / f.PG.Seconds() }

// spendable is a stored token account a transfer spends.
type spendable struct {
	hash, owner, mint [32]byte
	tree              [32]byte
	amount            uint64
	leaf              uint32
}

// runTransfers picks n token accounts spread over the state, then
// applies one transfer of each, in chunks of chunk transfers: to
// PostgreSQL first when pg is set (see pgTransfers), then to dasch through
// the pipeline. It checks the state each leaves: every picked account
// spent, the supply unchanged and, in dasch, every balance equal to its
// unspent accounts.
func runTransfers(ctx context.Context, s arrowstore.Store, step *compressedstate.StateStep, pg *pgx.Conn, p *Plan, st Stats, n, live, chunk, par int) (TransferFigures, error) {
	fig := TransferFigures{IngestFigures: IngestFigures{Phases: Phases{}}}
	want := n
	if live > 0 {
		// Three series of live slots, each after one warmup slot.
		want += 3 * (live + 1) * transfersPerSlot
	}
	all, err := pickSpendable(ctx, s, p, st.Accounts, want)
	if err != nil {
		return fig, err
	}
	picked, rest := all[:min(n, len(all))], all[min(n, len(all)):]
	fig.Transfers = len(picked)
	if fig.SupplyBefore, err = supply(ctx, s); err != nil {
		return fig, err
	}
	// The transfers' outputs go on with the stream's positions (even, so
	// each transfer's two outputs share Plan.Signature's transaction).
	base := uint64(st.Accounts+1) &^ 1
	first := Slot(base)
	if pg != nil {
		if fig.PG, err = pgTransfers(ctx, pg, p, picked, base, chunk); err != nil {
			return fig, err
		}
	}
	start := time.Now()
	err = runPipeline(ctx, s, step, par, 1, &fig.IngestFigures, first, func(ctx context.Context, emit emitFunc, phase phaseFunc) error {
		for lo := 0; lo < len(picked); lo += chunk {
			t0 := time.Now()
			hi := min(lo+chunk, len(picked))
			evs := transferEvents(p, picked[lo:hi], base+2*uint64(lo), first+uint64(lo/transfersPerSlot))
			phase("generate", time.Since(t0))
			if err := emit(evs, evs[len(evs)-1].Slot); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fig, fmt.Errorf("transfers: %w", err)
	}
	fig.Load = time.Since(start)
	fig.Accounts = 3 * fig.Transfers
	lastSlot := first + uint64((len(picked)-1)/transfersPerSlot)
	if slots := min(live, len(rest)/(3*transfersPerSlot)-1); slots > 0 {
		seq := base + 2*uint64(len(picked))
		if err := liveSlots(ctx, s, step, p, rest, seq, lastSlot+1, slots, par, &fig); err != nil {
			return fig, err
		}
		lastSlot += uint64(fig.LiveTransfers / transfersPerSlot)
	}
	if err := checkpoint.Write(ctx, s, lastSlot); err != nil {
		return fig, err
	}
	if fig.SupplyAfter, err = supply(ctx, s); err != nil {
		return fig, err
	}
	return fig, checkTransfers(ctx, s, fig)
}

// liveSlots ingests slots of transfersPerSlot transfers from picked one
// at a time, each stepped before the next comes, as a live indexer meets
// them: what a slot costs, the state step's work included, is how fresh
// the answers stay. Three series, each after one warmup slot: through
// step (the run's state step, holding its copy of the balances), through
// a new step that scans token_balances for the old balances instead
// (BalanceCache(0)), and through step again, whose copy reloads in the
// warmup slot (the other step wrote since). The engine's caches warm as
// the series go on; the third series shows how much. Slots start at slot,
// their outputs at stream position seq.
func liveSlots(ctx context.Context, s arrowstore.Store, step *compressedstate.StateStep, p *Plan, picked []spendable, seq, slot uint64, slots, par int, fig *TransferFigures) error {
	scan := compressedstate.NewStateStep()
	scan.BalanceCache(0)
	used := 0
	for _, sr := range []struct {
		name string
		step *compressedstate.StateStep
	}{{"balance copy", step}, {"scanning token_balances", scan}, {"balance copy, reloaded", step}} {
		ls := LiveSeries{Name: sr.name, Phases: Phases{}}
		one := func(ctx context.Context, r measure.Req) error {
			start := time.Now()
			lo := used
			at := slot + uint64(lo/transfersPerSlot)
			evs := transferEvents(p, picked[lo:lo+transfersPerSlot], seq+2*uint64(lo), at)
			used += transfersPerSlot
			f := IngestFigures{Phases: Phases{}}
			err := runPipeline(ctx, s, sr.step, par, 1, &f, at, func(_ context.Context, emit emitFunc, _ phaseFunc) error {
				return emit(evs, at)
			})
			if r.Warm {
				ls.Warmup = time.Since(start)
				return err
			}
			for k, d := range f.Phases {
				ls.Phases.add(k, d/time.Duration(slots))
			}
			return err
		}
		// The merges of the writes before run out first: every series
		// meets a quiet engine.
		if _, _, err := settle(ctx, s, 2*time.Minute); err != nil {
			return err
		}
		var err error
		if ls.Series, err = measure.Sequential(ctx, measure.Budget{Warmup: 1, Requests: slots, MinRequests: slots}, one); err != nil {
			return fmt.Errorf("live slots, %s: %w", sr.name, err)
		}
		fig.Live = append(fig.Live, ls)
	}
	fig.LiveTransfers = used
	return nil
}

// pickSpendable reads n stored token accounts spread over the whole state
// (those whose hash falls in a slice of the hash space, which selects
// positions at random), in a random order: outside the timing, as the
// parsed input is.
func pickSpendable(ctx context.Context, s arrowstore.Store, p *Plan, accounts, n int) ([]spendable, error) {
	if n <= 0 || accounts == 0 {
		return nil, nil
	}
	n = min(n, accounts)
	// A tenth more than n match on average; the first n by a second hash
	// are taken.
	slice := max(1, uint64(float64(accounts)/(1.1*float64(n))))
	res, err := s.Query(ctx, `SELECT hash, token_owner, mint, tree, amount, leaf_index FROM compressed_accounts
		WHERE is_token AND cityHash64(hash) % {k:UInt64} = 0
		ORDER BY cityHash64(hash, 1) LIMIT 1 BY hash LIMIT {n:UInt64}`,
		store.Params{"k": strconv.FormatUint(slice, 10), "n": strconv.Itoa(n)})
	if err != nil {
		return nil, fmt.Errorf("pick accounts to spend: %w", err)
	}
	out := make([]spendable, 0, len(res.Rows))
	for _, r := range res.Rows {
		var a spendable
		copy(a.hash[:], r[0].(string))
		copy(a.owner[:], r[1].(string))
		copy(a.mint[:], r[2].(string))
		copy(a.tree[:], r[3].(string))
		a.amount = r[4].(uint64)
		a.leaf = uint32(r[5].(uint64))
		out = append(out, a)
	}
	return out, nil
}

// transferEvents builds the transactions spending picked, at
// transfersPerSlot a slot from slot on: each pays half (rounded down) to
// an ordinary owner drawn from the plan and returns the rest as change.
// Their outputs take stream positions from seq on, two per transaction.
func transferEvents(p *Plan, picked []spendable, seq, slot uint64) []light.Events {
	evs := make([]light.Events, len(picked))
	outs := make([]light.OutputAccount, 2*len(picked))
	toks := make([]light.TokenData, len(outs))
	datas := make([]light.AccountData, len(outs))
	var buf []byte
	for i := range picked {
		a := &picked[i]
		q := seq + 2*uint64(i)
		to, pay := payee(p, a, q)
		at := slot + uint64(i/transfersPerSlot)
		sig := p.Signature(q)
		buf = tokenOutput(p, &outs[2*i], &datas[2*i], &toks[2*i], buf, q, at, &sig, a.mint, to, pay, nil)
		buf = tokenOutput(p, &outs[2*i+1], &datas[2*i+1], &toks[2*i+1], buf, q+1, at, &sig, a.mint, a.owner, a.amount-pay, nil)
		nullifier := key32(p.Cfg.Seed, domTransfer, q)
		evs[i] = light.Events{
			Signature: sig, Slot: at, Compression: true,
			Inputs: []light.InputAccount{{Hash: a.hash, V2: &light.BatchedInput{
				Tree: a.tree, LeafIndex: a.leaf, Nullifier: nullifier, QueueIndex: q / 2,
			}}},
			Outputs: outs[2*i : 2*i+2 : 2*i+2],
		}
	}
	return evs
}

// supply sums every balance.
func supply(ctx context.Context, s arrowstore.Store) (uint64, error) {
	res, err := s.Query(ctx, `SELECT toUInt64(sum(balance)) FROM token_balances FINAL`, nil)
	if err != nil {
		return 0, fmt.Errorf("supply: %w", err)
	}
	return res.Rows[0][0].(uint64), nil
}

// checkTransfers checks what the transfers left: each picked account
// spent once, the supply unchanged, and every balance equal to the sum of
// its pair's unspent accounts.
func checkTransfers(ctx context.Context, s arrowstore.Store, fig TransferFigures) error {
	if fig.SupplyAfter != fig.SupplyBefore {
		return fmt.Errorf("transfers changed the supply: %d before, %d after", fig.SupplyBefore, fig.SupplyAfter)
	}
	res, err := s.Query(ctx, `SELECT
		(SELECT countIf(spent) FROM token_accounts FINAL),
		(SELECT count() FROM (
			SELECT owner, mint, balance FROM token_balances FINAL WHERE balance > 0) AS b
			FULL OUTER JOIN (
			SELECT token_owner AS owner, mint, sum(amount) AS held FROM token_accounts FINAL
			WHERE NOT spent GROUP BY owner, mint HAVING held > 0) AS a USING (owner, mint)
			WHERE b.balance != a.held)`, nil)
	if err != nil {
		return fmt.Errorf("check transfers: %w", err)
	}
	spent, off := res.Rows[0][0].(uint64), res.Rows[0][1].(uint64)
	if want := uint64(fig.Transfers + fig.LiveTransfers); spent != want {
		return fmt.Errorf("check transfers: %d token accounts spent, want %d", spent, want)
	}
	if off != 0 {
		return fmt.Errorf("check transfers: %d balances differ from their unspent accounts", off)
	}
	return nil
}

// payee is who transfer q of a pays, and how much: half of a, rounded
// down, to an ordinary owner drawn from the plan; the rest is change.
func payee(p *Plan, a *spendable, q uint64) (to [32]byte, pay uint64) {
	return p.OwnerKey(OwnerID(mix(p.Cfg.Seed^mix(domTransfer<<56|q)) % p.Pool)), a.amount / 2
}

// pgTransfers applies the transfers to PostgreSQL as Photon persists a
// batch: per chunk, one transaction marks the spent accounts (in
// accounts and token_accounts), inserts the outputs into both (COPY) and
// adds each (owner, mint) pair's net change to
// its balance (an upsert), over one connection. It returns the time the
// transactions took and checks the state they leave as checkTransfers
// does.
func pgTransfers(ctx context.Context, c *pgx.Conn, p *Plan, picked []spendable, seq uint64, chunk int) (time.Duration, error) {
	var before, after pgtype.Numeric
	if err := c.QueryRow(ctx, `SELECT sum(amount) FROM token_owner_balances`).Scan(&before); err != nil {
		return 0, fmt.Errorf("postgres supply: %w", err)
	}
	var took time.Duration
	for lo := 0; lo < len(picked); lo += chunk {
		hi := min(lo+chunk, len(picked))
		spent := make([][]byte, 0, hi-lo)
		outs := make([][]any, 0, 2*(hi-lo))
		full := make([][]any, 0, 2*(hi-lo))
		key := func(k [32]byte) []byte { return k[:] }
		type pair struct{ owner, mint [32]byte }
		delta := map[pair]int64{}
		for i := lo; i < hi; i++ {
			a := &picked[i]
			q := seq + 2*uint64(i)
			to, pay := payee(p, a, q)
			h0, h1 := p.AccountHash(q), p.AccountHash(q+1)
			spent = append(spent, a.hash[:])
			outs = append(outs,
				[]any{h0[:], to[:], a.mint[:], nil, int32(0), false, nil, pay, nil},
				[]any{h1[:], a.owner[:], a.mint[:], nil, int32(0), false, nil, a.amount - pay, nil})
			full = append(full,
				pgAccountRow(p, q, h0[:], light.AppendTokenData(nil, &a.mint, &to, pay, nil, uint8(light.TokenInitialized), nil), key),
				pgAccountRow(p, q+1, h1[:], light.AppendTokenData(nil, &a.mint, &a.owner, a.amount-pay, nil, uint8(light.TokenInitialized), nil), key))
			delta[pair{to, a.mint}] += int64(pay)
			delta[pair{a.owner, a.mint}] -= int64(pay)
		}
		var owners, mints [][]byte
		var amounts []int64
		for k, d := range delta {
			if d != 0 {
				owners, mints, amounts = append(owners, k.owner[:]), append(mints, k.mint[:]), append(amounts, d)
			}
		}
		start := time.Now()
		err := pgx.BeginFunc(ctx, c, func(tx pgx.Tx) error {
			for _, table := range []string{"accounts", "token_accounts"} {
				tag, err := tx.Exec(ctx, `UPDATE `+table+` SET spent = true, prev_spent = false WHERE hash = ANY($1) AND NOT spent`, spent)
				if err != nil {
					return fmt.Errorf("mark spent in %s: %w", table, err)
				}
				if tag.RowsAffected() != int64(len(spent)) {
					return fmt.Errorf("marked %d spent of %d in %s", tag.RowsAffected(), len(spent), table)
				}
			}
			// accounts first: token_accounts references it.
			if _, err := tx.CopyFrom(ctx, pgx.Identifier{"accounts"}, pgAccountCols, pgx.CopyFromRows(full)); err != nil {
				return fmt.Errorf("insert output accounts: %w", err)
			}
			if _, err := tx.CopyFrom(ctx, pgx.Identifier{"token_accounts"},
				[]string{"hash", "owner", "mint", "delegate", "state", "spent", "prev_spent", "amount", "tlv"}, pgx.CopyFromRows(outs)); err != nil {
				return fmt.Errorf("insert outputs: %w", err)
			}
			_, err := tx.Exec(ctx, `INSERT INTO token_owner_balances (owner, mint, amount)
				SELECT * FROM unnest($1::bytea[], $2::bytea[], $3::numeric[])
				ON CONFLICT (owner, mint) DO UPDATE SET amount = token_owner_balances.amount + EXCLUDED.amount`,
				owners, mints, amounts)
			if err != nil {
				return fmt.Errorf("balances: %w", err)
			}
			return nil
		})
		took += time.Since(start)
		if err != nil {
			return took, fmt.Errorf("postgres transfers: %w", err)
		}
	}
	var spent, spentAccounts int64
	if err := c.QueryRow(ctx, `SELECT (SELECT sum(amount) FROM token_owner_balances), (SELECT count(*) FROM token_accounts WHERE spent),
		(SELECT count(*) FROM accounts WHERE spent)`).
		Scan(&after, &spent, &spentAccounts); err != nil {
		return took, fmt.Errorf("postgres supply: %w", err)
	}
	if b, a := numString(before), numString(after); b != a {
		return took, fmt.Errorf("postgres transfers changed the supply: %s before, %s after", b, a)
	}
	if spent != int64(len(picked)) || spentAccounts != spent {
		return took, fmt.Errorf("postgres transfers: %d token accounts and %d accounts spent, want %d", spent, spentAccounts, len(picked))
	}
	return took, nil
}

// numString renders a numeric for comparison.
func numString(n pgtype.Numeric) string {
	v, err := n.Value()
	if err != nil {
		return "invalid: " + err.Error()
	}
	return fmt.Sprint(v)
}

package compressed

import (
	"context"
	"encoding/binary"
	"fmt"
	"strconv"
	"time"

	"github.com/dasch-labs/dasch/ingest/light"
	"github.com/dasch-labs/dasch/store"
)

// transfersPerSlot places the transfers on the slots after the state.
const transfersPerSlot = 100

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
}

// AccountsPerSec counts the accounts the transfers touched (spent and
// created) per second.
func (f TransferFigures) AccountsPerSec() float64 { return float64(3*f.Transfers) / f.Load.Seconds() }

// spendable is a stored token account a transfer spends.
type spendable struct {
	hash, owner, mint [32]byte
	tree              [32]byte
	amount            uint64
	leaf              uint32
}

// runTransfers picks n token accounts spread over the state, then ingests
// one transfer of each through the pipeline (chunks of chunk transfers)
// and checks the state it leaves: every picked account spent, every
// balance equal to its unspent accounts, the supply unchanged.
func runTransfers(ctx context.Context, s store.Store, p *Plan, st Stats, n, chunk, par int) (TransferFigures, error) {
	fig := TransferFigures{IngestFigures: IngestFigures{Phases: Phases{}}}
	picked, err := pickSpendable(ctx, s, p, st.Accounts, n)
	if err != nil {
		return fig, err
	}
	fig.Transfers = len(picked)
	if fig.SupplyBefore, err = supply(ctx, s); err != nil {
		return fig, err
	}
	// The transfers' outputs go on with the stream's positions (even, so
	// each transfer's two outputs share Plan.Signature's transaction).
	base := uint64(st.Accounts+1) &^ 1
	first := Slot(base)
	start := time.Now()
	err = runPipeline(ctx, s, par, &fig.IngestFigures, first, func(ctx context.Context, emit emitFunc, phase phaseFunc) error {
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
	if err := checkpoint(ctx, s, lastSlot); err != nil {
		return fig, err
	}
	if fig.SupplyAfter, err = supply(ctx, s); err != nil {
		return fig, err
	}
	return fig, checkTransfers(ctx, s, fig)
}

// pickSpendable reads n stored token accounts spread over the whole state
// (those whose hash falls in a slice of the hash space, which selects
// positions at random), in a random order: outside the timing, as the
// parsed input is.
func pickSpendable(ctx context.Context, s store.Store, p *Plan, accounts, n int) ([]spendable, error) {
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
	program := light.CompressedTokenProgram()
	var disc [8]byte
	binary.LittleEndian.PutUint64(disc[:], light.TokenDiscriminatorV1)
	evs := make([]light.Events, len(picked))
	var buf []byte
	for i := range picked {
		a := &picked[i]
		q := seq + 2*uint64(i)
		to := p.OwnerKey(OwnerID(mix(p.Cfg.Seed^mix(domTransfer<<56|q)) % p.Pool))
		pay := a.amount / 2
		outs := make([]light.OutputAccount, 0, 2)
		for j, o := range []struct {
			owner  [32]byte
			amount uint64
		}{{to, pay}, {a.owner, a.amount - pay}} {
			oq := q + uint64(j)
			start := len(buf)
			buf = tokenData(buf, &a.mint, &o.owner, o.amount, nil)
			data := &light.AccountData{Discriminator: disc, Data: buf[start:len(buf):len(buf)], DataHash: p.DataHash(oq)}
			outs = append(outs, light.OutputAccount{
				Hash: p.AccountHash(oq), Tree: p.Tree(oq), Queue: p.Queue(oq), TreeType: light.TreeStateV2,
				LeafIndex: uint32(LeafIndex(oq)), InOutputQueue: true, SlotCreated: slot + uint64(i/transfersPerSlot),
				Owner: program, Data: data,
				Token: &light.TokenData{Mint: a.mint, Owner: o.owner, Amount: o.amount, State: light.TokenInitialized},
			})
		}
		nullifier := key32(p.Cfg.Seed, domTransfer, q)
		evs[i] = light.Events{
			Signature: p.Signature(q), Slot: slot + uint64(i/transfersPerSlot), Compression: true,
			Inputs: []light.InputAccount{{Hash: a.hash, V2: &light.BatchedInput{
				Tree: a.tree, LeafIndex: a.leaf, Nullifier: nullifier, QueueIndex: q / 2,
			}}},
			Outputs: outs,
		}
	}
	return evs
}

// supply sums every balance.
func supply(ctx context.Context, s store.Store) (uint64, error) {
	res, err := s.Query(ctx, `SELECT toUInt64(sum(balance)) FROM token_balances FINAL`, nil)
	if err != nil {
		return 0, fmt.Errorf("supply: %w", err)
	}
	return res.Rows[0][0].(uint64), nil
}

// checkTransfers checks what the transfers left: each picked account
// spent once, the supply unchanged, and every balance equal to the sum of
// its pair's unspent accounts.
func checkTransfers(ctx context.Context, s store.Store, fig TransferFigures) error {
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
	if spent != uint64(fig.Transfers) {
		return fmt.Errorf("check transfers: %d token accounts spent, want %d", spent, fig.Transfers)
	}
	if off != 0 {
		return fmt.Errorf("check transfers: %d balances differ from their unspent accounts", off)
	}
	return nil
}

package hotindex

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/query/assetrows"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
)

// assetChunks splits the key space by its first byte: each chunk is one
// primary-key range read, a 256th of the table.
const assetChunks = 256

// Load fills the index chunk by chunk in key order until the budget is
// reached; the keys past it stay with the store. The slot and the sync
// watermark are read first, so the index reflects at least that slot and
// the first Sync re-reads anything written while loading. It starts from
// empty, so a load that failed part way can be run again: states it had
// added and that are gone since would otherwise stay.
func (x *Assets) Load(ctx context.Context) error {
	x.syncMu.Lock()
	defer x.syncMu.Unlock()
	x.reset()
	mark, err := x.mark(ctx)
	if err != nil {
		return err
	}
	full := true
	for c := 0; c < assetChunks && full; c++ {
		lo, hi := keyChunk[solana.Pubkey](c, assetChunks)
		states, err := assetrows.LoadRange(ctx, x.s, lo, hi)
		if err != nil {
			return fmt.Errorf("asset index: %w", err)
		}
		var end solana.Pubkey // the last chunk's: unused, it ends the key space
		if hi != nil {
			end = *hi
		}
		full = x.addChunk(states, end)
	}
	x.mu.Lock()
	x.all = full
	x.slot, x.indexed, x.ready = mark.slot, mark.indexed, true
	x.mu.Unlock()
	x.watermark = mark.now - syncLag.Milliseconds()
	return nil
}

// addChunk adds a chunk's states in key order and moves the covered
// prefix to hi. When the budget runs out it stops at the first key that
// does not fit, covers up to it and reports false.
func (x *Assets) addChunk(states map[solana.Pubkey]*asset.State, hi solana.Pubkey) bool {
	keys := make([]solana.Pubkey, 0, len(states))
	for k := range states {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b solana.Pubkey) int { return bytes.Compare(a[:], b[:]) })
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, k := range keys {
		st := states[k]
		if x.bytes+stateBytes(st) > x.budget {
			x.covered = k
			return false
		}
		x.set(k, st)
	}
	x.covered = hi
	return true
}

// evict drops the highest keys until the index fits its budget again
// (with a twentieth to spare, so it does not evict on every sync), and
// shrinks the covered prefix to the lowest key dropped.
func (x *Assets) evict() {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.bytes <= x.budget {
		return
	}
	keys := make([]solana.Pubkey, 0, len(x.states))
	for k := range x.states {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b solana.Pubkey) int { return bytes.Compare(b[:], a[:]) })
	target := x.budget - x.budget/20
	for _, k := range keys {
		if x.bytes <= target {
			break
		}
		x.set(k, nil)
		x.covered, x.all = k, false
	}
}

// mark is where a load or sync starts: the indexed slot and the store's
// clock, read together before any state.
type mark struct {
	slot    uint64
	indexed bool
	now     int64 // ms since the epoch, the clock indexed_at is stamped by
}

func (x *Assets) mark(ctx context.Context) (mark, error) {
	res, err := x.s.Query(ctx, `SELECT max(slot), count(), toInt64(toUnixTimestamp64Milli(now64(3)))
		FROM `+schema.TableCheckpoints+` WHERE name = {n:String}`, store.Params{"n": schema.CheckpointMain})
	if err != nil {
		return mark{}, fmt.Errorf("asset index: read indexed slot: %w", err)
	}
	if len(res.Rows) != 1 || len(res.Rows[0]) != 3 {
		return mark{}, errors.New("asset index: unexpected checkpoint row")
	}
	r := res.Row(0)
	slot, n, now := r.U64(0), r.U64(1), r.I64(2)
	if err := r.Err(); err != nil {
		return mark{}, fmt.Errorf("asset index: checkpoint row: %w", err)
	}
	return mark{slot: slot, indexed: n > 0, now: now}, nil
}

package hotindex

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/query/assetrows"
	"github.com/dasch-labs/dasch/store"
)

// syncLag is how far behind the store's clock each poll starts. A row is
// stamped indexed_at when its insert begins but is visible only once the
// insert commits: re-reading the last seconds catches inserts that were in
// flight at the previous poll. Rows seen before are skipped by identity.
const syncLag = 5 * time.Second

// syncBatch is the most assets reloaded by one store read.
const syncBatch = 1000

// changesSQL lists the rows written since the watermark: one per account
// write (identity asset, kind, pubkey; version slot, write_version) and
// one per Bubblegum event (identity asset, signature, seq, position).
const changesSQL = `
SELECT asset_id, kind, toString(pubkey), slot, write_version, toInt64(toUnixTimestamp64Milli(indexed_at))
FROM asset_accounts WHERE indexed_at >= fromUnixTimestamp64Milli({w:Int64}, 'UTC')
UNION ALL
SELECT asset_id, 'bubblegum', toString(signature), seq, toUInt64(ix_outer) * 65536 + toUInt64(ix_inner + 1),
	toInt64(toUnixTimestamp64Milli(indexed_at))
FROM bubblegum_events WHERE indexed_at >= fromUnixTimestamp64Milli({w:Int64}, 'UTC')
SETTINGS max_threads = 1`

// change is one row of changesSQL.
type change struct {
	asset     solana.Pubkey
	identity  string
	row       appliedRow
	isAccount bool
}

// Sync reloads the assets written since the last Load or Sync and moves
// the index to the slot read before them. A changed edition PDA or Core
// collection is an asset id of its own, so it is reloaded like any other.
func (x *Assets) Sync(ctx context.Context) error {
	x.syncMu.Lock()
	defer x.syncMu.Unlock()
	x.mu.RLock()
	ready := x.ready
	x.mu.RUnlock()
	if !ready {
		return errors.New("asset index: sync before load")
	}
	m, err := x.mark(ctx)
	if err != nil {
		return err
	}
	changes, err := x.changes(ctx)
	if err != nil {
		return err
	}
	var ids []solana.Pubkey
	want := map[solana.Pubkey]bool{}
	var fresh []change
	x.mu.RLock()
	for _, c := range changes {
		if !x.covers(c.asset) || x.seen(c) {
			continue
		}
		fresh = append(fresh, c)
		if !want[c.asset] {
			want[c.asset] = true
			ids = append(ids, c.asset)
		}
	}
	x.mu.RUnlock()
	for len(ids) > 0 {
		n := min(len(ids), syncBatch)
		states, err := assetrows.Load(ctx, x.s, ids[:n])
		if err != nil {
			return fmt.Errorf("asset index: %w", err)
		}
		x.mu.Lock()
		for _, k := range ids[:n] {
			if x.covers(k) { // an eviction may have moved the prefix
				x.set(k, states[k])
			}
		}
		x.mu.Unlock()
		ids = ids[n:]
	}
	// Every fresh row was visible to the reload above: it is applied.
	for _, c := range fresh {
		if a, ok := x.applied[c.identity]; !ok || !x.seen(c) {
			x.applied[c.identity] = c.row
		} else {
			a.indexedAt = max(a.indexedAt, c.row.indexedAt)
			x.applied[c.identity] = a
		}
	}
	x.watermark = m.now - syncLag.Milliseconds()
	for id, r := range x.applied {
		if r.indexedAt < x.watermark {
			delete(x.applied, id) // past the window: never listed again
		}
	}
	x.mu.Lock()
	x.slot, x.indexed = m.slot, m.indexed
	x.mu.Unlock()
	x.evict()
	return nil
}

// seen reports whether c changes nothing already reloaded: the same event,
// or an account write no newer than one applied.
func (x *Assets) seen(c change) bool {
	a, ok := x.applied[c.identity]
	if !ok {
		return false
	}
	if !c.isAccount {
		return true
	}
	if c.row.slot != a.slot {
		return c.row.slot < a.slot
	}
	return c.row.writeVersion <= a.writeVersion
}

// changes reads the rows written at or after the watermark.
func (x *Assets) changes(ctx context.Context) ([]change, error) {
	res, err := x.s.Query(ctx, changesSQL, store.Params{"w": strconv.FormatInt(x.watermark, 10)})
	if err != nil {
		return nil, fmt.Errorf("asset index: read changes: %w", err)
	}
	out := make([]change, 0, len(res.Rows))
	for i := range res.Rows {
		r := res.Row(i)
		if r.Len() != 6 {
			return nil, errors.New("asset index: unexpected change row")
		}
		// The asset id as a key (Key checks its width) and as the raw
		// string the identity starts with.
		asset, id := r.Key(0), r.Str(0)
		kind, sub, a, b, at := r.Str(1), r.Str(2), r.U64(3), r.U64(4), r.I64(5)
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("asset index: change row: %w", err)
		}
		c := change{asset: asset, isAccount: kind != "bubblegum", row: appliedRow{indexedAt: at}}
		if c.isAccount {
			c.identity = id + kind + "/" + sub
			c.row.slot, c.row.writeVersion = a, b
		} else {
			// An event is identified by its signature, seq and position.
			var pos [16]byte
			binary.BigEndian.PutUint64(pos[:8], a)
			binary.BigEndian.PutUint64(pos[8:], b)
			c.identity = id + kind + "/" + sub + string(pos[:])
		}
		out = append(out, c)
	}
	return out, nil
}

// Run syncs every interval until ctx ends; errors go to onErr (which may be
// nil) and the next tick retries.
func (x *Assets) Run(ctx context.Context, interval time.Duration, onErr func(error)) {
	syncEvery(ctx, interval, x.Sync, onErr)
}

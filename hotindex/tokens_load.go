package hotindex

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/store"
)

// tokenChunks splits the owner key space by its first byte for the load:
// each chunk is one primary-key range read, and the unit the budget
// covers.
const tokenChunks = 256

// DefaultTokenBudget bounds the token account index: about 40M accounts
// at some 150 bytes each (the struct, its share of the owner map).
const DefaultTokenBudget int64 = 6 << 30

// OpenTokens loads a token account index over s within budget bytes and
// keeps it in sync every interval until ctx ends; sync errors go to onErr
// (nil ignores them) and are retried.
func OpenTokens(ctx context.Context, s store.Querier, budget int64, interval time.Duration, onErr func(error)) (*Tokens, time.Duration, error) {
	x := NewTokens(s, budget)
	took, err := x.Start(ctx, interval, onErr)
	if err != nil {
		return nil, 0, err
	}
	return x, took, nil
}

// Start loads x and keeps it in sync as OpenTokens does, returning the
// load's time. Until the load finishes, x holds no key (ok is false) and
// the store answers, so a server can Start it in the background.
func (x *Tokens) Start(ctx context.Context, interval time.Duration, onErr func(error)) (time.Duration, error) {
	return start(ctx, x.Load, x.Run, interval, onErr)
}

// Load fills the index chunk by chunk in owner key order with the state
// as of the indexed slot, read first, until the budget is reached. It
// starts from empty, so a load that failed part way can be run again:
// accounts it had listed and that were spent since would otherwise stay.
func (x *Tokens) Load(ctx context.Context) error {
	x.syncMu.Lock()
	defer x.syncMu.Unlock()
	x.reset()
	// The rewrite log is read with the slot, before the rows: a rewrite
	// logged while the index loads is re-read by the next Sync.
	st, err := compressed.ReadIndexState(ctx, x.s, 0)
	if err != nil {
		return fmt.Errorf("token index: %w", err)
	}
	x.rewritten = st.Rewrites.Last
	slot, indexed := st.Slot, st.Indexed
	full := true
	if indexed {
		if full, err = x.loadChunks(ctx, slot); err != nil {
			return err
		}
	}
	x.mu.Lock()
	x.all = full
	if !full {
		x.byDeleg = nil // a delegate's accounts are spread over every owner
	}
	x.slot, x.indexed, x.ready = slot, indexed, true
	x.mu.Unlock()
	// Without a checkpoint nothing was loaded: the first sync reads from
	// slot 0.
	if indexed {
		x.next = slot + 1
	}
	return nil
}

// reset empties the index and marks it not ready: the state NewTokens
// starts from and every Load starts over from.
func (x *Tokens) reset() {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.byOwner, x.byDeleg = map[compressed.Key][]tokAcc{}, map[compressed.Key][]delegRef{}
	x.extra, x.keys, x.keyIDs = map[compressed.Key]*tokExtra{}, nil, map[compressed.Key]uint32{}
	x.accounts, x.bytes, x.covered, x.all, x.ready = 0, 0, compressed.Key{}, false, false
}

// loadChunks adds the chunks in key order while they fit the budget and
// reports whether all did. (Reading the next chunk while building one was
// tried: its gain was within the machine's noise, docs/performance.md.)
func (x *Tokens) loadChunks(ctx context.Context, slot uint64) (bool, error) {
	for c := 0; c < tokenChunks; c++ {
		lo, hi := keyChunk[compressed.Key](c, tokenChunks)
		rows, err := compressed.UnspentTokenRows(ctx, x.s, lo, hi, slot)
		if err != nil {
			return false, fmt.Errorf("token index: %w", err)
		}
		if x.bytes+chunkBytes(rows) > x.budget {
			return false, nil // covered stays at lo
		}
		x.mu.Lock()
		x.all = hi == nil
		if hi != nil {
			x.covered = *hi
		}
		x.mu.Unlock()
		x.apply(rows, nil)
	}
	return true, nil
}

// chunkBytes estimates what rows add to the index.
func chunkBytes(rows []compressed.TokenRow) int64 {
	return int64(len(rows)) * (tokAccBytes + tokListBytes)
}

// Sync applies the rows of the slots indexed since the last Load or Sync
// and moves the index to the slot read before them, then the rows of the
// ranges logged as rewritten since (syncRewrites). It reads no rows when
// neither moved: the ingest writes the checkpoint after the state step.
func (x *Tokens) Sync(ctx context.Context) error {
	x.syncMu.Lock()
	defer x.syncMu.Unlock()
	// One statement reads both the slot and the rewrite log.
	st, err := compressed.ReadIndexState(ctx, x.s, x.rewritten)
	if err != nil {
		return fmt.Errorf("token index: %w", err)
	}
	if !st.Indexed {
		return nil
	}
	if slot := st.Slot; slot+1 > x.next {
		rows, err := compressed.TokenRowsChanged(ctx, x.s, x.next, slot)
		if err != nil {
			return fmt.Errorf("token index: %w", err)
		}
		x.applyRows(rows)
		x.mu.Lock()
		x.slot, x.indexed = slot, true
		x.mu.Unlock()
		x.next = slot + 1
	}
	return x.syncRewrites(ctx, st.Rewrites)
}

// syncRewrites applies the rows of the slot ranges an ingest derived again
// at or below the indexed slot since the last Load or Sync (a backfill):
// the checkpoint does not move for them, so the poll by slot above never
// reads them. Caller holds syncMu, and the index has a slot.
func (x *Tokens) syncRewrites(ctx context.Context, rw compressed.Rewrites) error {
	if !rw.Any {
		return nil
	}
	rows, err := compressed.TokenRowsRewritten(ctx, x.s, rw.From, rw.To, x.next-1)
	if err != nil {
		return fmt.Errorf("token index: %w", err)
	}
	x.applyRows(rows)
	x.rewritten = rw.Last
	return nil
}

// applyRows applies token_accounts rows as read, unspent and spent rows
// mixed. An account created and spent in the range comes as both rows:
// apply drops it.
func (x *Tokens) applyRows(rows []compressed.TokenRow) {
	var live, gone []compressed.TokenRow
	for i := range rows {
		if rows[i].Spent {
			gone = append(gone, rows[i])
		} else {
			live = append(live, rows[i])
		}
	}
	x.apply(live, gone)
}

// Run syncs every interval until ctx ends; errors go to onErr (which may
// be nil) and the next tick retries.
func (x *Tokens) Run(ctx context.Context, interval time.Duration, onErr func(error)) {
	syncEvery(ctx, interval, x.Sync, onErr)
}

// ownerChange is what one apply does to one owner's list.
type ownerChange struct {
	add  []tokAcc
	drop map[compressed.Key]bool // hashes
}

// apply adds the accounts of live (replacing any of the same hash) and
// removes those of gone, which wins over live, for covered owners. Caller
// holds syncMu.
func (x *Tokens) apply(live, gone []compressed.TokenRow) {
	if len(live) == 0 && len(gone) == 0 {
		return
	}
	// Intern first: the lists built below sort by mint key.
	x.mu.Lock()
	changes := map[compressed.Key]*ownerChange{}
	change := func(owner compressed.Key) *ownerChange {
		c := changes[owner]
		if c == nil {
			c = &ownerChange{}
			changes[owner] = c
		}
		return c
	}
	extras := map[compressed.Key]*tokExtra{}
	for i := range live {
		r := &live[i]
		if !x.covers(r.TokenOwner) {
			continue
		}
		e, ex := x.entry(r)
		if ex != nil {
			extras[e.hash] = ex
		}
		c := change(r.TokenOwner)
		c.add = append(c.add, e)
	}
	for i := range gone {
		r := &gone[i]
		if !x.covers(r.TokenOwner) {
			continue
		}
		c := change(r.TokenOwner)
		if c.drop == nil {
			c.drop = map[compressed.Key]bool{}
		}
		c.drop[r.Hash] = true
	}
	x.mu.Unlock()

	// Only this goroutine writes, so reading the current lists unlocked is
	// safe; readers keep seeing the old lists until the swap.
	lists := make(map[compressed.Key][]tokAcc, len(changes))
	var delta int64
	var accounts int
	delegAdd, delegDrop := map[compressed.Key][]delegRef{}, map[compressed.Key]map[compressed.Key]bool{}
	for owner, c := range changes {
		cur := x.byOwner[owner]
		// The new accounts replace listed ones of the same hash (an
		// account indexed again), and dropped ones go.
		replaced := make(map[compressed.Key]bool, len(c.add))
		for _, e := range c.add {
			replaced[e.hash] = true
		}
		out := make([]tokAcc, 0, len(cur)+len(c.add))
		for _, e := range cur {
			if replaced[e.hash] || c.drop[e.hash] {
				if e.flags&fDelegate != 0 {
					d := x.keys[e.delegate]
					if delegDrop[d] == nil {
						delegDrop[d] = map[compressed.Key]bool{}
					}
					delegDrop[d][e.hash] = true
				}
				continue
			}
			out = append(out, e)
		}
		for _, e := range c.add {
			if c.drop[e.hash] {
				continue
			}
			out = append(out, e)
			if e.flags&fDelegate != 0 {
				d := x.keys[e.delegate]
				delegAdd[d] = append(delegAdd[d], delegRef{owner: owner, hash: e.hash, mint: e.mint})
			}
		}
		slices.SortFunc(out, func(a, b tokAcc) int { return x.less(&a, &b) })
		out = slices.CompactFunc(out, func(a, b tokAcc) bool { return a.hash == b.hash })
		lists[owner] = slices.Clip(out)
		accounts += len(out) - len(cur)
		delta += int64(len(out)-len(cur)) * tokAccBytes
		switch {
		case len(cur) == 0 && len(out) > 0:
			delta += tokListBytes
		case len(cur) > 0 && len(out) == 0:
			delta -= tokListBytes
		}
	}
	var delegs map[compressed.Key][]delegRef
	if x.byDeleg != nil {
		delegs = map[compressed.Key][]delegRef{}
		for _, d := range keysOf(delegAdd, delegDrop) {
			cur := x.byDeleg[d]
			out := make([]delegRef, 0, len(cur)+len(delegAdd[d]))
			for _, r := range cur {
				if !delegDrop[d][r.hash] {
					out = append(out, r)
				}
			}
			out = append(out, delegAdd[d]...)
			slices.SortFunc(out, func(a, b delegRef) int { return x.cmp(a.mint, &a.hash, &x.keys[b.mint], &b.hash) })
			out = slices.CompactFunc(out, func(a, b delegRef) bool { return a.hash == b.hash })
			delegs[d] = slices.Clip(out)
			delta += int64(len(out)-len(cur)) * delegRefBytes
		}
	}

	x.mu.Lock()
	defer x.mu.Unlock()
	for owner, l := range lists {
		if len(l) == 0 {
			delete(x.byOwner, owner)
		} else {
			x.byOwner[owner] = l
		}
	}
	for d, l := range delegs {
		if len(l) == 0 {
			delete(x.byDeleg, d)
		} else {
			x.byDeleg[d] = l
		}
	}
	for h, ex := range extras {
		if old, ok := x.extra[h]; ok {
			delta -= old.size()
		}
		x.extra[h] = ex
		delta += ex.size()
	}
	// After the adds: an account both added and dropped keeps no extra.
	for _, c := range changes {
		for h := range c.drop {
			if ex, ok := x.extra[h]; ok {
				delta -= ex.size()
				delete(x.extra, h)
			}
		}
	}
	x.accounts += accounts
	x.bytes += delta
}

func keysOf(a map[compressed.Key][]delegRef, b map[compressed.Key]map[compressed.Key]bool) []compressed.Key {
	out := make([]compressed.Key, 0, len(a)+len(b))
	for k := range a {
		out = append(out, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	return out
}

// covers reports whether owner is in the covered prefix. Caller holds mu.
func (x *Tokens) covers(owner compressed.Key) bool {
	return x.all || bytes.Compare(owner[:], x.covered[:]) < 0
}

// entry packs r, interning its keys. Caller holds mu for writing.
func (x *Tokens) entry(r *compressed.TokenRow) (tokAcc, *tokExtra) {
	a := &r.Account
	e := tokAcc{
		hash: a.Hash, leafIndex: a.LeafIndex, slot: a.SlotCreated, lamports: a.Lamports, amount: a.Amount,
		mint: x.intern(a.Mint), tree: x.intern(a.Tree), queue: x.intern(a.Queue), program: x.intern(a.Owner),
		treeType: a.TreeType, state: a.TokenState,
	}
	if a.Seq != nil {
		e.seq, e.flags = *a.Seq, e.flags|fSeq
	}
	if a.InOutputQueue {
		e.flags |= fOutQueue
	}
	if a.Delegate != nil {
		e.delegate, e.flags = x.intern(*a.Delegate), e.flags|fDelegate
	}
	var ex *tokExtra
	if a.Data != nil {
		e.disc, e.dataHash, e.flags = a.Data.Discriminator, a.Data.DataHash, e.flags|fData
		if r.DataStored {
			d := string(a.Data.Data)
			ex = &tokExtra{data: &d}
		}
	}
	if a.Address != nil || a.TLV != nil {
		if ex == nil {
			ex = &tokExtra{}
		}
		ex.address, ex.tlv = a.Address, a.TLV
	}
	if ex != nil {
		e.flags |= fExtra
	}
	return e, ex
}

func (ex *tokExtra) size() int64 {
	n := int64(96 + len(ex.tlv))
	if ex.data != nil {
		n += int64(len(*ex.data))
	}
	return n
}

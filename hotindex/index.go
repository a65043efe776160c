// Package hotindex holds a hot, read-optimised copy of the token balances in
// the API process: mint holders by (balance, owner) descending and owner
// balances by mint, each answering a page in O(log n + limit). ClickHouse
// stays the source of truth; the index is loaded from token_balances and
// follows it by polling rows of newer versions. It exists because a page
// read through ReplacingMergeTree FINAL merges the whole remaining key range
// and the embedded engine has a per-query floor of a few milliseconds.
//
// The index holds a prefix of the owner key space, whole load chunks,
// bounded by a memory budget: owners past it, and every mint unless all
// owners are held, are answered from the store.
package hotindex

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/store"
)

// holders is one mint's holders in page order: balance descending, then
// owner key descending. Parallel slices keep an entry at 12 bytes. A value
// is never modified once published: a change builds a new one.
type holders struct {
	bal   []uint64
	owner []uint32 // owner ids
}

// ownerBal is one of an owner's balances; an owner's list is sorted by mint
// key and, like holders, replaced rather than modified.
type ownerBal struct {
	bal  uint64
	mint uint32 // mint id
}

// Index is the in-memory read model. Owners and mints are interned to ids
// so each (owner, mint) pair costs two small entries, not two 32-byte keys.
// Readers take the read lock for the length of one page; the single writer
// (Load, Sync) prepares new lists outside the lock and swaps them in.
type Index struct {
	s      store.Querier
	budget int64

	mu        sync.RWMutex
	ownerKeys []compressed.Key
	ownerIDs  map[compressed.Key]uint32
	mintKeys  []compressed.Key
	mintIDs   map[compressed.Key]uint32
	byMint    []*holders   // by mint id; nil unless every chunk is held
	byOwner   [][]ownerBal // by owner id
	entries   int
	bytes     int64 // the estimate Stats reports, kept as lists change
	// held is how many load chunks, from the first, the index holds:
	// an owner is held when its chunk is below it, a mint only when
	// every chunk is (a holder list needs every owner).
	held    int
	slot    uint64
	indexed bool
	// ready is set once Load has finished; atomic, as the handlers ask
	// it on every request before taking the read lock for the page.
	ready atomic.Bool

	// Writer state, touched by Load and Sync only (syncMu).
	syncMu      sync.Mutex
	fromVersion uint64 // next poll reads versions >= this
}

// DefaultBalanceBudget bounds the balance index: about 18M balances at
// some 58 bytes each (both lists, the keys and their maps).
const DefaultBalanceBudget int64 = 1 << 30

// New returns an empty index over s holding at most budget bytes
// (estimated); call Load before serving from it.
func New(s store.Querier, budget int64) *Index {
	x := &Index{s: s, budget: budget}
	x.reset()
	return x
}

// reset empties the index and marks it not ready: the state New starts
// from and every Load starts over from.
func (x *Index) reset() {
	x.ready.Store(false)
	x.mu.Lock()
	defer x.mu.Unlock()
	x.ownerKeys, x.ownerIDs, x.mintKeys, x.mintIDs = nil, map[compressed.Key]uint32{}, nil, map[compressed.Key]uint32{}
	x.byMint, x.byOwner, x.entries, x.bytes, x.held = nil, nil, 0, 0, 0
}

// Budget is the bytes (estimated as Stats does) the index holds at most.
func (x *Index) Budget() int64 { return x.budget }

// chunkOf returns the load chunk of owner key k (keyChunk's ranges).
func chunkOf(k *compressed.Key) int { return int(k[0]) * loadChunks / 256 }

// holds tells whether owner's balances are in the index. Caller holds mu
// (or is the writer).
func (x *Index) holds(owner *compressed.Key) bool { return chunkOf(owner) < x.held }

// complete tells whether every chunk is held, and so every mint's holders.
func (x *Index) complete() bool { return x.held == loadChunks }

// Memory estimate of the lists: a holder entry, a mint's holders, an
// owner balance, an owner's list header, and a key in its id slice plus
// its map entry (key, id, hash overhead).
const (
	holderEntryBytes = 8 + 4
	holdersBytes     = 48
	ownerBalBytes    = 16
	ownerListBytes   = 24
	keyBytes         = 32 + 48
)

// Stats describes the loaded index.
type Stats struct {
	Entries, Owners, Mints int
	// Bytes estimates the memory the index holds (entries, keys, maps).
	Bytes int64
	// HeldChunks of Chunks load chunks of the owner key space are held:
	// owners past them, and every mint unless all are held, are read
	// from the store.
	HeldChunks, Chunks int
	Slot               uint64
}

// Stats reports the current size of the index.
func (x *Index) Stats() Stats {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return Stats{Entries: x.entries, Owners: len(x.ownerKeys), Mints: len(x.mintKeys), Bytes: x.bytes,
		HeldChunks: x.held, Chunks: loadChunks, Slot: x.slot}
}

// measure estimates the memory the lists and keys take, walking them all;
// apply keeps x.bytes equal to it by deltas. Caller holds mu (or is the
// writer).
func (x *Index) measure() int64 {
	var b int64
	for _, h := range x.byMint {
		b += holdersSize(h)
	}
	for _, o := range x.byOwner {
		b += int64(cap(o))*ownerBalBytes + ownerListBytes
	}
	b += int64(len(x.ownerKeys)+len(x.mintKeys)) * keyBytes
	return b
}

func holdersSize(h *holders) int64 {
	return int64(cap(h.bal))*8 + int64(cap(h.owner))*4 + holdersBytes
}

// loadChunks splits the owner key space by its first byte so no single
// query returns the whole table: each chunk is a primary-key range.
const loadChunks = 64

// row is one (owner, mint) balance read from token_balances.
type row struct {
	owner, mint compressed.Key
	bal         uint64
	version     uint64
}

// Load reads the current token balances chunk by chunk, as many chunks as
// the budget takes: it stops before the first that would pass it. The
// slot and the version floor are read first, so the index reflects at
// least that slot and the first Sync re-reads anything written while
// loading. It starts from empty, so a load that failed part way can be
// run again.
func (x *Index) Load(ctx context.Context) error {
	x.syncMu.Lock()
	defer x.syncMu.Unlock()
	x.reset()
	slot, indexed, err := x.contextSlot(ctx)
	if err != nil {
		return err
	}
	res, err := x.s.Query(ctx, `SELECT max(version), count() FROM token_balances`, nil)
	if err != nil {
		return fmt.Errorf("hot index: read version: %w", err)
	}
	var floor, rows uint64
	if len(res.Rows) > 0 {
		r := res.Row(0)
		floor, rows = r.U64(0), r.U64(1)
		if err := r.Err(); err != nil {
			return fmt.Errorf("hot index: read version: %w", err)
		}
	}
	b := newBulk(x, int(rows))
	held := 0
	for c := 0; c < loadChunks; c++ {
		lo, hi := keyChunk[compressed.Key](c, loadChunks)
		cond := `owner >= {lo:FixedString(32)}`
		params := store.Params{"lo": string(lo[:])}
		if hi != nil {
			cond += ` AND owner < {hi:FixedString(32)}`
			params["hi"] = string(hi[:])
		}
		rows, err := x.readLoad(ctx, cond, params)
		if err != nil {
			return err
		}
		cost := b.cost(rows)
		if b.bytes+cost > x.budget {
			break
		}
		b.bytes += cost
		x.mu.Lock()
		err = b.add(rows)
		x.mu.Unlock()
		if err != nil {
			return err
		}
		held++
	}
	x.mu.Lock()
	x.held = held
	b.finish(x.complete())
	x.bytes = x.measure()
	x.slot, x.indexed = slot, indexed
	x.mu.Unlock()
	x.ready.Store(true)
	x.fromVersion = floor
	return nil
}

// Ready tells whether Load has finished: until then the index holds part
// of the balances, and callers read the store instead.
func (x *Index) Ready() bool { return x.ready.Load() }

// read returns the latest balance of each (owner, mint) matching cond.
func (x *Index) read(ctx context.Context, cond string, params store.Params) ([]row, error) {
	return x.readRows(ctx, `SELECT owner, mint, argMax(balance, version), max(version) FROM token_balances
		WHERE `+cond+` GROUP BY owner, mint`, params)
}

// readRows runs sql, whose rows are owner, mint, balance and version.
func (x *Index) readRows(ctx context.Context, sql string, params store.Params) ([]row, error) {
	res, err := x.s.Query(ctx, sql, params)
	if err != nil {
		return nil, fmt.Errorf("hot index: read balances: %w", err)
	}
	out := make([]row, len(res.Rows))
	for i := range res.Rows {
		r := res.Row(i)
		out[i].owner, out[i].mint = r.Key(0), r.Key(1)
		out[i].bal, out[i].version = r.U64(2), r.U64(3)
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("hot index: token_balances row: %w", err)
		}
	}
	return out, nil
}

func (x *Index) contextSlot(ctx context.Context) (slot uint64, indexed bool, err error) {
	slot, err = checkpoint.ContextSlot(ctx, x.s)
	if errors.Is(err, checkpoint.ErrNotIndexed) {
		return 0, false, nil
	}
	return slot, err == nil, err
}

// Sync applies the balances written since the last Load or Sync and moves
// the index to the slot read before them. It reads nothing more when the
// slot has not moved: the ingest writes the checkpoint after the balances.
func (x *Index) Sync(ctx context.Context) error {
	x.syncMu.Lock()
	defer x.syncMu.Unlock()
	slot, indexed, err := x.contextSlot(ctx)
	if err != nil {
		return err
	}
	x.mu.RLock()
	same := indexed == x.indexed && slot == x.slot
	x.mu.RUnlock()
	if same {
		return nil
	}
	// >= rather than >: rows of the last version seen may still have been
	// arriving when it was read; applying a balance again changes nothing.
	rows, err := x.read(ctx, `version >= {v:UInt64}`, store.Params{"v": fmt.Sprint(x.fromVersion)})
	if err != nil {
		return err
	}
	from := x.fromVersion
	for i := range rows {
		from = max(from, rows[i].version)
	}
	// Only held owners: a balance of any other would make its owner
	// look held with part of its balances.
	if !x.complete() {
		rows = slices.DeleteFunc(rows, func(r row) bool { return !x.holds(&r.owner) })
	}
	x.apply(rows)
	x.fit()
	x.mu.Lock()
	x.slot, x.indexed = slot, indexed
	x.mu.Unlock()
	x.fromVersion = from
	return nil
}

// Run syncs every interval until ctx ends; errors go to onErr (which may be
// nil) and the next tick retries.
func (x *Index) Run(ctx context.Context, interval time.Duration, onErr func(error)) {
	syncEvery(ctx, interval, x.Sync, onErr)
}

// apply sets the balance of each row's (owner, mint). Caller holds syncMu.
func (x *Index) apply(rows []row) {
	if len(rows) == 0 {
		return
	}
	// Intern new keys first: the lists built below compare by key.
	// Holder lists are kept only while every owner is held.
	mints := x.complete()
	x.mu.Lock()
	for i := range rows {
		if _, ok := x.ownerIDs[rows[i].owner]; !ok {
			x.ownerIDs[rows[i].owner] = uint32(len(x.ownerKeys))
			x.ownerKeys = append(x.ownerKeys, rows[i].owner)
			x.byOwner = append(x.byOwner, nil)
			x.bytes += keyBytes + ownerListBytes
		}
		if _, ok := x.mintIDs[rows[i].mint]; !ok {
			x.mintIDs[rows[i].mint] = uint32(len(x.mintKeys))
			x.mintKeys = append(x.mintKeys, rows[i].mint)
			x.bytes += keyBytes
			if mints {
				x.byMint = append(x.byMint, &holders{})
				x.bytes += holdersBytes
			}
		}
	}
	ownerKeys, mintKeys := x.ownerKeys, x.mintKeys
	x.mu.Unlock()

	// Only this goroutine writes, so reading the current lists unlocked is
	// safe; readers keep seeing the old lists until the swap.
	type change struct {
		owner uint32
		bal   uint64
	}
	perMint := map[uint32][]change{}
	perOwner := map[uint32][]ownerBal{}
	for i := range rows {
		o, m := x.ownerIDs[rows[i].owner], x.mintIDs[rows[i].mint]
		if mints {
			perMint[m] = append(perMint[m], change{o, rows[i].bal})
		}
		perOwner[o] = append(perOwner[o], ownerBal{rows[i].bal, m})
	}
	newMint := make(map[uint32]*holders, len(perMint))
	added := 0
	var grown int64
	for m, cs := range perMint {
		// Current balances of the changed owners, to drop their old entries.
		old := map[uint32]uint64{}
		for _, c := range cs {
			if b, ok := findBal(x.byOwner[c.owner], m); ok {
				old[c.owner] = b
			}
		}
		cur := x.byMint[m]
		ins := &holders{}
		for _, c := range cs {
			if b, ok := old[c.owner]; ok && b == c.bal {
				delete(old, c.owner) // unchanged: keep the entry in place
				continue
			}
			ins.bal = append(ins.bal, c.bal)
			ins.owner = append(ins.owner, c.owner)
		}
		if len(old) == 0 && len(ins.bal) == 0 {
			continue
		}
		sort.Sort(holderSort{ins, ownerKeys})
		h := mergeHolders(cur, old, ins, ownerKeys)
		grown += holdersSize(h) - holdersSize(cur)
		newMint[m] = h
	}
	newOwner := make(map[uint32][]ownerBal, len(perOwner))
	for o, bs := range perOwner {
		l := mergeOwner(x.byOwner[o], bs, mintKeys)
		added += len(l) - len(x.byOwner[o])
		grown += int64(cap(l)-cap(x.byOwner[o])) * ownerBalBytes
		newOwner[o] = l
	}
	x.mu.Lock()
	for m, h := range newMint {
		x.byMint[m] = h
	}
	for o, l := range newOwner {
		x.byOwner[o] = l
	}
	x.entries += added
	x.bytes += grown
	x.mu.Unlock()
}

// fit stops holding the highest chunks while the index is past its
// budget: their owners go, and with the first chunk every holder list, as
// no mint is complete any more. Caller holds syncMu.
func (x *Index) fit() {
	if x.bytes <= x.budget {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	for x.bytes > x.budget && x.held > 0 {
		x.held--
		x.byMint = nil
		// Only holder lists name owner ids, and they are gone: the
		// kept owners can be renumbered in place.
		j := 0
		for i, k := range x.ownerKeys {
			if !x.holds(&k) {
				delete(x.ownerIDs, k)
				continue
			}
			x.ownerKeys[j], x.byOwner[j] = k, x.byOwner[i]
			x.ownerIDs[k] = uint32(j)
			j++
		}
		clear(x.byOwner[j:])
		x.ownerKeys, x.byOwner = x.ownerKeys[:j], x.byOwner[:j]
		x.entries = 0
		for _, l := range x.byOwner {
			x.entries += len(l)
		}
		if x.held == 0 {
			// No owner list names a mint any more.
			x.mintKeys, x.mintIDs = nil, map[compressed.Key]uint32{}
		}
		x.bytes = x.measure()
	}
}

func findBal(l []ownerBal, mint uint32) (uint64, bool) {
	for _, e := range l {
		if e.mint == mint {
			return e.bal, true
		}
	}
	return 0, false
}

// before reports whether (ab, ao) comes before (bb, bo) in holder order.
func before(ab uint64, ao *compressed.Key, bb uint64, bo *compressed.Key) bool {
	if ab != bb {
		return ab > bb
	}
	return bytes.Compare(ao[:], bo[:]) > 0
}

type holderSort struct {
	h    *holders
	keys []compressed.Key
}

func (s holderSort) Len() int { return len(s.h.bal) }
func (s holderSort) Less(i, j int) bool {
	return before(s.h.bal[i], &s.keys[s.h.owner[i]], s.h.bal[j], &s.keys[s.h.owner[j]])
}
func (s holderSort) Swap(i, j int) {
	s.h.bal[i], s.h.bal[j] = s.h.bal[j], s.h.bal[i]
	s.h.owner[i], s.h.owner[j] = s.h.owner[j], s.h.owner[i]
}

// mergeHolders returns cur without the entries in drop (owner -> balance)
// merged with ins (sorted): one pass, O(len(cur) + len(ins)).
func mergeHolders(cur *holders, drop map[uint32]uint64, ins *holders, keys []compressed.Key) *holders {
	n := len(cur.bal) - len(drop) + len(ins.bal)
	out := &holders{bal: make([]uint64, 0, n), owner: make([]uint32, 0, n)}
	j := 0
	for i := range cur.bal {
		b, o := cur.bal[i], cur.owner[i]
		if db, ok := drop[o]; ok && db == b {
			continue
		}
		for j < len(ins.bal) && before(ins.bal[j], &keys[ins.owner[j]], b, &keys[o]) {
			out.bal, out.owner = append(out.bal, ins.bal[j]), append(out.owner, ins.owner[j])
			j++
		}
		out.bal, out.owner = append(out.bal, b), append(out.owner, o)
	}
	out.bal, out.owner = append(out.bal, ins.bal[j:]...), append(out.owner, ins.owner[j:]...)
	return out
}

// mergeOwner returns cur with the balances in set replacing or joining it,
// sorted by mint key.
func mergeOwner(cur []ownerBal, set []ownerBal, mintKeys []compressed.Key) []ownerBal {
	out := make([]ownerBal, 0, len(cur)+len(set))
	for _, e := range cur {
		if !slices.ContainsFunc(set, func(s ownerBal) bool { return s.mint == e.mint }) {
			out = append(out, e)
		}
	}
	out = append(out, set...)
	slices.SortFunc(out, func(a, b ownerBal) int {
		return bytes.Compare(mintKeys[a.mint][:], mintKeys[b.mint][:])
	})
	return slices.Clip(out)
}

// Holders returns a page of mint's holders in the order and with the
// cursor semantics of compressed.MintHolders, and the slot the index
// reflects. ok is false unless every owner is held: read the store
// instead. It returns checkpoint.ErrNotIndexed while no slot has been
// indexed.
func (x *Index) Holders(mint compressed.Key, p compressed.HolderPage) (items []compressed.Holder, slot uint64, ok bool, err error) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	if !x.complete() {
		return nil, 0, false, nil
	}
	if !x.indexed {
		return nil, 0, true, checkpoint.ErrNotIndexed
	}
	m, found := x.mintIDs[mint]
	if !found || p.Limit == 0 {
		return nil, x.slot, true, nil
	}
	h := x.byMint[m]
	i := 0
	if a := p.After; a != nil {
		i = sort.Search(len(h.bal), func(k int) bool {
			return before(a.Balance, &a.Owner, h.bal[k], &x.ownerKeys[h.owner[k]])
		})
	}
	out := make([]compressed.Holder, 0, min(p.Limit, uint64(len(h.bal)-i)))
	// Zero balances sort last, so skipping them ends the page.
	for ; i < len(h.bal) && uint64(len(out)) < p.Limit; i++ {
		if h.bal[i] == 0 && !p.WithZero {
			break
		}
		out = append(out, compressed.Holder{Owner: x.ownerKeys[h.owner[i]], Balance: h.bal[i]})
	}
	return out, x.slot, true, nil
}

// Balances returns a page of owner's balances by mint with the semantics
// of compressed.TokenBalancesByOwner, and the slot the index reflects. ok
// is false when owner is not held: read the store instead. It returns
// checkpoint.ErrNotIndexed while no slot has been indexed.
func (x *Index) Balances(owner compressed.Key, p compressed.BalancePage) (items []compressed.TokenBalance, slot uint64, ok bool, err error) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	if !x.holds(&owner) {
		return nil, 0, false, nil
	}
	if !x.indexed {
		return nil, 0, true, checkpoint.ErrNotIndexed
	}
	o, found := x.ownerIDs[owner]
	if !found || p.Limit == 0 {
		return nil, x.slot, true, nil
	}
	l := x.byOwner[o]
	i := 0
	if p.AfterMint != nil {
		i = sort.Search(len(l), func(k int) bool {
			return bytes.Compare(x.mintKeys[l[k].mint][:], p.AfterMint[:]) > 0
		})
	}
	var out []compressed.TokenBalance
	for ; i < len(l) && uint64(len(out)) < p.Limit; i++ {
		e := l[i]
		mk := x.mintKeys[e.mint]
		if p.Mint != nil && mk != *p.Mint {
			continue
		}
		if e.bal == 0 && !p.WithZero {
			continue
		}
		out = append(out, compressed.TokenBalance{Mint: mk, Balance: e.bal})
	}
	return out, x.slot, true, nil
}

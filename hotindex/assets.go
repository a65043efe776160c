package hotindex

import (
	"bytes"
	"sync"

	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/store"
)

// Assets is the in-memory read model of digital assets: the stored state
// (asset.State, raw rows) under each key of asset_accounts and
// bubblegum_events, so rendering and display options stay in asset and
// the index only replaces the store read. Asset ids, edition PDAs and
// Core collections are keys of their own: a changed edition or collection
// replaces its own entry and every asset rendered with it sees the change.
//
// The index covers a prefix of the key space, [0, covered) or all of it:
// a covered key absent from the map has nothing stored, a key past the
// prefix is read from the store. The memory budget bounds the prefix.
// Readers take the read lock for one lookup; the single writer (Load,
// Sync) reads the store outside the lock and swaps whole states in.
type Assets struct {
	s      store.Querier
	budget int64

	mu      sync.RWMutex
	states  map[solana.Pubkey]*asset.State
	bytes   int64
	covered solana.Pubkey // keys below it are covered, unless all
	all     bool
	ready   bool // loaded: lookups are answered
	indexed bool // a checkpoint exists: slot is meaningful
	slot    uint64

	// Writer state, touched by Load and Sync only (syncMu).
	syncMu    sync.Mutex
	watermark int64 // ms: the next poll reads rows indexed at or after it
	applied   map[string]appliedRow
}

// appliedRow is a row a sync already reloaded its asset after: an account
// write of version (slot, write_version) or an event. A row seen again
// with nothing newer changes nothing.
type appliedRow struct {
	slot, writeVersion uint64
	indexedAt          int64
}

// NewAssets returns an empty index over s holding at most budget bytes
// (estimated); call Load before serving from it.
func NewAssets(s store.Querier, budget int64) *Assets {
	x := &Assets{s: s, budget: budget, applied: map[string]appliedRow{}}
	x.reset()
	return x
}

// reset empties the index and marks it not ready: the state NewAssets
// starts from and every Load starts over from. The sync's applied rows
// stay: they only skip rows seen again.
func (x *Assets) reset() {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.states, x.bytes, x.covered, x.all, x.ready = map[solana.Pubkey]*asset.State{}, 0, solana.Pubkey{}, false, false
}

// AssetStats describes the loaded index.
type AssetStats struct {
	Entries int
	// Bytes estimates the memory the index holds.
	Bytes int64
	// Complete is false when the budget left part of the key space to the
	// store.
	Complete bool
	Slot     uint64
}

// Stats reports the current size of the index.
func (x *Assets) Stats() AssetStats {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return AssetStats{Entries: len(x.states), Bytes: x.bytes, Complete: x.all, Slot: x.slot}
}

// Slot returns the slot the index reflects: every write up to it is in
// what it serves. It is false until the index is loaded and something is
// indexed.
func (x *Assets) Slot() (uint64, bool) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.slot, x.ready && x.indexed
}

// Lookup implements query/assetrows.StateSource.
func (x *Assets) Lookup(keys []solana.Pubkey, into map[solana.Pubkey]*asset.State) []solana.Pubkey {
	x.mu.RLock()
	defer x.mu.RUnlock()
	if !x.ready {
		return keys
	}
	var unknown []solana.Pubkey
	for _, k := range keys {
		if st, ok := x.states[k]; ok {
			into[k] = st
		} else if !x.covers(k) {
			unknown = append(unknown, k)
		}
	}
	return unknown
}

// covers reports whether k is in the covered prefix. Caller holds mu.
func (x *Assets) covers(k solana.Pubkey) bool {
	return x.all || bytes.Compare(k[:], x.covered[:]) < 0
}

// Per-entry overheads of the estimate: the map slot (key, pointer, hash
// overhead), a State and an Account or Event header.
const (
	entryOverhead   = 32 + 8 + 40 + 80
	accountOverhead = 144
	eventOverhead   = 48
)

// stateBytes estimates the memory of one entry.
func stateBytes(st *asset.State) int64 {
	b := int64(entryOverhead)
	for i := range st.Accounts {
		a := &st.Accounts[i]
		b += accountOverhead + int64(cap(a.Data))
		if !sameBacking(a.Live, a.Data) {
			b += int64(cap(a.Live))
		}
	}
	for i := range st.Events {
		b += eventOverhead + int64(cap(st.Events[i].Payload))
	}
	return b
}

func sameBacking(a, b []byte) bool { return len(a) > 0 && len(b) > 0 && &a[0] == &b[0] }

// set replaces the entry of k with st (nil: nothing stored). Caller holds
// mu for writing.
func (x *Assets) set(k solana.Pubkey, st *asset.State) {
	if old, ok := x.states[k]; ok {
		x.bytes -= stateBytes(old)
		delete(x.states, k)
	}
	if st != nil && !st.Empty() {
		x.states[k] = st
		x.bytes += stateBytes(st)
	}
}

package hotindex

import (
	"bytes"
	"slices"
	"sort"
	"sync"

	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/store"
)

// Tokens is the in-memory read model of unspent compressed token accounts:
// each owner's (and, when the whole owner key space fits, each
// delegate's) accounts in page order, mint key then hash, so a page of
// getCompressedTokenAccountsByOwner is a binary search and a copy instead
// of a query with the embedded engine's per-query floor of milliseconds.
// ClickHouse (token_accounts) stays the source of truth; the index is
// loaded from it and follows it by polling the rows of newly indexed
// slots.
//
// The index covers a prefix of the owner key space, [0, covered) or all
// of it, bounded by the memory budget: owners past it are read from the
// store, and delegates are served only when every owner is covered.
type Tokens struct {
	s      store.Querier
	budget int64

	mu       sync.RWMutex
	byOwner  map[compressed.Key][]tokAcc
	byDeleg  map[compressed.Key][]delegRef
	extra    map[compressed.Key]*tokExtra // by account hash
	keys     []compressed.Key             // interned mints, trees, queues, programs, delegates
	keyIDs   map[compressed.Key]uint32
	accounts int
	bytes    int64
	covered  compressed.Key // owners below it are covered, unless all
	all      bool
	ready    bool // loaded: pages are answered
	indexed  bool // a checkpoint exists: slot is meaningful
	slot     uint64

	// Writer state, touched by Load and Sync only (syncMu).
	syncMu    sync.Mutex
	next      uint64 // the first slot whose rows are not applied
	rewritten int64  // the newest rewrite log entry applied (compressed.Rewrites.Last)
}

// tokAcc is one account without pointers, so the garbage collector does
// not scan the lists: keys that repeat are interned ids, and the rare
// address, TLV or non-canonical data live in Tokens.extra.
type tokAcc struct {
	hash, dataHash                               compressed.Key
	leafIndex, seq, slot, lamports, amount, disc uint64
	mint, tree, queue, program, delegate         uint32
	treeType, state, flags                       uint8
}

const (
	fSeq uint8 = 1 << iota
	fOutQueue
	fData // discriminator set
	fDelegate
	fExtra
)

// delegRef is one delegated account in a delegate's list: where to find
// it in its owner's list.
type delegRef struct {
	owner, hash compressed.Key
	mint        uint32
}

// tokExtra is what few token accounts carry.
type tokExtra struct {
	address *compressed.Key
	tlv     []byte
	data    *string // stored data bytes that the token columns do not rebuild
}

// Per-account and per-list overheads of the memory estimate: the struct,
// a map slot (key, slice header, table overhead) per list.
const (
	tokAccBytes   = 136
	tokListBytes  = 32 + 24 + 16
	delegRefBytes = 68
)

// NewTokens returns an empty index over s holding at most budget bytes
// (estimated); call Load before serving from it.
func NewTokens(s store.Querier, budget int64) *Tokens {
	x := &Tokens{s: s, budget: budget}
	x.reset()
	return x
}

// TokenStats describes the loaded index.
type TokenStats struct {
	Accounts, Owners int
	// Bytes estimates the memory the index holds.
	Bytes int64
	// Complete is false when the budget left part of the owner key space
	// (and with it every delegate) to the store.
	Complete bool
	Slot     uint64
}

// Stats reports the current size of the index.
func (x *Tokens) Stats() TokenStats {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return TokenStats{Accounts: x.accounts, Owners: len(x.byOwner), Bytes: x.bytes, Complete: x.all, Slot: x.slot}
}

// ByOwner returns a page of owner's unspent token accounts with the order
// and cursor semantics of compressed.TokenAccountsByOwner, and the slot the index
// reflects (p.AsOf is not needed: the index holds exactly that slot's
// state). ok is false when owner is past the covered prefix: read the
// store instead. It returns checkpoint.ErrNotIndexed while no slot is indexed.
func (x *Tokens) ByOwner(owner compressed.Key, p compressed.TokenPage) (items []compressed.Account, slot uint64, ok bool, err error) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	if !x.ready || !x.covers(owner) {
		return nil, 0, false, nil
	}
	if !x.indexed {
		return nil, 0, true, checkpoint.ErrNotIndexed
	}
	l := x.byOwner[owner]
	return x.page(len(l), func(k int) (uint32, *compressed.Key) { return l[k].mint, &l[k].hash },
		func(k int) (compressed.Account, bool) { return x.account(&l[k], owner), true }, p), x.slot, true, nil
}

// ByDelegate is ByOwner for the accounts delegated to delegate, served
// only when every owner is covered.
func (x *Tokens) ByDelegate(delegate compressed.Key, p compressed.TokenPage) (items []compressed.Account, slot uint64, ok bool, err error) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	if !x.ready || !x.all {
		return nil, 0, false, nil
	}
	if !x.indexed {
		return nil, 0, true, checkpoint.ErrNotIndexed
	}
	l := x.byDeleg[delegate]
	return x.page(len(l), func(k int) (uint32, *compressed.Key) { return l[k].mint, &l[k].hash },
		func(k int) (compressed.Account, bool) {
			// The owner's list and the delegate's are swapped together;
			// a missing account would be a bug, skipped rather than a panic.
			r := &l[k]
			o := x.byOwner[r.owner]
			i, found := slices.BinarySearchFunc(o, r, func(a tokAcc, r *delegRef) int { return x.cmp(a.mint, &a.hash, &x.keys[r.mint], &r.hash) })
			if !found {
				return compressed.Account{}, false
			}
			return x.account(&o[i], r.owner), true
		}, p), x.slot, true, nil
}

// page cuts one page from a list of n entries in page order: key gives
// an entry's mint id and hash, render its account. Caller holds mu.
func (x *Tokens) page(n int, key func(int) (uint32, *compressed.Key), render func(int) (compressed.Account, bool), p compressed.TokenPage) []compressed.Account {
	if p.Limit == 0 || n == 0 {
		return nil
	}
	cmp := func(k int, mint, hash *compressed.Key) int {
		m, h := key(k)
		return x.cmp(m, h, mint, hash)
	}
	i := 0
	if a := p.After; a != nil {
		i = sort.Search(n, func(k int) bool { return cmp(k, &a.Mint, &a.Hash) > 0 })
	}
	if p.Mint != nil {
		var zero compressed.Key
		i = max(i, sort.Search(n, func(k int) bool { return cmp(k, p.Mint, &zero) >= 0 }))
	}
	out := make([]compressed.Account, 0, min(p.Limit, uint64(n-i)))
	for ; i < n && uint64(len(out)) < p.Limit; i++ {
		if m, _ := key(i); p.Mint != nil && x.keys[m] != *p.Mint {
			break
		}
		if a, ok := render(i); ok {
			out = append(out, a)
		}
	}
	return out
}

// cmp orders the entry of mint id m and hash h against (mint, hash) as
// pages do: mint key, then hash. Caller holds mu (or is the writer).
func (x *Tokens) cmp(m uint32, h, mint, hash *compressed.Key) int {
	if c := bytes.Compare(x.keys[m][:], mint[:]); c != 0 {
		return c
	}
	return bytes.Compare(h[:], hash[:])
}

// account renders e as the query layer's scanAccount does.
func (x *Tokens) account(e *tokAcc, owner compressed.Key) compressed.Account {
	a := compressed.Account{
		Hash: e.hash, Tree: x.keys[e.tree], Queue: x.keys[e.queue], TreeType: e.treeType,
		LeafIndex: e.leafIndex, InOutputQueue: e.flags&fOutQueue != 0, SlotCreated: e.slot,
		Owner: x.keys[e.program], Lamports: e.lamports,
		IsToken: true, Mint: x.keys[e.mint], TokenOwner: owner, Amount: e.amount, TokenState: e.state,
	}
	if e.flags&fSeq != 0 {
		v := e.seq
		a.Seq = &v
	}
	if e.flags&fDelegate != 0 {
		d := x.keys[e.delegate]
		a.Delegate = &d
	}
	var ex *tokExtra
	if e.flags&fExtra != 0 {
		ex = x.extra[e.hash]
	}
	if ex != nil {
		a.Address = ex.address
		a.TLV = ex.tlv
	}
	if e.flags&fData != 0 {
		a.Data = &compressed.AccountData{Discriminator: e.disc, DataHash: e.dataHash}
		if ex != nil && ex.data != nil {
			a.Data.Data = []byte(*ex.data)
		} else {
			a.RebuildTokenData()
		}
	}
	return a
}

// intern returns k's id. Caller holds mu for writing.
func (x *Tokens) intern(k compressed.Key) uint32 {
	id, ok := x.keyIDs[k]
	if !ok {
		id = uint32(len(x.keys))
		x.keyIDs[k] = id
		x.keys = append(x.keys, k)
	}
	return id
}

// less orders two entries of one list. Caller holds mu.
func (x *Tokens) less(a, b *tokAcc) int {
	return x.cmp(a.mint, &a.hash, &x.keys[b.mint], &b.hash)
}

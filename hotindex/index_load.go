package hotindex

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/store"
)

// sqlLoadRows reads each (owner, mint)'s newest balance in key order.
// FINAL keeps the row of the highest version, as argMax(balance, version)
// does, but merges the table's sorted parts instead of hashing every pair's
// 64-byte key, which is faster (bin/dasch sql, docs/performance.md), and
// the order comes at the cost of a merge of two sorted streams.
const sqlLoadRows = `SELECT owner, mint, balance, version FROM token_balances FINAL WHERE %s ORDER BY owner, mint`

// loadRowBytes is a row of sqlLoadRows in RowBinary: two keys and two u64.
const loadRowBytes = 32 + 32 + 8 + 8

// readLoad returns sqlLoadRows's rows matching cond: as RowBinary where
// the store gives raw output (no value boxed per column), else decoded.
func (x *Index) readLoad(ctx context.Context, cond string, params store.Params) ([]row, error) {
	sql := fmt.Sprintf(sqlLoadRows, cond)
	rq, ok := x.s.(store.RawQuerier)
	if !ok {
		return x.readRows(ctx, sql, params)
	}
	raw, err := rq.QueryRaw(ctx, sql, params, "RowBinary")
	if err != nil {
		return nil, fmt.Errorf("hot index: read balances: %w", err)
	}
	if len(raw)%loadRowBytes != 0 {
		return nil, fmt.Errorf("hot index: read balances: %d bytes, not rows of %d", len(raw), loadRowBytes)
	}
	out := make([]row, len(raw)/loadRowBytes)
	for i := range out {
		r := raw[i*loadRowBytes : (i+1)*loadRowBytes]
		copy(out[i].owner[:], r[:32])
		copy(out[i].mint[:], r[32:64])
		out[i].bal, out[i].version = binary.LittleEndian.Uint64(r[64:72]), binary.LittleEndian.Uint64(r[72:80])
	}
	return out, nil
}

// holderEntry is a holder while the load collects a mint's holders.
type holderEntry struct {
	bal   uint64
	owner uint32
}

// bulk builds an empty index's lists from all its balances at once. apply,
// which Sync uses, merges each batch into copies of the lists it touches:
// over the load's 64 chunks the largest mint's list was copied 64 times,
// and every row took four lookups of 32-byte keys in the owner and mint
// maps. Here each owner is interned once, each list built once and each
// mint's holders sorted once, much faster than through apply
// (a 20M-account bench store, docs/performance.md).
type bulk struct {
	x       *Index
	perMint [][]holderEntry // by mint id
	// ordered holds while owners came in ascending key order: ids are
	// then in key order too, and holders sort by id instead of by key.
	ordered bool
	chunks  int
	rows    int // the table's rows: no more owners than that
	entries int // rows added
	// bytes is the estimate (cost) of the chunks taken, which the load
	// adds before add: it sizes the owner structures too.
	bytes int64
}

func newBulk(x *Index, rows int) *bulk { return &bulk{x: x, ordered: true, rows: rows} }

// cost estimates what adding rows grows the index by, as Index.measure
// counts it, holder lists included: they are kept if every chunk fits.
func (b *bulk) cost(rows []row) int64 {
	n := int64(len(rows)) * (ownerBalBytes + holderEntryBytes)
	var fresh map[compressed.Key]struct{}
	for i := range rows {
		r := &rows[i]
		if i == 0 || r.owner != rows[i-1].owner {
			n += keyBytes + ownerListBytes
		}
		if _, ok := b.x.mintIDs[r.mint]; ok {
			continue
		}
		if fresh == nil {
			fresh = map[compressed.Key]struct{}{}
		}
		if _, ok := fresh[r.mint]; !ok {
			fresh[r.mint] = struct{}{}
			n += keyBytes + holdersBytes
		}
	}
	return n
}

// add takes a chunk of rows. Rows of one owner must come together (the
// load reads them in key order); an owner met again in a later chunk would
// be a second list, which add refuses.
func (b *bulk) add(rows []row) error {
	x := b.x
	// One array holds the chunk's owner lists: each is clipped, and
	// every later change builds a new list (mergeOwner). An owner's old
	// list stays in the array until every owner of the chunk has changed:
	// at most the loaded lists again (16 bytes a balance, 286 MB at
	// 17.9M), for one allocation a chunk instead of one an owner.
	// Owners are interned as met, so the last interned is the previous
	// row's, and its list is lists[start:].
	lists := make([]ownerBal, 0, len(rows))
	start := 0
	var cur uint32
	for i := range rows {
		r := &rows[i]
		if i == 0 || r.owner != rows[i-1].owner {
			if i > 0 {
				x.byOwner[cur] = slices.Clip(lists[start:])
			}
			if n := len(x.ownerKeys); n > 0 && bytes.Compare(r.owner[:], x.ownerKeys[n-1][:]) < 0 {
				b.ordered = false
			}
			if _, seen := x.ownerIDs[r.owner]; seen {
				return fmt.Errorf("hot index: load: owner %x read twice", r.owner[:4])
			}
			cur = uint32(len(x.ownerKeys))
			x.ownerIDs[r.owner] = cur
			x.ownerKeys = append(x.ownerKeys, r.owner)
			x.byOwner = append(x.byOwner, nil)
			start = len(lists)
		}
		m, ok := x.mintIDs[r.mint]
		if !ok {
			m = uint32(len(x.mintKeys))
			x.mintIDs[r.mint] = m
			x.mintKeys = append(x.mintKeys, r.mint)
			x.byMint = append(x.byMint, &holders{})
			b.perMint = append(b.perMint, nil)
		}
		if n := len(lists); n > start && bytes.Compare(x.mintKeys[lists[n-1].mint][:], r.mint[:]) >= 0 {
			return errors.New("hot index: load: an owner's balances out of mint order")
		}
		lists = append(lists, ownerBal{r.bal, m})
		b.perMint[m] = append(b.perMint[m], holderEntry{r.bal, cur})
	}
	if len(rows) > 0 {
		x.byOwner[cur] = slices.Clip(lists[start:])
	}
	b.entries += len(rows)
	b.chunks++
	if b.chunks == 1 {
		b.reserve()
	}
	return nil
}

// reserve sizes the owner structures, after the first chunk, for as many
// owners in every chunk: owners are public keys, spread evenly over the
// key space. Grown by appends instead, the owner keys alone took a fifth
// of the load (copies and fresh pages; docs/performance.md). The table's
// row count bounds the guess (keys chosen to crowd the first chunk), and
// so do the chunks the budget takes at the first one's cost.
func (b *bulk) reserve() {
	x := b.x
	n := len(x.ownerKeys)
	chunks := loadChunks
	if b.bytes > 0 {
		chunks = int(min(x.budget/b.bytes, loadChunks))
	}
	want := min(n*chunks+n*chunks/16, b.rows)
	if want <= n {
		return
	}
	x.ownerKeys = slices.Grow(x.ownerKeys, want-n)
	x.byOwner = slices.Grow(x.byOwner, want-n)
	ids := make(map[compressed.Key]uint32, want)
	for k, v := range x.ownerIDs {
		ids[k] = v
	}
	x.ownerIDs = ids
}

// finish sorts each mint's holders into page order (balance descending,
// then owner key descending), or drops them unless mints (every chunk
// taken), and counts the index's entries. The index is not ready yet, so
// nothing reads the lists while they are built.
func (b *bulk) finish(mints bool) {
	x := b.x
	x.entries = b.entries
	if !mints {
		x.byMint, b.perMint = nil, nil
		return
	}
	byID := func(a, c holderEntry) int {
		if a.bal != c.bal {
			return cmp.Compare(c.bal, a.bal)
		}
		return cmp.Compare(c.owner, a.owner)
	}
	byKey := func(a, c holderEntry) int {
		if a.bal != c.bal {
			return cmp.Compare(c.bal, a.bal)
		}
		return bytes.Compare(x.ownerKeys[c.owner][:], x.ownerKeys[a.owner][:])
	}
	for m, es := range b.perMint {
		if b.ordered {
			slices.SortFunc(es, byID)
		} else {
			slices.SortFunc(es, byKey)
		}
		h := &holders{bal: make([]uint64, len(es)), owner: make([]uint32, len(es))}
		for i, e := range es {
			h.bal[i], h.owner[i] = e.bal, e.owner
		}
		x.byMint[m] = h
		b.perMint[m] = nil
	}
}

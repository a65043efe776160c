package assetstate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/chain/metadata"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/query/assetdocs"
	"github.com/dasch-labs/dasch/query/assetrows"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// FoldStep folds the state of every asset a committed slot range touched
// into asset_state, one row per asset, so reads are one keyed lookup. An
// asset is touched by a write to any row it is rendered from: its own, its
// edition's (a mint's edition PDA) and its collection's (a Core asset
// answers with its collection's authority). A fold reads the newest stored
// state of each, so applying a range again, or ranges in any order, leaves
// the same rows. Apply calls must not overlap (the pipeline runs steps one
// at a time).
type FoldStep struct {
	// Chunk is how many written assets one fold reads and writes at once;
	// 0 is foldChunk.
	Chunk int
	// Folded, when set, is told the ids of each chunk once its documents
	// are in the store (a serving cache drops them).
	Folded func(ids []solana.Pubkey)
	// Content shapes the content rendered from off-chain documents
	// (withDocuments).
	Content asset.ContentOptions
	// turn is held by Apply and RefoldURIs, which fold one at a time.
	turn sync.Mutex
	// backfilled is set once the step has checked that a store indexed
	// before asset_state existed has every asset folded.
	backfilled bool
	// span is the checkpoint of the fold holding turn, for keepPrevious.
	span foldSpan
	// mu guards last, the version of the newest fold, so versions only
	// grow across the concurrent chunk folds.
	mu   sync.Mutex
	last uint64
}

var _ ingest.StateStep = (*FoldStep)(nil)

// NewFoldStep returns the asset state step.
func NewFoldStep() *FoldStep { return &FoldStep{} }

// Name implements ingest.StateStep.
func (*FoldStep) Name() string { return "asset state" }

// foldChunk is how many written assets one fold reads and writes at once
// (with their dependents, unless those are many). A chunk costs a few
// queries and inserts whatever its size, so large chunks fold faster; a
// chunk's states and documents are held at once, a few MiB per thousand.
const foldChunk = 5000

func (st *FoldStep) chunk() int {
	if st.Chunk > 0 {
		return st.Chunk
	}
	return foldChunk
}

// foldWorkers is how many chunks are folded at once: each fold's reads
// run on one engine thread and wait on the engine most of the time.
const foldWorkers = 3

// Apply implements ingest.StateStep.
func (st *FoldStep) Apply(ctx context.Context, s arrowstore.Writer, from, to uint64) error {
	if from > to {
		return fmt.Errorf("empty slot range %d..%d", from, to)
	}
	st.turn.Lock()
	defer st.turn.Unlock()
	// What the backfill folds was indexed before: no range of its own.
	var err error
	if st.span, err = spanOf(ctx, s, 0); err != nil {
		return fmt.Errorf("fold assets: %w", err)
	}
	if !st.backfilled {
		if err := st.backfill(ctx, s, from, to); err != nil {
			return fmt.Errorf("fold assets indexed before asset_state: %w", err)
		}
		st.backfilled = true
	}
	st.span.from = from
	if err := endClosed(ctx, s, from, to); err != nil {
		return fmt.Errorf("end what closed accounts fed: %w", err)
	}
	return st.foldWritten(ctx, s, "slot BETWEEN {from:UInt64} AND {to:UInt64}",
		store.Params{"from": strconv.FormatUint(from, 10), "to": strconv.FormatUint(to, 10)})
}

// backfill folds every stored asset when asset_state is empty but assets
// are stored outside [from, to]: a store indexed before the step existed.
func (st *FoldStep) backfill(ctx context.Context, s arrowstore.Writer, from, to uint64) error {
	params := store.Params{"from": strconv.FormatUint(from, 10), "to": strconv.FormatUint(to, 10)}
	res, err := s.Query(ctx, `SELECT (SELECT count() FROM asset_state) = 0
		AND ((SELECT count() FROM asset_accounts WHERE slot NOT BETWEEN {from:UInt64} AND {to:UInt64}) > 0
			OR (SELECT count() FROM bubblegum_events WHERE slot NOT BETWEEN {from:UInt64} AND {to:UInt64}) > 0)`, params)
	if err != nil {
		return err
	}
	r := res.Row(0)
	if need := r.Bool(0); r.Err() != nil || !need {
		return r.Err()
	}
	return st.foldWritten(ctx, s, "true", nil)
}

// foldWritten folds every asset with a row matching cond, and the assets
// folded from those that are editions or Core collections, a chunk of ids
// at a time in id order, so memory does not grow with the range. Chunks
// are found one after another and folded by foldWorkers at once: they hold
// distinct written ids, and an asset folded twice at once (written in one
// chunk, a dependent in another) is folded from the same stored rows.
func (st *FoldStep) foldWritten(ctx context.Context, s arrowstore.Writer, cond string, params store.Params) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	chunks := make(chan []solana.Pubkey)
	errs := make(chan error, foldWorkers+1)
	var wg sync.WaitGroup
	for range foldWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ids := range chunks {
				if err := st.fold(ctx, s, ids); err != nil {
					errs <- err
					cancel()
					return
				}
			}
		}()
	}
	err := findWritten(ctx, s, cond, params, st.chunk(), func(ids []solana.Pubkey) error {
		select {
		case chunks <- ids:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	})
	close(chunks)
	wg.Wait()
	close(errs)
	// A worker's error is the cause; the finder's is then cancellation.
	if werr := <-errs; werr != nil {
		return werr
	}
	return err
}

// findWritten hands emit each chunk of written ids, in id order, with the
// dependents of its editions and Core collections.
func findWritten(ctx context.Context, s store.Querier, cond string, params store.Params, chunk int, emit func([]solana.Pubkey) error) error {
	var after solana.Pubkey
	for first := true; ; first = false {
		p := store.Params{"after": string(after[:])}
		for k, v := range params {
			p[k] = v
		}
		from := ""
		if !first {
			from = " AND asset_id > {after:FixedString(32)}"
		}
		ids, err := nextWritten(ctx, s, cond+from, p, chunk)
		if err != nil {
			return err
		}
		if len(ids) == 0 {
			return nil
		}
		sources, err := sourcesAmong(ctx, s, ids)
		if err != nil {
			return err
		}
		written := ids[len(ids)-1]
		deps, err := dependents(ctx, s, sources)
		if err != nil {
			return err
		}
		seen := make(map[solana.Pubkey]bool, len(ids))
		for _, id := range ids {
			seen[id] = true
		}
		for _, id := range deps {
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
		if err := emit(ids); err != nil {
			return err
		}
		after = written
	}
}

// nextWritten returns the first chunk ids, in id order, with a row
// of asset_accounts or bubblegum_events matching cond. Each table is read
// in key order and stops at chunk distinct ids, so a chunk costs the
// same wherever it starts (one query over both tables grouped them all
// first: every chunk read the rest of the range). The merge of the two
// lists' first chunk is exact: each holds the smallest ids of its
// table.
//
// A token account holding more than one token changes no document: an
// asset's answer reads token accounts only for mints of supply at most
// one (assetrows.loadSQL), whose accounts hold one token or none. Those
// writes are most of the token programs' traffic (fungible balances), and
// each would refold its mint for nothing.
func nextWritten(ctx context.Context, s store.Querier, cond string, p store.Params, chunk int) ([]solana.Pubkey, error) {
	var all []solana.Pubkey
	for _, table := range []string{schema.TableAssetAccounts, schema.TableBubblegumEvents} {
		where := cond
		if table == schema.TableAssetAccounts {
			where = "(" + cond + ") AND NOT (kind = '" + schema.AssetKindTokenAccount + "' AND amount > 1)"
		}
		res, err := s.Query(ctx, `SELECT DISTINCT asset_id FROM `+table+` WHERE `+where+
			` ORDER BY asset_id LIMIT `+strconv.Itoa(chunk)+
			` SETTINGS optimize_read_in_order = 1, optimize_distinct_in_order = 1`, p)
		if err != nil {
			return nil, fmt.Errorf("find written assets in %s: %w", table, err)
		}
		for i := range res.Rows {
			r := res.Row(i)
			id := solana.Pubkey(r.Key(0))
			if err := r.Err(); err != nil {
				return nil, fmt.Errorf("find written assets in %s: %w", table, err)
			}
			all = append(all, id)
		}
	}
	slices.SortFunc(all, func(a, b solana.Pubkey) int { return bytes.Compare(a[:], b[:]) })
	all = slices.Compact(all)
	return all[:min(len(all), chunk)], nil
}

// sourcesAmong are the ids that hold an edition or a Core account: the
// assets other assets are folded from.
func sourcesAmong(ctx context.Context, s store.Querier, ids []solana.Pubkey) ([]solana.Pubkey, error) {
	cond, params := assetrows.KeyIn("asset_id", ids)
	res, err := s.Query(ctx, `SELECT DISTINCT asset_id FROM asset_accounts
		WHERE `+cond+` AND kind IN ('edition', 'core')`, params)
	if err != nil {
		return nil, fmt.Errorf("find written editions and collections: %w", err)
	}
	out := make([]solana.Pubkey, 0, len(res.Rows))
	for i := range res.Rows {
		r := res.Row(i)
		id := solana.Pubkey(r.Key(0))
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("find written editions and collections: %w", err)
		}
		out = append(out, id)
	}
	return out, nil
}

// dependents lists the assets folded from any of sources, editions or
// Core collections.
func dependents(ctx context.Context, s store.Querier, sources []solana.Pubkey) ([]solana.Pubkey, error) {
	if len(sources) == 0 {
		return nil, nil
	}
	// Keyed reads of asset_keys: a scan of asset_state's edition and
	// collection columns per chunk grew with the store.
	cond, params := assetrows.KeyIn("key", sources)
	params["depends"] = schema.AssetPathDepends
	res, err := s.Query(ctx, `SELECT DISTINCT id FROM asset_keys FINAL
		WHERE path = {depends:String} AND `+cond, params)
	if err != nil {
		return nil, fmt.Errorf("find assets folded from written editions and collections: %w", err)
	}
	out := make([]solana.Pubkey, 0, len(res.Rows))
	for i := range res.Rows {
		r := res.Row(i)
		id := solana.Pubkey(r.Key(0))
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("find dependent assets: %w", err)
		}
		out = append(out, id)
	}
	return out, nil
}

// fold folds ids into asset_state, in chunks of at most twice st.chunk()
// (a chunk of written ids and a few dependents are one fold).
func (st *FoldStep) fold(ctx context.Context, s arrowstore.Writer, ids []solana.Pubkey) error {
	for start := 0; start < len(ids); {
		end := min(start+2*st.chunk(), len(ids))
		if end < len(ids) {
			end = start + st.chunk()
		}
		chunk := ids[start:end]
		start = end
		rows, err := st.foldAssets(ctx, s, chunk)
		if err != nil {
			return err
		}
		prev, err := loadPrevious(ctx, s, chunk)
		if err != nil {
			return err
		}
		v := st.version()
		keys, editions := keyRows(rows, prev, v)
		// Keys first: a fold cut short before its state is written is
		// folded again from the same previous state, so no tombstone is
		// lost.
		if err := writeRows(ctx, s, KeysTable(), keys, "listing keys"); err != nil {
			return err
		}
		if err := writeRows(ctx, s, EditionsTable(), editions, "editions"); err != nil {
			return err
		}
		for i := range rows {
			rows[i].Version = v
		}
		if err := writeRows(ctx, s, StateTable(), rows, "folded assets"); err != nil {
			return err
		}
		// The serving copy last: a fold cut short before it is applied
		// again, and until then getAsset answers the previous fold.
		docs := make([]DocRow, len(rows))
		for i := range rows {
			docs[i] = DocRow{StateRow: &rows[i]}
		}
		kept, err := keepPrevious(ctx, s, st.span, docs)
		if err != nil {
			return err
		}
		// The kept documents first: a fold cut short between the two
		// writes is applied again and keeps the same ones.
		if err := writeRows(ctx, s, PrevDocsTable(), kept, "previous asset documents"); err != nil {
			return err
		}
		if err := writeRows(ctx, s, DocsTable(), docs, "asset documents"); err != nil {
			return err
		}
		if st.Folded != nil {
			st.Folded(chunk)
		}
	}
	return nil
}

// foldAssets renders ids with every optional member shown, from the
// newest stored rows of each and of the assets it is rendered from.
func (st *FoldStep) foldAssets(ctx context.Context, s arrowstore.Writer, ids []solana.Pubkey) ([]StateRow, error) {
	states := map[solana.Pubkey]*asset.State{}
	load := assetrows.Loader(ctx, s, nil)
	results, err := asset.Render(ids, func(keys []solana.Pubkey, into map[solana.Pubkey]*asset.State) error {
		if err := load(keys, into); err != nil {
			return err
		}
		for _, k := range keys {
			if st := into[k]; st != nil {
				states[k] = st
			}
		}
		return nil
	}, asset.Folded)
	if err != nil {
		return nil, fmt.Errorf("fold assets: %w", err)
	}
	if err := st.withDocuments(ctx, s, results); err != nil {
		return nil, fmt.Errorf("fold assets: %w", err)
	}
	rows := make([]StateRow, len(ids))
	for i, id := range ids {
		row := StateRow{ID: id, Edition: metadata.EditionPDA(id)}
		res := results[i]
		switch {
		case res.Err == nil && res.Asset != nil:
			if row.Doc, err = json.Marshal(res.Asset); err != nil {
				return nil, fmt.Errorf("fold asset %s: %w", id, err)
			}
			row.Collection = collectionOf(res.Asset)
			row.Listing = listingOf(id, res.Asset)
			if row.Supply > 0 {
				row.keys = keysOf(res.Asset)
			}
			// Every rendered asset, as a search without a key finds it.
			row.keys = append(row.keys, searchKeysOf(&row.Listing)...)
			row.CreatedSlot = oldestSlot(states[id])
		case errors.Is(res.Err, asset.ErrNotFound) || res.Asset == nil && res.Err == nil:
			row.Status = schema.AssetStatusNotFound
		case errors.Is(res.Err, asset.ErrNoSupply):
			row.Status = schema.AssetStatusNoSupply
		default:
			row.Status, row.Error = schema.AssetStatusError, res.Err.Error()
		}
		// Editions are listed whatever the print's own state; an edition
		// account that does not decode lists nothing (rendering reports it).
		_ = editionOf(&row, states[row.Edition])
		row.keys = append(row.keys, assetKey{path: schema.AssetPathDepends, key: row.Edition})
		if row.Collection != nil {
			row.keys = append(row.keys, assetKey{path: schema.AssetPathDepends, key: *row.Collection})
		}
		if row.Status == schema.AssetStatusOK && row.JSONURI != "" {
			// Found again when the URI's document arrives.
			row.keys = append(row.keys, assetKey{path: schema.AssetPathJSONURI, key: assetdocs.URIKey(row.JSONURI)})
		}
		row.Slot = newestSlot(states[id], states[row.Edition])
		if row.Collection != nil {
			row.Slot = max(row.Slot, newestSlot(states[*row.Collection]))
		}
		rows[i] = row
	}
	return rows, nil
}

// collectionOf is the collection an asset is grouped under, verified or
// not, when it has one.
func collectionOf(a *asset.Asset) *solana.Pubkey {
	for _, g := range a.Grouping {
		if g.GroupKey == "collection" && g.GroupValue != nil {
			if k, err := solana.ParsePubkey(*g.GroupValue); err == nil {
				return &k
			}
		}
	}
	return nil
}

// newestSlot is the newest slot of any row of the states.
func newestSlot(states ...*asset.State) uint64 {
	var slot uint64
	for _, st := range states {
		if st == nil {
			continue
		}
		for _, a := range st.Accounts {
			slot = max(slot, a.Slot)
		}
		for _, e := range st.Events {
			slot = max(slot, e.Slot)
		}
	}
	return slot
}

// oldestSlot is the oldest slot of any row of st: when the asset was
// first seen, as far as the rows kept tell.
func oldestSlot(st *asset.State) uint64 {
	var slot uint64
	if st == nil {
		return 0
	}
	for _, a := range st.Accounts {
		if slot == 0 || a.Slot < slot {
			slot = a.Slot
		}
	}
	for _, e := range st.Events {
		if slot == 0 || e.Slot < slot {
			slot = e.Slot
		}
	}
	return slot
}

// version is the next fold's version: its time, never below a previous one.
func (st *FoldStep) version() uint64 {
	st.mu.Lock()
	defer st.mu.Unlock()
	v := uint64(time.Now().UnixNano())
	if v <= st.last {
		v = st.last + 1
	}
	st.last = v
	return v
}

// writeRows inserts rows into table in one record.
func writeRows[R any, P interface {
	*R
	arrowbatch.Row
}](ctx context.Context, s arrowstore.Writer, table arrowbatch.Table, rows []R, what string) error {
	if len(rows) == 0 {
		return nil
	}
	b := table.New(memory.DefaultAllocator)
	defer b.Release()
	for i := range rows {
		if err := b.Append(P(&rows[i])); err != nil {
			return err
		}
	}
	rec := b.NewRecord()
	defer rec.Release()
	if err := s.Insert(ctx, table.Name, rec); err != nil {
		return fmt.Errorf("write %d %s: %w", len(rows), what, err)
	}
	return nil
}

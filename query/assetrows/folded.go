package assetrows

import (
	"context"
	"fmt"
	"math"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
)

// Folded is one asset_docs row: an asset folded by the asset state step.
type Folded struct {
	Status string // schema.AssetStatus*
	Error  string
	Doc    []byte // the asset rendered with asset.Folded, as JSON
	Slot   uint64
}

// LoadFolded reads the folded state of each of ids from asset_docs, one
// key-value lookup per id; ids never folded are absent from the map. A
// row's Slot is the slot from which it is visible (AsOf).
func LoadFolded(ctx context.Context, s store.Querier, ids []solana.Pubkey) (map[solana.Pubkey]Folded, error) {
	out, err := loadDocs(ctx, s, schema.TableAssetDocs, ids)
	if err != nil {
		return nil, fmt.Errorf("load folded assets: %w", err)
	}
	return out, nil
}

// loadDocs reads the rows of ids from table, asset_docs or one of its
// shape.
func loadDocs(ctx context.Context, s store.Querier, table string, ids []solana.Pubkey) (map[solana.Pubkey]Folded, error) {
	out := make(map[solana.Pubkey]Folded, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	cond, params := KeyIn("id", ids)
	// One thread: a parallel plan costs more to start than the lookups.
	res, err := s.Query(ctx, `SELECT id, status, error, doc, slot FROM `+table+`
		WHERE `+cond+` SETTINGS max_threads = 1`, params)
	if err != nil {
		return nil, err
	}
	for i := range res.Rows {
		r := res.Row(i)
		id := solana.Pubkey(r.Key(0))
		f := Folded{Status: r.Str(1), Error: r.Str(2), Doc: []byte(r.Str(3)), Slot: r.U64(4)}
		if err := r.Err(); err != nil {
			return nil, err
		}
		// A key-value table holds one row an id; its replicated form on a
		// cluster with Keeper may hold several until they merge, and the
		// newest fold wins there too.
		if had, ok := out[id]; ok && had.Slot > f.Slot {
			continue
		}
		out[id] = f
	}
	return out, nil
}

// AsOf makes rows, read from asset_docs, the answer at slot: a document
// visible only from a later slot, one the fold wrote past the checkpoint,
// is replaced by the version it replaced (asset_docs_prev), or dropped
// (not found) when there is none. The fold keeps the newest version at or
// below its checkpoint, so this is exact for a slot at least that
// checkpoint. A slot read from a cache may be older (checkpoint.SlotCache):
// the kept version, committed and checkpointed, is then answered even if
// newer than slot. Most reads find nothing later and cost no second
// lookup.
func AsOf(ctx context.Context, s store.Querier, rows map[solana.Pubkey]Folded, slot uint64) error {
	var later []solana.Pubkey
	for id, f := range rows {
		if f.Slot > slot {
			later = append(later, id)
		}
	}
	if len(later) == 0 {
		return nil
	}
	prev, err := loadDocs(ctx, s, schema.TableAssetDocsPrev, later)
	if err != nil {
		return fmt.Errorf("load previous folded assets: %w", err)
	}
	for _, id := range later {
		if p, ok := prev[id]; ok {
			rows[id] = p
		} else {
			delete(rows, id)
		}
	}
	return nil
}

// FoldedAssets answers ids, in order (an id may repeat), from their folded
// rows viewed with opts: one keyed read of asset_state, no account bytes
// decoded. An id never folded is asset.ErrNotFound.
func FoldedAssets(ctx context.Context, s store.Querier, ids []solana.Pubkey, opts asset.Options) ([]asset.Result, error) {
	return FoldedAssetsAt(ctx, s, ids, opts, math.MaxUint64)
}

// FoldedAssetsAt is FoldedAssets answering as of slot (AsOf).
func FoldedAssetsAt(ctx context.Context, s store.Querier, ids []solana.Pubkey, opts asset.Options, slot uint64) ([]asset.Result, error) {
	rows, err := LoadFolded(ctx, s, Uniq(ids))
	if err != nil {
		return nil, err
	}
	if err := AsOf(ctx, s, rows, slot); err != nil {
		return nil, err
	}
	return ViewFolded(ids, rows, opts), nil
}

// ViewFolded answers ids, in order, from their folded rows viewed with
// opts; an id without a row is asset.ErrNotFound.
func ViewFolded(ids []solana.Pubkey, rows map[solana.Pubkey]Folded, opts asset.Options) []asset.Result {
	out := make([]asset.Result, len(ids))
	viewed := make(map[solana.Pubkey]asset.Result, len(rows))
	for i, id := range ids {
		if r, ok := viewed[id]; ok {
			out[i] = r
			continue
		}
		r := foldedResult(id, rows[id], opts)
		viewed[id] = r
		out[i] = r
	}
	return out
}

// ViewDoc is the asset of a folded document, viewed with opts.
func ViewDoc(id solana.Pubkey, doc []byte, opts asset.Options) asset.Result {
	return foldedResult(id, Folded{Doc: doc}, opts)
}

func foldedResult(id solana.Pubkey, f Folded, opts asset.Options) asset.Result {
	switch f.Status {
	case schema.AssetStatusOK:
		if len(f.Doc) == 0 { // never folded
			return asset.Result{Err: asset.ErrNotFound}
		}
		if out, err := asset.ViewJSON(make([]byte, 0, len(f.Doc)), f.Doc, opts); err == nil {
			return asset.Result{JSON: out}
		}
		// Not the compact encoding ViewJSON edits: decode it.
		var a asset.Asset
		if err := json.Unmarshal(f.Doc, &a); err != nil {
			return asset.Result{Err: fmt.Errorf("asset %s: folded state: %w", id, err)}
		}
		return asset.Result{Asset: asset.View(&a, opts)}
	case schema.AssetStatusNotFound:
		return asset.Result{Err: asset.ErrNotFound}
	case schema.AssetStatusNoSupply:
		return asset.Result{Err: asset.ErrNoSupply}
	default:
		return asset.Result{Err: fmt.Errorf("asset %s: %s", id, f.Error)}
	}
}

// Uniq is ids without repeats, in first-seen order.
func Uniq(ids []solana.Pubkey) []solana.Pubkey {
	seen := make(map[solana.Pubkey]bool, len(ids))
	out := make([]solana.Pubkey, 0, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// Package das serves the Metaplex DAS read API (getAsset, getAssetBatch,
// the listing methods and searchAssets),
// one file per method, with the HTTP statuses and JSON-RPC codes of the
// specification: 400/-32602 invalid params, 404/-32004 asset not found,
// 500/-32000 unexpected errors (401 and 429 come from the server). Every
// asset carries last_indexed_slot: everything up to it is indexed.
package das

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/query/assetcache"
	"github.com/dasch-labs/dasch/query/assetdocs"
	"github.com/dasch-labs/dasch/query/assetrows"
	"github.com/dasch-labs/dasch/server/jsonrpc"
	"github.com/dasch-labs/dasch/store"
)

// SlotSource reports the last slot everything up to which is indexed.
type SlotSource interface {
	IndexedSlot(ctx context.Context) (uint64, error)
}

// AssetIndex serves asset states from memory (hotindex.Assets).
type AssetIndex interface {
	assetrows.StateSource
	// Slot returns the slot the index reflects; false until it reflects one.
	Slot() (uint64, bool)
}

// Deps are what the methods read from. Index is optional: without it (or
// until it is loaded) every state is read from the store.
type Deps struct {
	Store  store.Querier
	Slots  SlotSource
	Index  AssetIndex
	Logger *slog.Logger
	// NodeBalance, when set, asks the followed node for a wallet's
	// lamports that no indexed transaction tells (showNativeBalance).
	NodeBalance func(ctx context.Context, wallet solana.Pubkey) (uint64, error)
	// Cache, when set, holds folded rows getAsset and getAssetBatch read;
	// it must be told of every fold (assetcache).
	Cache *assetcache.Cache
	// Content shapes the content the index path renders from stored
	// off-chain documents, as the fold does (its cdn_uri template).
	Content asset.ContentOptions
	// Prices, when set, prices the token_info of the answers that show
	// one (showFungible).
	Prices PriceSource
}

// source returns the slot to stamp answers with and where states come
// from besides the store. With the index, its slot: what it holds reflects
// at least that slot, and what the store answers for keys it does not
// hold is read later, so newer still. Without it, the indexed slot read
// before the state is.
func (d Deps) source(ctx context.Context) (uint64, assetrows.StateSource, error) {
	if d.Index != nil {
		if slot, ok := d.Index.Slot(); ok {
			return slot, d.Index, nil
		}
	}
	slot, err := d.Slots.IndexedSlot(ctx)
	return slot, nil, err
}

// assets answers ids with opts: from the in-memory index's raw states when
// src is one, else from the assets' folded rows in the store, one keyed
// read, as of slot, the slot the answer is stamped with
// (assetrows.FoldedAssetsAt), with price_info where it applies. The cache
// holds the newest rows; those past slot are answered as the store's are.
func (d Deps) assets(ctx context.Context, src assetrows.StateSource, ids []solana.Pubkey, opts asset.Options, slot uint64) ([]asset.Result, error) {
	out, err := d.unpriced(ctx, src, ids, opts, slot)
	if err != nil {
		return nil, err
	}
	d.priceResults(ids, out, opts)
	return out, nil
}

// unpriced is assets without price_info.
func (d Deps) unpriced(ctx context.Context, src assetrows.StateSource, ids []solana.Pubkey, opts asset.Options, slot uint64) ([]asset.Result, error) {
	if src != nil {
		// The index holds chain state only; the documents are applied as
		// the fold applies them, so both paths answer alike.
		res, err := asset.Render(ids, assetrows.Loader(ctx, d.Store, src), opts)
		if err != nil {
			return nil, err
		}
		return res, assetdocs.Apply(ctx, d.Store, res, assetdocs.URIs(res), d.Content)
	}
	if d.Cache == nil {
		return assetrows.FoldedAssetsAt(ctx, d.Store, ids, opts, slot)
	}
	rows := make(map[solana.Pubkey]assetrows.Folded, len(ids))
	var missing []solana.Pubkey
	for _, id := range assetrows.Uniq(ids) {
		if f, ok := d.Cache.Get(id); ok {
			rows[id] = f
		} else {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		epoch := d.Cache.Epoch()
		read, err := assetrows.LoadFolded(ctx, d.Store, missing)
		if err != nil {
			return nil, err
		}
		for id, f := range read {
			rows[id] = f
			d.Cache.Put(epoch, id, f)
		}
	}
	if err := assetrows.AsOf(ctx, d.Store, rows, slot); err != nil {
		return nil, err
	}
	return assetrows.ViewFolded(ids, rows, opts), nil
}

// Register adds the DAS methods to r. A missing dependency is a wiring bug
// and panics at startup.
func Register(r *jsonrpc.Registry, d Deps) {
	if d.Store == nil || d.Slots == nil {
		panic("das: Deps.Store and Deps.Slots are required")
	}
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	// Names and aliases as the reference registers them.
	for _, m := range []struct {
		h     jsonrpc.Handler
		names []string
	}{
		{getAsset(d), []string{"getAsset", "get_asset"}},
		{getAssetBatch(d), []string{"getAssetBatch", "getAssets", "get_assets", "get_asset_batch"}},
		{getAssetsByOwner(d), []string{"getAssetsByOwner", "get_assets_by_owner"}},
		{getAssetsByCreator(d), []string{"getAssetsByCreator", "get_assets_by_creator"}},
		{getAssetsByAuthority(d), []string{"getAssetsByAuthority"}},
		{getAssetsByGroup(d), []string{"getAssetsByGroup", "get_assets_by_group"}},
		{searchAssets(d), []string{"searchAssets", "search_assets"}},
		{getGrouping(d), []string{"getGrouping", "get_grouping"}},
		{getTokenAccounts(d), []string{"getTokenAccounts", "get_token_accounts"}},
		{getNftEditions(d), []string{"getNftEditions", "get_nft_editions"}},
		{getAssetProof(d), []string{"getAssetProof", "get_asset_proof"}},
		{getAssetProofBatch(d), []string{"getAssetProofBatch", "getAssetProofs", "get_asset_proofs", "get_asset_proof_batch"}},
		{getAssetSignatures(d), []string{"getAssetSignatures", "getSignaturesForAsset"}},
	} {
		for _, name := range m.names {
			r.Register(name, m.h)
		}
	}
}

// Spec error codes.
const (
	codeNotFound = -32004
	codeServer   = -32000
)

func invalidParams(msg string) *jsonrpc.Error {
	return jsonrpc.InvalidParams(msg).WithStatus(http.StatusBadRequest)
}

func notFound(msg string) *jsonrpc.Error {
	return jsonrpc.NewError(codeNotFound, msg).WithStatus(http.StatusNotFound)
}

// failed reports an unexpected error to the client without its details,
// which go to the log.
func failed(d Deps, method string, err error) *jsonrpc.Error {
	d.Logger.Error("das method failed", "method", method, "err", err)
	return jsonrpc.NewError(codeServer, "Internal error").WithStatus(http.StatusInternalServerError)
}

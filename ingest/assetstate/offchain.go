package assetstate

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/query/assetdocs"
	"github.com/dasch-labs/dasch/query/assetrows"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// withDocuments fills the content of each rendered asset from the stored
// document of its json_uri (assetdocs.Apply), and queues in
// asset_metadata the URIs it has never seen. An asset whose document is
// not stored renders from the chain alone; when the document arrives the
// fetcher folds it again (RefoldURIs), so the result does not depend on
// which came first. Members are filed under their collection (depends),
// so when a collection's document arrives its refold folds them again.
func (st *FoldStep) withDocuments(ctx context.Context, s arrowstore.Writer, results []asset.Result) error {
	uris := assetdocs.URIs(results)
	if len(uris) == 0 {
		return nil
	}
	if err := assetdocs.Apply(ctx, s, results, uris, st.Content); err != nil {
		return err
	}
	return queueURIs(ctx, s, uris)
}

// queueURIs adds a queued asset_metadata row for each of uris that has
// none. Its version is the lowest, so any outcome the fetcher records
// wins over it whichever is written last.
func queueURIs(ctx context.Context, s arrowstore.Writer, uris map[solana.Pubkey]string) error {
	keys := make([]solana.Pubkey, 0, len(uris))
	for k := range uris {
		keys = append(keys, k)
	}
	cond, params := assetrows.KeyIn("hash", keys)
	res, err := s.Query(ctx, `SELECT DISTINCT hash FROM `+schema.TableAssetMetadata+`
		WHERE `+cond+` SETTINGS max_threads = 1`, params)
	if err != nil {
		return fmt.Errorf("find queued metadata URIs: %w", err)
	}
	known := make(map[solana.Pubkey]bool, len(res.Rows))
	for i := range res.Rows {
		r := res.Row(i)
		k := solana.Pubkey(r.Key(0))
		if err := r.Err(); err != nil {
			return fmt.Errorf("find queued metadata URIs: %w", err)
		}
		known[k] = true
	}
	var rows []MetadataRow
	for k, uri := range uris {
		if !known[k] {
			rows = append(rows, MetadataRow{Key: k, URI: uri, Status: schema.MetadataQueued, Version: 1})
		}
	}
	return WriteMetadata(ctx, s, rows)
}

// RefoldURIs folds again every asset whose json_uri has one of keys
// (URIKey), a page of ids at a time: their documents changed. It takes
// turns with Apply, so a fold that read the store before a document was
// written is never written after the fold that read it. It returns how
// many assets it folded.
func (st *FoldStep) RefoldURIs(ctx context.Context, s arrowstore.Writer, keys []solana.Pubkey) (int, error) {
	if len(keys) == 0 {
		return 0, nil
	}
	st.turn.Lock()
	defer st.turn.Unlock()
	var err error
	if st.span, err = spanOf(ctx, s, 0); err != nil {
		return 0, fmt.Errorf("refold assets: %w", err)
	}
	n := 0
	var after solana.Pubkey
	for first := true; ; first = false {
		cond, params := assetrows.KeyIn("key", keys)
		params["path"] = schema.AssetPathJSONURI
		params["after"] = string(after[:])
		from := ""
		if !first {
			from = " AND id > {after:FixedString(32)}"
		}
		res, err := s.Query(ctx, `SELECT DISTINCT id FROM asset_keys FINAL
			WHERE path = {path:String} AND `+cond+from+` ORDER BY id LIMIT `+strconv.Itoa(st.chunk()), params)
		if err != nil {
			return n, fmt.Errorf("find assets naming fetched URIs: %w", err)
		}
		if len(res.Rows) == 0 {
			return n, nil
		}
		ids := make([]solana.Pubkey, 0, len(res.Rows))
		for i := range res.Rows {
			r := res.Row(i)
			id := solana.Pubkey(r.Key(0))
			if err := r.Err(); err != nil {
				return n, fmt.Errorf("find assets naming fetched URIs: %w", err)
			}
			ids = append(ids, id)
		}
		// A collection's members show its document too.
		deps, err := dependents(ctx, s, ids)
		if err != nil {
			return n, err
		}
		named := make(map[solana.Pubkey]bool, len(ids))
		for _, id := range ids {
			named[id] = true
		}
		all := slices.Clone(ids)
		for _, id := range deps {
			if !named[id] {
				all = append(all, id)
			}
		}
		deps = all[len(ids):]
		if err := st.fold(ctx, s, all); err != nil {
			return n, err
		}
		n += len(ids) + len(deps)
		if len(ids) < st.chunk() {
			return n, nil
		}
		after = ids[len(ids)-1]
	}
}

package assetstate

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/query/assetrows"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// withDocuments fills the content of each rendered asset from the stored
// document of its json_uri, and queues in asset_metadata the URIs it has
// never seen. An asset whose document is not stored renders from the
// chain alone; when the document arrives the fetcher folds it again
// (RefoldURIs), so the result does not depend on which came first.
func (st *FoldStep) withDocuments(ctx context.Context, s arrowstore.Writer, results []asset.Result) error {
	uris := map[solana.Pubkey]string{}
	for _, r := range results {
		if r.Err == nil && r.Asset != nil && r.Asset.Content != nil && r.Asset.Content.JSONURI != "" {
			uris[URIKey(r.Asset.Content.JSONURI)] = r.Asset.Content.JSONURI
		}
	}
	if len(uris) == 0 {
		return nil
	}
	keys := make([]solana.Pubkey, 0, len(uris))
	for k := range uris {
		keys = append(keys, k)
	}
	docs, err := loadDocuments(ctx, s, keys)
	if err != nil {
		return err
	}
	for _, r := range results {
		if r.Err != nil || r.Asset == nil || r.Asset.Content == nil || r.Asset.Content.JSONURI == "" {
			continue
		}
		if doc, ok := docs[URIKey(r.Asset.Content.JSONURI)]; ok {
			// A stored document that does not map (the fetcher stores
			// only JSON) renders as not fetched.
			_ = asset.ApplyJSON(r.Asset.Content, doc, st.Content)
		}
	}
	if err := withCollections(ctx, s, results); err != nil {
		return err
	}
	return queueURIs(ctx, s, uris)
}

// withCollections fills the collection_metadata of each collection
// group the renderer showed it for ({} until now) from the stored
// document of the collection asset's json_uri. Members are filed under
// their collection (depends), so when that document arrives the
// collection's refold folds them again (RefoldURIs).
func withCollections(ctx context.Context, s store.Querier, results []asset.Result) error {
	uriOf := map[solana.Pubkey]string{}
	for _, r := range results {
		if r.Err == nil && r.Asset != nil && r.Asset.Content != nil && r.Asset.Content.JSONURI != "" {
			if id, err := solana.ParsePubkey(r.Asset.ID); err == nil {
				uriOf[id] = r.Asset.Content.JSONURI
			}
		}
	}
	var missing []solana.Pubkey
	wanted := map[solana.Pubkey]bool{}
	for _, r := range results {
		for _, c := range collectionGroups(r) {
			if _, ok := uriOf[c]; !ok && !wanted[c] {
				missing = append(missing, c)
			}
			wanted[c] = true
		}
	}
	if len(wanted) == 0 {
		return nil
	}
	if len(missing) > 0 {
		cond, params := assetrows.KeyIn("id", missing)
		res, err := s.Query(ctx, `SELECT id, json_uri FROM `+schema.TableAssetState+` FINAL
			WHERE `+cond+` AND json_uri != '' SETTINGS max_threads = 1`, params)
		if err != nil {
			return fmt.Errorf("load collections' json_uri: %w", err)
		}
		for i := range res.Rows {
			r := res.Row(i)
			id, uri := solana.Pubkey(r.Key(0)), r.Str(1)
			if err := r.Err(); err != nil {
				return fmt.Errorf("load collections' json_uri: %w", err)
			}
			uriOf[id] = uri
		}
	}
	keys := make([]solana.Pubkey, 0, len(wanted))
	for c := range wanted {
		if uri, ok := uriOf[c]; ok {
			keys = append(keys, URIKey(uri))
		}
	}
	if len(keys) == 0 {
		return nil
	}
	docs, err := loadDocuments(ctx, s, keys)
	if err != nil {
		return err
	}
	for _, r := range results {
		for _, c := range collectionGroups(r) {
			doc, ok := docs[URIKey(uriOf[c])]
			if !ok {
				continue
			}
			cm, err := asset.CollectionMetadata(doc)
			if err != nil {
				return err
			}
			for i := range r.Asset.Grouping {
				g := &r.Asset.Grouping[i]
				if g.GroupKey == "collection" && g.GroupValue != nil && *g.GroupValue == c.String() && g.CollectionMetadata != nil {
					g.CollectionMetadata = cm
				}
			}
		}
	}
	return nil
}

// collectionGroups are the collections of r's groups that show
// collection_metadata.
func collectionGroups(r asset.Result) []solana.Pubkey {
	if r.Err != nil || r.Asset == nil {
		return nil
	}
	var out []solana.Pubkey
	for _, g := range r.Asset.Grouping {
		if g.GroupKey != "collection" || g.GroupValue == nil || g.CollectionMetadata == nil {
			continue
		}
		if c, err := solana.ParsePubkey(*g.GroupValue); err == nil {
			out = append(out, c)
		}
	}
	return out
}

// loadDocuments reads the newest stored document of each URI key.
func loadDocuments(ctx context.Context, s store.Querier, keys []solana.Pubkey) (map[solana.Pubkey][]byte, error) {
	cond, params := assetrows.KeyIn("hash", keys)
	res, err := s.Query(ctx, `SELECT hash, doc FROM `+schema.TableAssetMetadataDocs+` FINAL
		WHERE `+cond+` SETTINGS max_threads = 1`, params)
	if err != nil {
		return nil, fmt.Errorf("load metadata documents: %w", err)
	}
	out := make(map[solana.Pubkey][]byte, len(res.Rows))
	for i := range res.Rows {
		r := res.Row(i)
		k, doc := solana.Pubkey(r.Key(0)), r.Str(1)
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("load metadata documents: %w", err)
		}
		out[k] = []byte(doc)
	}
	return out, nil
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

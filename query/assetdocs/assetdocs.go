// Package assetdocs reads stored off-chain metadata documents and applies
// them to rendered assets: each asset's content from the document of its
// json_uri, and each collection group's collection_metadata from the
// document of the collection's own json_uri. The fold uses it to write
// folded state, and the in-memory asset index to render the same answer.
package assetdocs

import (
	"context"
	"crypto/sha256"
	"fmt"

	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/query/assetrows"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
)

// URIKey is the key asset_metadata, asset_metadata_docs and asset_keys
// (path json_uri) file a URI under: its SHA-256.
func URIKey(uri string) solana.Pubkey { return sha256.Sum256([]byte(uri)) }

// URIs are the json_uri of each rendered asset that names one, by key.
func URIs(results []asset.Result) map[solana.Pubkey]string {
	uris := map[solana.Pubkey]string{}
	for _, r := range results {
		if uri := jsonURI(r); uri != "" {
			uris[URIKey(uri)] = uri
		}
	}
	return uris
}

func jsonURI(r asset.Result) string {
	if r.Err != nil || r.Asset == nil || r.Asset.Content == nil {
		return ""
	}
	return r.Asset.Content.JSONURI
}

// Apply fills the content of each of results from the stored document of
// its json_uri (uris, as URIs gives them), and the collection_metadata of
// its collection groups. An asset whose document is not stored renders
// from the chain alone.
func Apply(ctx context.Context, q store.Querier, results []asset.Result, uris map[solana.Pubkey]string, o asset.ContentOptions) error {
	if len(uris) == 0 {
		return nil
	}
	keys := make([]solana.Pubkey, 0, len(uris))
	for k := range uris {
		keys = append(keys, k)
	}
	docs, err := Load(ctx, q, keys)
	if err != nil {
		return err
	}
	for _, r := range results {
		if uri := jsonURI(r); uri != "" {
			if doc, ok := docs[URIKey(uri)]; ok {
				// A stored document that does not map (the fetcher
				// stores only JSON) renders as not fetched.
				_ = asset.ApplyJSON(r.Asset.Content, doc, o)
			}
		}
	}
	return collections(ctx, q, results)
}

// collections fills the collection_metadata of each collection group the
// renderer showed it for ({} until now) from the stored document of the
// collection asset's json_uri.
func collections(ctx context.Context, q store.Querier, results []asset.Result) error {
	uriOf := map[solana.Pubkey]string{}
	for _, r := range results {
		if uri := jsonURI(r); uri != "" {
			if id, err := solana.ParsePubkey(r.Asset.ID); err == nil {
				uriOf[id] = uri
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
		res, err := q.Query(ctx, `SELECT id, json_uri FROM `+schema.TableAssetState+` FINAL
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
	docs, err := Load(ctx, q, keys)
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

// Load reads the newest stored document of each URI key.
func Load(ctx context.Context, q store.Querier, keys []solana.Pubkey) (map[solana.Pubkey][]byte, error) {
	cond, params := assetrows.KeyIn("hash", keys)
	res, err := q.Query(ctx, `SELECT hash, doc FROM `+schema.TableAssetMetadataDocs+` FINAL
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

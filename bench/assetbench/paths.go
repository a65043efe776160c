package assetbench

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/chain/metadata"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/query/assetrows"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// domDraw seeds the random draws of ids to request.
const domDraw = 1 << 20

// draw picks request ids at random from a pool of asset indexes.
type draw struct {
	p    *Plan
	pool []int32
	dom  uint64
	size int // ids per request
}

// ids returns the ids of request i.
func (d draw) ids(i int) []solana.Pubkey {
	out := make([]solana.Pubkey, d.size)
	for j := range out {
		x := mix(d.p.Cfg.Seed, d.dom, uint64(i*d.size+j))
		out[j] = d.p.ID(int(d.pool[x%uint64(len(d.pool))]))
	}
	return out
}

// paths are the ways to answer a draw's requests.
type paths struct {
	s arrowstore.Store
	// rpc is the server reading the store, indexed the one reading the
	// asset index first.
	rpc, indexed *rpcClient
	// pg is the reference's connection, nil without it; pgBatch its
	// getAssetBatch statements.
	pg      *pgx.Conn
	pgBatch pgBatchSQL
}

// http requests through the server: getAsset for one id, getAssetBatch
// for more.
func (ps paths) http(d draw) request { return httpVia(ps.rpc, d) }

// httpIndexed is http through the server with the asset index.
func (ps paths) httpIndexed(d draw) request { return httpVia(ps.indexed, d) }

func httpVia(c *rpcClient, d draw) request {
	return func(ctx context.Context, i int, verify bool) error {
		ids := d.ids(i)
		if d.size == 1 {
			return c.getAsset(ctx, ids[0], verify)
		}
		return c.getAssetBatch(ctx, ids, verify)
	}
}

// query calls the query layer the handlers call (asset.Render over
// query/assetrows.Loader), no HTTP or JSON.
func (ps paths) query(d draw) request {
	return func(ctx context.Context, i int, verify bool) error {
		ids := d.ids(i)
		res, err := asset.Render(ids, assetrows.Loader(ctx, ps.s, nil), asset.Options{})
		if err != nil || !verify {
			return err
		}
		for j, r := range res {
			if r.Err != nil {
				return fmt.Errorf("query layer, %s: %w", ids[j], r.Err)
			}
			if r.Asset == nil || r.Asset.ID != ids[j].String() {
				return fmt.Errorf("query layer: asked for %s, rendered %+v", ids[j], r.Asset)
			}
		}
		return nil
	}
}

// store reads what the query layer reads for the same ids (the ids and
// their edition PDAs, derived before the clock starts) with
// query/assetrows.Load: the SQL and its row decoding, no rendering.
func (ps paths) store(d draw, n int) request {
	keys := make([][]solana.Pubkey, n)
	for i := range keys {
		ids := d.ids(i)
		keys[i] = append(ids, make([]solana.Pubkey, len(ids))...)
		for j, id := range ids {
			keys[i][len(ids)+j] = metadata.EditionPDA(id)
		}
	}
	return func(ctx context.Context, i int, verify bool) error {
		ks := keys[i%n]
		st, err := assetrows.Load(ctx, ps.s, ks)
		if err != nil || !verify {
			return err
		}
		for _, id := range ks[:len(ks)/2] {
			if x := st[id]; x == nil || x.Empty() {
				return fmt.Errorf("store read: nothing stored under %s", id)
			}
		}
		return nil
	}
}

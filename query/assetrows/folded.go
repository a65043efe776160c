package assetrows

import (
	"context"
	"fmt"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/store"
)

// Folded is one asset_state row: an asset folded by the asset state step.
type Folded struct {
	Status string // schema.AssetStatus*
	Error  string
	Doc    []byte // the asset rendered with asset.Folded, as JSON
	Slot   uint64
}

// LoadFolded reads the folded state of each of ids; ids never folded are
// absent from the map.
func LoadFolded(ctx context.Context, s store.Querier, ids []solana.Pubkey) (map[solana.Pubkey]Folded, error) {
	out := make(map[solana.Pubkey]Folded, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	cond, params := KeyIn("id", ids)
	// One thread: a point read touches a granule or two, and a parallel
	// plan costs more to start than the read.
	res, err := s.Query(ctx, `SELECT id, status, error, doc, slot FROM asset_state FINAL
		WHERE `+cond+` SETTINGS max_threads = 1`, params)
	if err != nil {
		return nil, fmt.Errorf("load folded assets: %w", err)
	}
	for i := range res.Rows {
		r := res.Row(i)
		id := solana.Pubkey(r.Key(0))
		f := Folded{Status: r.Str(1), Error: r.Str(2), Doc: []byte(r.Str(3)), Slot: r.U64(4)}
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("load folded assets: %w", err)
		}
		out[id] = f
	}
	return out, nil
}

package zzpt

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/internal/cmdkit"
	"github.com/dasch-labs/dasch/query/assetrows"
)

func TestLoads(t *testing.T) {
	ctx := context.Background()
	s, closer, err := cmdkit.OpenStore(ctx, slog.Default(), "embedded:/tmp/fstore", false)
	if err != nil {
		t.Fatal(err)
	}
	defer closer()
	res, err := s.Query(ctx, `SELECT DISTINCT asset_id FROM asset_accounts ORDER BY asset_id LIMIT 5000`, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ids []solana.Pubkey
	for i := range res.Rows {
		r := res.Row(i)
		ids = append(ids, solana.Pubkey(r.Key(0)))
	}
	for _, n := range []int{500, 2000} {
		for rep := 0; rep < 3; rep++ {
			chunk := ids[rep*n/2 : rep*n/2+n]
			t0 := time.Now()
			m, err := assetrows.Load(ctx, s, chunk)
			if err != nil {
				t.Fatal(err)
			}
			d1 := time.Since(t0)
			t0 = time.Now()
			hi := chunk[n-1]
			hi[31]++
			m2, err := assetrows.LoadRange(ctx, s, chunk[0], &hi)
			if err != nil {
				t.Fatal(err)
			}
			d2 := time.Since(t0)
			t0 = time.Now()
			_, err = asset.Render(chunk, assetrows.Loader(ctx, s, nil), asset.Folded)
			d3 := time.Since(t0)
			t.Logf("n=%d load IN %v (%d) range %v (%d) render-with-loads %v", n, d1, len(m), d2, len(m2), d3)
		}
	}
}

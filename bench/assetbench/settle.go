package assetbench

import (
	"context"
	"fmt"
	"time"

	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// settle waits, up to limit, until no merge runs, so queries are measured
// on the state ingest leaves once it is idle rather than while merges
// compete for the CPU. It returns the wait and asset_accounts' active
// parts.
func settle(ctx context.Context, s arrowstore.Store, limit time.Duration) (time.Duration, int, error) {
	start := time.Now()
	for quiet := 0; time.Since(start) < limit && quiet < 3; {
		res, err := s.Query(ctx, "SELECT count() FROM system.merges WHERE database = currentDatabase()", nil)
		if err != nil {
			return 0, 0, fmt.Errorf("settle: %w", err)
		}
		if n, _ := res.Rows[0][0].(uint64); n == 0 {
			quiet++
		} else {
			quiet = 0
		}
		select {
		case <-ctx.Done():
			return 0, 0, ctx.Err()
		case <-time.After(time.Second):
		}
	}
	wait := time.Since(start)
	res, err := s.Query(ctx, `SELECT toUInt64(count()) FROM system.parts
		WHERE active AND database = currentDatabase() AND table = {t:String}`, store.Params{"t": schema.TableAssetAccounts})
	if err != nil {
		return 0, 0, fmt.Errorf("settle: %w", err)
	}
	parts, _ := res.Rows[0][0].(uint64)
	return wait, int(parts), nil
}

// diskBytes is asset_accounts' compressed size.
func diskBytes(ctx context.Context, s arrowstore.Store) (int64, error) {
	res, err := s.Query(ctx, `SELECT toUInt64(sum(bytes_on_disk)) FROM system.parts
		WHERE active AND database = currentDatabase() AND table = {t:String}`, store.Params{"t": schema.TableAssetAccounts})
	if err != nil {
		return 0, fmt.Errorf("disk size: %w", err)
	}
	n, _ := res.Rows[0][0].(uint64)
	return int64(n), nil
}

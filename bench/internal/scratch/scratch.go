// Package scratch removes the benchmarks' scratch tables.
package scratch

import (
	"context"

	"github.com/dasch-labs/dasch/store/arrowstore"
)

// Drop removes a scratch table and its data, best effort. Merges are
// stopped and the data truncated first, and the drop itself does not wait
// (no SYNC): at 20M accounts a DROP … SYNC of a scratch copy was seen to
// wait for the table's last reference without end while background merges
// of the copies were still running.
func Drop(ctx context.Context, s arrowstore.Store, table string) {
	ctx = context.WithoutCancel(ctx)
	for _, q := range []string{"SYSTEM STOP MERGES ", "TRUNCATE TABLE IF EXISTS ", "DROP TABLE IF EXISTS "} {
		_ = s.Exec(ctx, q+table, nil)
	}
}

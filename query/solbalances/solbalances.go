// Package solbalances reads the newest lamports indexed transactions left
// in an account (sol_balances).
package solbalances

import (
	"context"
	"fmt"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/store"
)

// Newest is the lamports the newest indexed transaction naming address
// left in it, and the slot of that transaction; ok is false when no
// indexed transaction names it.
func Newest(ctx context.Context, s store.Querier, address solana.Pubkey) (lamports, slot uint64, ok bool, err error) {
	res, err := s.Query(ctx, `SELECT argMax(lamports, version), max(slot), count() FROM sol_balances
		WHERE address = {a:FixedString(32)} SETTINGS max_threads = 1`, store.Params{"a": string(address[:])})
	if err != nil {
		return 0, 0, false, fmt.Errorf("native balance of %s: %w", address, err)
	}
	if len(res.Rows) == 0 {
		return 0, 0, false, nil
	}
	r := res.Row(0)
	lamports, slot, n := r.U64(0), r.U64(1), r.U64(2)
	if err := r.Err(); err != nil {
		return 0, 0, false, fmt.Errorf("native balance of %s: %w", address, err)
	}
	return lamports, slot, n > 0, nil
}

package compressedstate

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// versions hands out the version of token_balances and mint_holders rows:
// the wall clock in microseconds, but always above every version handed
// out before, by this process or stored by an earlier one. The clock keeps
// versions meaningful ("when") and spaced for any other writer; the floor
// keeps them strictly increasing even if the clock steps back.
type versions struct {
	mu     sync.Mutex
	loaded bool
	last   uint64
	now    func() time.Time
}

// next returns a version above every earlier one. The stored maximum is
// read once, on first use.
func (v *versions) next(ctx context.Context, s arrowstore.Writer) (uint64, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if !v.loaded {
		res, err := s.Query(ctx, `SELECT greatest(
			(SELECT max(version) FROM token_balances), (SELECT max(version) FROM mint_holders),
			(SELECT max(applied) FROM `+schema.TableTokenLedgerApplied+`))`, nil)
		if err != nil {
			return 0, fmt.Errorf("read stored versions: %w", err)
		}
		v.last, _ = res.Rows[0][0].(uint64)
		v.loaded = true
	}
	n := max(uint64(v.now().UnixMicro()), v.last+1)
	v.last = n
	return n, nil
}

package soakbench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/dasch-labs/dasch/bench/internal/rpc"
)

// legit runs the paced legitimate clients for d (or until ctx ends): each
// sends cfg.Rate requests a second of a wallet's and an explorer's mix,
// on schedule whatever the answers' times, and counts an answer that is
// not a JSON-RPC result as failed.
func legit(ctx context.Context, cfg Config, addr string, w *world, d time.Duration) Latency {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	end, _ := ctx.Deadline()
	var mu sync.Mutex
	var lat []time.Duration
	var errs []string
	failed := 0
	started := time.Now()
	interval := time.Duration(float64(time.Second) / cfg.Rate)
	var wg sync.WaitGroup
	for i := range cfg.Clients {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(cfg.Seed, 1000+uint64(i)))
			c := rpc.New(addr, w.legitKey, 1)
			// Clients start spread over one interval.
			next := time.Now().Add(time.Duration(r.Int64N(int64(interval))))
			for {
				select {
				case <-ctx.Done():
					return
				case <-time.After(time.Until(next)):
				}
				next = next.Add(interval)
				body := legitRequest(r, w)
				t0 := time.Now()
				err := c.Send(ctx, body)
				took := time.Since(t0)
				// A call cut by the phase's end is not an answer missed:
				// its deadline is the phase's, and the timer may fire
				// just before the context says so.
				if ctx.Err() != nil || err != nil && !time.Now().Before(end) {
					return
				}
				mu.Lock()
				if err != nil {
					failed++
					if len(errs) < 5 {
						errs = append(errs, err.Error())
					}
				} else {
					lat = append(lat, took)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return summarise(lat, failed, errs, time.Since(started))
}

// legitRequest is one call of the mix.
func legitRequest(r *rand.Rand, w *world) []byte {
	pick := func(s []string) string { return s[r.IntN(len(s))] }
	switch n := r.IntN(10); {
	case n < 4:
		return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":1,"method":"getAsset","params":{"id":%q}}`, pick(w.assets))
	case n < 5:
		ids := make([]string, 10)
		for i := range ids {
			ids[i] = `"` + pick(w.assets) + `"`
		}
		return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":1,"method":"getAssetBatch","params":{"ids":[%s]}}`, strings.Join(ids, ","))
	case n < 7:
		return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":1,"method":"getAssetsByOwner","params":{"ownerAddress":%q,"page":1,"limit":50}}`, pick(w.owners))
	case n < 8:
		return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":1,"method":"getCompressedTokenAccountsByOwner","params":{"owner":%q}}`, pick(w.compressedOwners))
	case n < 9:
		return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":1,"method":"getCompressedBalanceByOwner","params":{"owner":%q}}`, pick(w.compressedOwners))
	default:
		return []byte(`{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"}`)
	}
}

package prices

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/store"
)

// DefaultRefresh is how often dasch serve refreshes prices: answers
// then show prices at most this old, plus a refresh's run.
const DefaultRefresh = 600 * time.Second

// Price is one mint's row of a generation.
type Price struct {
	USD       float64 // dollars per whole token
	Volume24h float64 // dollars traded over the window
	Swaps     uint64
	Rank      uint32 // 1 for the largest volume
}

// Load reads the generation refreshed at, at most top mints of it.
func Load(ctx context.Context, s store.Querier, at time.Time, top int) (map[solana.Pubkey]Price, error) {
	res, err := s.Query(ctx, `SELECT mint, price_usd, volume_24h_usd, swaps, rank FROM token_prices
		WHERE refreshed_at = fromUnixTimestamp64Milli({at:Int64}, 'UTC')
		ORDER BY rank LIMIT {top:UInt32}`,
		store.Params{"at": strconv.FormatInt(at.UnixMilli(), 10), "top": strconv.Itoa(top)})
	if err != nil {
		return nil, fmt.Errorf("load token prices: %w", err)
	}
	out := make(map[solana.Pubkey]Price, len(res.Rows))
	for i := range res.Rows {
		r := res.Row(i)
		usd, ok1 := res.Rows[i][1].(float64)
		vol, ok2 := res.Rows[i][2].(float64)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("load token prices: row %d: want Float64 columns", i)
		}
		p := Price{USD: usd, Volume24h: vol, Swaps: r.U64(3), Rank: r.U32(4)}
		k := solana.Pubkey(r.Key(0))
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("load token prices: %w", err)
		}
		out[k] = p
	}
	return out, nil
}

// LoadNewest reads the newest generation stored, at most top mints of
// it; a zero Generation and no prices when none is.
func LoadNewest(ctx context.Context, s store.Querier, top int) (Generation, map[solana.Pubkey]Price, error) {
	res, err := s.Query(ctx, `SELECT refreshed_at, window_end FROM token_prices ORDER BY refreshed_at DESC LIMIT 1`, nil)
	if err != nil {
		return Generation{}, nil, fmt.Errorf("newest token prices: %w", err)
	}
	if len(res.Rows) == 0 {
		return Generation{}, map[solana.Pubkey]Price{}, nil
	}
	at, ok1 := res.Rows[0][0].(time.Time)
	end, ok2 := res.Rows[0][1].(time.Time)
	if !ok1 || !ok2 {
		return Generation{}, nil, fmt.Errorf("newest token prices: want DateTime columns")
	}
	g := Generation{RefreshedAt: at, WindowEnd: end, SOL: math.NaN()}
	m, err := Load(ctx, s, at, top)
	if err != nil {
		return g, nil, err
	}
	if p, ok := m[SOL]; ok {
		g.SOL = p.USD
	}
	return g, m, nil
}

// Cache holds the prices of the newest generation the process wrote: at
// most Options.Top mints, replaced whole at each refresh, so its size
// does not grow with the swaps. The zero Cache holds none. It is safe
// for concurrent use.
type Cache struct {
	cur atomic.Pointer[snapshot]
}

type snapshot struct {
	prices map[solana.Pubkey]Price
	gen    Generation
}

// Price returns mint's price in dollars per whole token, if it has one.
func (c *Cache) Price(mint solana.Pubkey) (float64, bool) {
	if c == nil {
		return 0, false
	}
	sn := c.cur.Load()
	if sn == nil {
		return 0, false
	}
	p, ok := sn.prices[mint]
	return p.USD, ok
}

// Len is the number of mints priced, and the generation they come from.
func (c *Cache) Len() (int, Generation) {
	sn := c.cur.Load()
	if sn == nil {
		return 0, Generation{}
	}
	return len(sn.prices), sn.gen
}

// Set replaces the prices held.
func (c *Cache) Set(g Generation, prices map[solana.Pubkey]Price) {
	c.cur.Store(&snapshot{prices: prices, gen: g})
}

// RefreshOnce writes a generation and holds it.
func (c *Cache) RefreshOnce(ctx context.Context, s store.ExecQuerier, now time.Time, o Options) (Generation, error) {
	g, err := Refresh(ctx, s, now, o)
	if err != nil {
		return g, err
	}
	m, err := Load(ctx, s, g.RefreshedAt, o.Top)
	if err != nil {
		return g, err
	}
	c.Set(g, m)
	return g, nil
}

// Follow holds the newest stored generation, read at once and then
// every interval until ctx ends: for a process that cannot write the
// store (a read-only serve), beside another that refreshes.
func (c *Cache) Follow(ctx context.Context, s store.Querier, every time.Duration, top int, log *slog.Logger) {
	c.loop(ctx, every, log, func() (Generation, error) {
		g, m, err := LoadNewest(ctx, s, top)
		if err == nil {
			c.Set(g, m)
		}
		return g, err
	})
}

// Run refreshes at once and then every interval until ctx ends. A failed
// refresh is logged and the prices held are kept until the next one.
func (c *Cache) Run(ctx context.Context, s store.ExecQuerier, every time.Duration, o Options, log *slog.Logger) {
	c.loop(ctx, every, log, func() (Generation, error) { return c.RefreshOnce(ctx, s, time.Now(), o) })
}

// loop runs step at once and then every interval until ctx ends,
// logging each outcome.
func (c *Cache) loop(ctx context.Context, every time.Duration, log *slog.Logger, step func() (Generation, error)) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		start := time.Now()
		g, err := step()
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			log.Warn("token prices not refreshed", "err", err)
		default:
			n, _ := c.Len()
			log.Info("token prices refreshed", "mints", n, "window_end", g.WindowEnd, "sol_usd", g.SOL, "took", time.Since(start).Round(time.Millisecond))
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

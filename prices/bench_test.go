package prices_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/prices"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// benchSwaps is the size of the synthetic day of swaps.
const benchSwaps = 10_000_000

// genSwapsSQL writes {n:UInt64} swaps over the day before {t0:Int64},
// one a slot: a tenth SOL for USDC at about 150, half tokens for USDC,
// the rest tokens for SOL; tokens drawn log-uniformly from 50,000 (a
// few trade often, most rarely), each at a price of its own with 1%
// noise; trades of 10 to 1,010 dollars, from 100,000 traders; one swap
// in ten routed (leg 0 and an inner leg 1 of one transaction).
const genSwapsSQL = `INSERT INTO token_swaps (slot, tx_index, signature, leg, block_time, protocol, program_id, user,
		input_mint, output_mint, in_amount, out_amount, input_decimals, output_decimals)
	SELECT slot, 0, toFixedString(toString(sig), 64), leg, block_time, 'bench', toFixedString('', 32), user,
		if(sell, base, quote), if(sell, quote, base),
		toUInt64(if(sell, base_amt, quote_amt)), toUInt64(if(sell, quote_amt, base_amt)),
		if(sell, base_dec, quote_dec), if(sell, quote_dec, base_dec)
	FROM (
		SELECT if(number % 20 = 1, number - 1, number) AS slot,
			if(number % 20 < 2, intDiv(number, 2), number + {n:UInt64}) AS sig,
			toUInt16(number % 20 = 1) AS leg,
			{t0:Int64} - 86400 + toInt64(intDiv(slot * 86400, {n:UInt64})) AS block_time,
			toFixedString(reinterpretAsString(cityHash64(number % 100000)), 32) AS user,
			number % 10 AS kind,
			number % 2 = 0 AS sell,
			toUInt32(floor(exp(log(50000.) * (cityHash64(number, 1) % 1000000) / 1000000.))) AS m,
			10 + cityHash64(number, 2) % 1000 AS usd,
			1 + ((cityHash64(number, 3) % 2001) - 1000) / 100000. AS noise,
			if(kind = 0, 150 * noise, noise / (m + 1)) AS price,
			if(kind = 0, {sol:FixedString(32)}, toFixedString(concat('m', reinterpretAsString(m)), 32)) AS base,
			if(kind = 0, 9, 6) AS base_dec,
			if(kind <= 5, {usdc:FixedString(32)}, {sol:FixedString(32)}) AS quote,
			if(kind <= 5, 6, 9) AS quote_dec,
			usd / price * pow(10, base_dec) AS base_amt,
			if(kind <= 5, usd * 1e6, usd / 150 * 1e9) AS quote_amt
		FROM numbers({n:UInt64})
	)`

// BenchmarkRefresh refreshes the prices over a day of benchSwaps
// synthetic swaps, on each engine. On the server the engine's peak
// memory of the refresh statements is reported beside the time.
func BenchmarkRefresh(b *testing.B) {
	for _, eng := range []struct {
		name string
		open func(testing.TB) arrowstore.Store
	}{{"embedded", storetest.Open}, {"server", storetest.OpenServer}} {
		b.Run(eng.name, func(b *testing.B) { benchRefresh(b, eng.open(b)) })
	}
}

func benchRefresh(b *testing.B, s arrowstore.Store) {
	ctx := context.Background()
	t0 := time.Now().Unix()
	p := store.Params{"n": strconv.Itoa(benchSwaps), "t0": strconv.FormatInt(t0, 10),
		"sol": string(prices.SOL[:]), "usdc": string(prices.USDC[:])}
	start := time.Now()
	if err := s.Exec(ctx, genSwapsSQL, p); err != nil {
		b.Fatal(err)
	}
	b.Logf("%d swaps written in %v", benchSwaps, time.Since(start).Round(time.Millisecond))
	o := prices.DefaultOptions()
	var c prices.Cache
	peak := make(chan uint64, 1)
	stop := make(chan struct{})
	if s.Engine() == "embedded" {
		peak <- 0
	} else {
		go pollPeak(ctx, s, stop, peak)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := c.RefreshOnce(ctx, s, time.Now(), o); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	close(stop)
	if v := <-peak; v > 0 {
		b.ReportMetric(float64(v)/(1<<20), "peak-MiB")
	}
	n, g := c.Len()
	b.Logf("%d mints priced, SOL at %.2f", n, g.SOL)
	if n != o.Top {
		b.Errorf("%d mints priced, want %d", n, o.Top)
	}
}

// pollPeak sends on peak, once stop is closed, the highest peak memory
// system.processes showed of a statement reading token_swaps. The test
// server keeps no query log, and runs the poll beside the refresh (the
// embedded engine runs one statement at a time).
func pollPeak(ctx context.Context, s store.Querier, stop <-chan struct{}, peak chan<- uint64) {
	var max uint64
	defer func() { peak <- max }()
	for {
		select {
		case <-stop:
			return
		case <-time.After(20 * time.Millisecond):
		}
		res, err := s.Query(ctx, `SELECT toUInt64(max(peak_memory_usage)) FROM system.processes
			WHERE query LIKE '%FROM token_swaps%' AND query NOT LIKE '%system.processes%'`, nil)
		if err != nil || len(res.Rows) == 0 {
			continue
		}
		if v, ok := res.Rows[0][0].(uint64); ok && v > max {
			max = v
		}
	}
}

// Package prices derives USD token prices from the indexed swaps
// (token_swaps) and keeps the newest ones in memory for the DAS answers
// (token_info.price_info). The derivation runs in the engine, as one
// INSERT ... SELECT into token_prices per refresh: no swap is loaded into
// the process. docs/prices.md states the rules.
package prices

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/chain/token"
	"github.com/dasch-labs/dasch/store"
)

// The quote mints: the two dollar stablecoins, counted at one dollar, and
// wrapped SOL, priced from its swaps with them.
var (
	USDC = solana.MustParsePubkey("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v")
	USDT = solana.MustParsePubkey("Es9vMFrajbaGfFaN6yrtVDUq6ZLzRnVnE6FdqVcDr3hM")
	SOL  = token.NativeMint()
)

// Options are the rules of a refresh.
type Options struct {
	// Window is how far back from the newest swap volumes reach.
	Window time.Duration
	// Recent is the span before the newest swap whose trades price a
	// mint; a mint with no kept trade in it is priced over Window.
	Recent time.Duration
	// MinUSD is the smallest trade, in dollars, that counts at all.
	MinUSD float64
	// Band drops a trade whose price is more than Band times, or less
	// than 1/Band times, the median price of the mint's trades.
	Band float64
	// MinTrades and MinTraders are the kept trades and distinct traders
	// (swap signers) a mint needs to be priced.
	MinTrades  int
	MinTraders int
	// Top is how many mints, by volume, a refresh keeps.
	Top int
}

// DefaultOptions are the rules docs/prices.md states.
func DefaultOptions() Options {
	return Options{
		Window:     24 * time.Hour,
		Recent:     time.Hour,
		MinUSD:     1,
		Band:       3,
		MinTrades:  5,
		MinTraders: 2,
		Top:        10_000,
	}
}

// Generation is what one refresh wrote: every row of token_prices with
// refreshed_at RefreshedAt.
type Generation struct {
	RefreshedAt time.Time
	// WindowEnd is the block time of the newest swap (at most the
	// refresh's time); zero when there is no swap at all.
	WindowEnd time.Time
	// SOL is the dollar price of SOL the refresh valued SOL legs with;
	// NaN when it had none.
	SOL float64
}

// bucketsPerUnit is the resolution of the median: prices are grouped in
// buckets of one hundredth of a natural-log unit (about 1%), so the
// median needs one row per mint and price bucket, not every trade.
const bucketsPerUnit = 100

// Refresh writes a generation of token_prices from the swaps of the
// window ending at the newest swap, stamped now.
func Refresh(ctx context.Context, s store.ExecQuerier, now time.Time, o Options) (Generation, error) {
	g := Generation{RefreshedAt: now.UTC().Truncate(time.Millisecond), SOL: math.NaN()}
	if err := o.check(); err != nil {
		return g, err
	}
	// The newest swap, read in the table's order: the last granules only.
	res, err := s.Query(ctx, `SELECT block_time FROM token_swaps ORDER BY slot DESC LIMIT 1`, nil)
	if err != nil {
		return g, fmt.Errorf("newest swap: %w", err)
	}
	if len(res.Rows) == 0 {
		return g, nil
	}
	end := min(res.Rows[0][0].(int64), g.RefreshedAt.Unix())
	g.WindowEnd = time.Unix(end, 0).UTC()
	p := o.params(end)
	p["refreshed"] = strconv.FormatInt(g.RefreshedAt.UnixMilli(), 10)
	res, err = s.Query(ctx, solPriceSQL, p)
	if err != nil {
		return g, fmt.Errorf("sol price: %w", err)
	}
	if len(res.Rows) > 0 {
		g.SOL = res.Rows[0][0].(float64)
	}
	p["sol_usd"] = "nan"
	if !math.IsNaN(g.SOL) {
		p["sol_usd"] = strconv.FormatFloat(g.SOL, 'g', -1, 64)
	}
	if err := s.Exec(ctx, refreshSQL, p); err != nil {
		return g, fmt.Errorf("refresh token prices: %w", err)
	}
	return g, nil
}

func (o Options) check() error {
	switch {
	case o.Window <= 0 || o.Recent <= 0 || o.Recent > o.Window:
		return fmt.Errorf("prices: want 0 < recent (%v) <= window (%v)", o.Recent, o.Window)
	case o.Band <= 1 || math.IsInf(o.Band, 0) || math.IsNaN(o.Band):
		return fmt.Errorf("prices: band %v, want more than 1", o.Band)
	case o.Top <= 0 || o.MinTrades < 0 || o.MinTraders < 0 || math.IsNaN(o.MinUSD):
		return fmt.Errorf("prices: top %d, min trades %d, min traders %d, min usd %v", o.Top, o.MinTrades, o.MinTraders, o.MinUSD)
	}
	return nil
}

// params are the statement parameters of a window ending at end.
func (o Options) params(end int64) store.Params {
	return store.Params{
		"start":       strconv.FormatInt(end-int64(o.Window/time.Second), 10),
		"end":         strconv.FormatInt(end, 10),
		"recent":      strconv.FormatInt(end-int64(o.Recent/time.Second), 10),
		"min_usd":     strconv.FormatFloat(o.MinUSD, 'g', -1, 64),
		"band":        strconv.Itoa(int(math.Ceil(math.Log(o.Band) * bucketsPerUnit))),
		"min_trades":  strconv.Itoa(o.MinTrades),
		"min_traders": strconv.Itoa(o.MinTraders),
		"top":         strconv.Itoa(o.Top),
		"usdc":        string(USDC[:]),
		"usdt":        string(USDT[:]),
		"sol":         string(SOL[:]),
	}
}

// legsSQL are the swap legs of the window, amounts in whole tokens: a
// routed swap by its inner legs (each a pool swap), any other by leg 0,
// so every pool trade counts once. A route is known by an inner leg
// (any: the parser leaves out a leg whose amount does not fit), and its
// transaction by (slot, tx_index): the signatures, the widest column,
// are not read, and the set is eight bytes a route.
const legsSQL = `SELECT user, block_time > {recent:Int64} AS recent,
		input_mint, output_mint,
		in_amount / pow(10, input_decimals) AS a_in,
		out_amount / pow(10, output_decimals) AS a_out,
		input_mint IN ({usdc:FixedString(32)}, {usdt:FixedString(32)}) AS in_stable,
		output_mint IN ({usdc:FixedString(32)}, {usdt:FixedString(32)}) AS out_stable
	FROM token_swaps
	WHERE block_time > {start:Int64} AND block_time <= {end:Int64}
		AND in_amount > 0 AND out_amount > 0 AND input_mint != output_mint
		AND (leg >= 1 OR bitShiftLeft(slot, 20) + tx_index NOT IN (
			SELECT bitShiftLeft(slot, 20) + tx_index FROM token_swaps
			WHERE block_time > {start:Int64} AND block_time <= {end:Int64} AND leg >= 1))`

// sidesSQL is each leg's observations, with the leg's dollar value (its
// stablecoin side, else its SOL side at solUSD): a leg observes a mint's
// price when its other side, the quote (q: 1 USDC, 2 USDT, 3 SOL), is a
// stablecoin, or SOL for a mint that is neither. A leg between the two
// stablecoins observes nothing and is both sides' volume as it is (q
// 0). The quote's volume is counted from the observations the band
// keeps (rankedSQL), so an outlier counts on neither side. Legs below
// the dollar floor, or with no dollar side, are left out. Only what the
// aggregation reads is carried through the join (the signer as a
// hash): the join copies every column it carries.
func sidesSQL(solUSD, where string) string {
	return `SELECT side.1 AS mint, side.2 AS qty, side.3 AS q, q != 0 AS observed, usd, user, recent,
		if(observed, toInt32(floor(log(usd / qty) * ` + strconv.Itoa(bucketsPerUnit) + `)), 0) AS bucket
	FROM (
		SELECT usd, cityHash64(user) AS user, recent,
			multiIf(out_stable, if(output_mint = {usdc:FixedString(32)}, 1, 2), output_mint = {sol:FixedString(32)}, 3, 0) AS q_out,
			multiIf(in_stable, if(input_mint = {usdc:FixedString(32)}, 1, 2), input_mint = {sol:FixedString(32)}, 3, 0) AS q_in,
			arrayFilter(s -> s.3 != 0 OR (in_stable AND out_stable), [
				(input_mint, a_in, toUInt8(if(NOT in_stable AND (input_mint != {sol:FixedString(32)} OR out_stable), q_out, 0))),
				(output_mint, a_out, toUInt8(if(NOT out_stable AND (output_mint != {sol:FixedString(32)} OR in_stable), q_in, 0)))
			]) AS both
		FROM (
			SELECT *, multiIf(out_stable, a_out, in_stable, a_in,
					output_mint = {sol:FixedString(32)}, a_out * ` + solUSD + `,
					input_mint = {sol:FixedString(32)}, a_in * ` + solUSD + `, nan) AS usd
			FROM (` + legsSQL + where + `)
		)
		WHERE usd >= {min_usd:Float64}
	)
	ARRAY JOIN both AS side`
}

// perMintSQL aggregates sides per mint: first per quote and price bucket
// (bounded by the spread of a mint's prices, not by its trades), then
// the median bucket of its observations, the band around it, and the
// sums of the trades kept, in all and per quote.
func perMintSQL(sides string) string {
	return `SELECT mint,
		arrayReduce('quantileExactWeighted(0.5)', arrayFilter((b, o) -> o, bs, obs), arrayFilter((n, o) -> o, ns, obs)) AS med,
		arrayMap((b, o) -> o AND abs(b - med) <= {band:Int32}, bs, obs) AS okept,
		arrayMap((o, k) -> NOT o OR k, obs, okept) AS kept,
		arraySum(arrayFilter((x, k) -> k, ns, okept)) AS observed_trades,
		arraySum(arrayFilter((x, k) -> k, nrs, okept)) AS recent_trades,
		finalizeAggregation(arrayReduce('uniqMergeState', arrayFilter((x, k) -> k, uss, okept))) AS traders,
		arraySum(arrayFilter((x, k) -> k, ns, kept)) AS trades,
		arraySum(arrayFilter((x, k) -> k, us, kept)) AS volume,
		if(recent_trades > 0,
			arraySum(arrayFilter((x, k) -> k, urs, okept)) / arraySum(arrayFilter((x, k) -> k, qrs, okept)),
			arraySum(arrayFilter((x, k) -> k, us, okept)) / arraySum(arrayFilter((x, k) -> k, qs, okept))) AS price,
		observed_trades >= {min_trades:UInt64} AND traders >= {min_traders:UInt64} AS enough,
		arrayMap(x -> arraySum(arrayFilter((u, k, qq) -> k AND qq = x, us, okept, qts)), [1, 2, 3]) AS quote_volume,
		arrayMap(x -> arraySum(arrayFilter((n, k, qq) -> k AND qq = x, ns, okept, qts)), [1, 2, 3]) AS quote_trades
	FROM (
		SELECT mint, groupArray(bucket) AS bs, groupArray(observed) AS obs, groupArray(q) AS qts, groupArray(n) AS ns,
			groupArray(b_usd) AS us, groupArray(b_qty) AS qs, groupArray(n_r) AS nrs,
			groupArray(usd_r) AS urs, groupArray(qty_r) AS qrs, groupArray(users) AS uss
		FROM (
			SELECT mint, q, observed, bucket, count() AS n, sum(usd) AS b_usd, sum(qty) AS b_qty,
				countIf(recent) AS n_r, sumIf(usd, recent) AS usd_r, sumIf(qty, recent) AS qty_r,
				uniqState(user) AS users
			FROM (` + sides + `)
			GROUP BY mint, q, observed, bucket
		)
		GROUP BY mint
	)`
}

// rankedSQL is every mint priced from sides, with its volume: its own
// kept trades, and for a quote (USDC, USDT, SOL) also the kept trades
// that other mints made against it. A stablecoin is one dollar; any
// other mint needs MinTrades kept observations from MinTraders traders.
// The trades of a mint short of them still count in its quotes' volume.
func rankedSQL(sides string) string {
	return `SELECT m AS mint, if(stable, 1., own_price) AS price, all_volume AS volume, all_trades AS trades, own_traders AS traders
	FROM (
		SELECT r.1 AS m, m IN ({usdc:FixedString(32)}, {usdt:FixedString(32)}) AS stable,
			sum(r.2) AS all_volume, sum(r.3) AS all_trades,
			anyIf(price, r.4) AS own_price, anyIf(traders, r.4) AS own_traders, maxIf(enough, r.4) AS own_enough
		FROM (` + perMintSQL(sides) + `)
		ARRAY JOIN [
			(mint, volume, trades, true),
			({usdc:FixedString(32)}, quote_volume[1], quote_trades[1], false),
			({usdt:FixedString(32)}, quote_volume[2], quote_trades[2], false),
			({sol:FixedString(32)}, quote_volume[3], quote_trades[3], false)
		] AS r
		GROUP BY m
	)
	WHERE all_volume > 0 AND (stable OR (own_enough AND isFinite(own_price)))`
}

// solPriceSQL is SOL's price from its swaps with the stablecoins alone,
// by the same rules as every other mint's.
var solPriceSQL = `SELECT price FROM (` + rankedSQL(sidesSQL("nan", solPairs)) + `) WHERE mint = {sol:FixedString(32)}`

// solPairs keeps the legs between SOL and a stablecoin.
const solPairs = `
		AND input_mint IN ({sol:FixedString(32)}, {usdc:FixedString(32)}, {usdt:FixedString(32)})
		AND output_mint IN ({sol:FixedString(32)}, {usdc:FixedString(32)}, {usdt:FixedString(32)})`

// refreshSQL writes the generation: the Top mints by volume, ranked.
var refreshSQL = `INSERT INTO token_prices
		(refreshed_at, rank, mint, price_usd, volume_24h_usd, swaps, traders, window_end)
	SELECT fromUnixTimestamp64Milli({refreshed:Int64}, 'UTC'),
		toUInt32(row_number() OVER (ORDER BY volume DESC, mint)),
		mint, price, volume, trades, traders, toDateTime({end:Int64}, 'UTC')
	FROM (` + rankedSQL(sidesSQL("{sol_usd:Float64}", "")) + `
		ORDER BY volume DESC, mint
		LIMIT {top:UInt32})`

package prices_test

import (
	"context"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/prices"
	"github.com/dasch-labs/dasch/store"
)

func TestMain(m *testing.M) {
	code := m.Run()
	storetest.Close()
	os.Exit(code)
}

// t0 is the synthetic series' newest block time.
const t0 = 1_700_000_000

// swap is one token_swaps row of a synthetic series; amounts in whole
// tokens, scaled by the decimals of the mint.
type swap struct {
	age     int64 // seconds before t0
	leg     uint16
	sig     string
	user    byte
	in, out solana.Pubkey
	inAmt   float64
	outAmt  float64
}

var decimals = map[solana.Pubkey]uint8{prices.USDC: 6, prices.USDT: 6, prices.SOL: 9}

func mint(b byte) solana.Pubkey {
	var k solana.Pubkey
	k[0], k[31] = 0xee, b
	return k
}

func dec(m solana.Pubkey) uint8 {
	if d, ok := decimals[m]; ok {
		return d
	}
	return 6
}

// insert writes the swaps, one slot each in order of age.
func insert(t *testing.T, s store.Execer, swaps []swap) {
	t.Helper()
	var b strings.Builder
	b.WriteString(`INSERT INTO token_swaps (slot, tx_index, signature, leg, block_time, protocol, program_id, user,
		input_mint, output_mint, in_amount, out_amount, input_decimals, output_decimals) VALUES `)
	for i, w := range swaps {
		if i > 0 {
			b.WriteByte(',')
		}
		sig := w.sig
		if sig == "" {
			sig = fmt.Sprintf("s%d", i)
		}
		in := uint64(math.Round(w.inAmt * math.Pow10(int(dec(w.in)))))
		out := uint64(math.Round(w.outAmt * math.Pow10(int(dec(w.out)))))
		fmt.Fprintf(&b, "(%d, 0, '%s', %d, %d, 'test', '', unhex('%02x'), unhex('%s'), unhex('%s'), %d, %d, %d, %d)",
			t0-w.age, sig, w.leg, t0-w.age, w.user, hex.EncodeToString(w.in[:]), hex.EncodeToString(w.out[:]),
			in, out, dec(w.in), dec(w.out))
	}
	if err := s.Exec(context.Background(), b.String(), nil); err != nil {
		t.Fatal(err)
	}
}

// trades are n trades of mint against quote at price (quote per mint),
// sells and buys in turn, each of quoteAmt of quote, from three users
// in turn, a minute apart from age on.
func trades(n int, m, quote solana.Pubkey, price, quoteAmt float64, age int64) []swap {
	out := make([]swap, n)
	for i := range out {
		out[i] = swap{age: age + int64(i)*60, user: byte(i % 3), in: m, out: quote, inAmt: quoteAmt / price, outAmt: quoteAmt}
		if i%2 == 1 { // buys as well as sells
			out[i].in, out[i].out, out[i].inAmt, out[i].outAmt = quote, m, quoteAmt, quoteAmt/price
		}
	}
	return out
}

func TestRefresh(t *testing.T) {
	s := storetest.Open(t)
	ctx := context.Background()
	var (
		direct, viaSOL, dusty, washed, thin, lonely, recent, routed, usdt = mint(1), mint(2), mint(3), mint(4), mint(5), mint(6), mint(7), mint(8), mint(9)
	)
	var series []swap
	add := func(w ...swap) { series = append(series, w...) }
	// SOL at 150 against USDC and USDT.
	add(trades(6, prices.SOL, prices.USDC, 150, 300, 100)...)
	add(trades(4, prices.SOL, prices.USDT, 150, 300, 130)...)
	add(trades(6, direct, prices.USDC, 2, 100, 200)...)
	// 0.01 SOL a token: 1.5 dollars.
	add(trades(6, viaSOL, prices.SOL, 0.01, 2, 300)...)
	// A dust trade at twice the price: it would move the average.
	add(trades(6, dusty, prices.USDC, 2, 100, 400)...)
	add(swap{age: 50, user: 7, in: dusty, out: prices.USDC, inAmt: 0.1, outAmt: 0.4})
	// A wash trade at fifty times the price, a million dollars of it.
	add(trades(6, washed, prices.USDC, 2, 100, 500)...)
	add(swap{age: 60, user: 8, in: washed, out: prices.USDC, inAmt: 10_000, outAmt: 1_000_000})
	add(trades(3, thin, prices.USDC, 2, 100, 600)...)
	lone := trades(6, lonely, prices.USDC, 2, 100, 700)
	for i := range lone {
		lone[i].user = 9
	}
	add(lone...)
	// Old trades at 2, the last hour's at 3: the last hour prices it.
	add(trades(6, recent, prices.USDC, 2, 100, 20*3600)...)
	add(trades(6, recent, prices.USDC, 3, 100, 800)...)
	// Routed through SOL: leg 0 (routed for USDC at 4) is left out, its
	// legs (routed for SOL at 0.02, SOL for USDC at 150: 3) count.
	for i := 0; i < 6; i++ {
		sig := fmt.Sprintf("route%d", i)
		age := int64(900 + i*60)
		add(swap{age: age, sig: sig, leg: 0, user: byte(i % 3), in: routed, out: prices.USDC, inAmt: 100, outAmt: 400},
			swap{age: age, sig: sig, leg: 1, user: byte(i % 3), in: routed, out: prices.SOL, inAmt: 100, outAmt: 2},
			swap{age: age, sig: sig, leg: 2, user: byte(i % 3), in: prices.SOL, out: prices.USDC, inAmt: 2, outAmt: 300})
	}
	// Outside the window: not seen at all.
	add(trades(6, usdt, prices.USDC, 5, 100, 25*3600)...)
	insert(t, s, series)

	var c prices.Cache
	g, err := c.RefreshOnce(ctx, s, time.Now(), prices.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if g.WindowEnd.Unix() != t0-50 || math.Abs(g.SOL-150) > 1e-9 {
		t.Fatalf("generation %+v, want window end %d and SOL at 150", g, t0-50)
	}
	tests := []struct {
		name   string
		mint   solana.Pubkey
		price  float64 // 0: none
		volume float64
		swaps  uint64
	}{
		{"direct USDC pair", direct, 2, 600, 6},
		{"through SOL", viaSOL, 1.5, 6 * 300, 6},
		{"dust trade left out", dusty, 2, 600, 6},
		{"wash trade left out", washed, 2, 600, 6},
		{"fewer trades than the minimum", thin, 0, 0, 0},
		{"one trader", lonely, 0, 0, 0},
		{"last hour prices", recent, 3, 1200, 12},
		{"route by its legs", routed, 3, 6 * 300, 6},
		{"outside the window", usdt, 0, 0, 0},
		// SOL: its stablecoin trades, the route legs, the via-SOL token.
		{"SOL", prices.SOL, 150, 10*300 + 6*300 + 6*300 + 6*300, 28},
		{"USDT at a dollar", prices.USDT, 1, 4 * 300, 4},
		// Every kept trade against USDC, the thin mint's too; not the
		// wash trade, nor the dust.
		{"USDC without the outliers", prices.USDC, 1, 6*300 + 600 + 600 + 600 + 300 + 600 + 1200 + 6*300, 51},
	}
	m, err := prices.Load(ctx, s, g.RefreshedAt, 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, ok := m[tc.mint]
			cp, cok := c.Price(tc.mint)
			if ok != cok || cp != p.USD {
				t.Errorf("cache %v %v, table %v %v", cp, cok, p.USD, ok)
			}
			if tc.price == 0 {
				if ok {
					t.Errorf("priced %+v, want none", p)
				}
				return
			}
			if !ok {
				t.Fatalf("no price, want %v", tc.price)
			}
			if math.Abs(p.USD-tc.price) > 1e-6*tc.price || math.Abs(p.Volume24h-tc.volume) > 1e-6 || p.Swaps != tc.swaps {
				t.Errorf("got %+v, want price %v volume %v swaps %d", p, tc.price, tc.volume, tc.swaps)
			}
		})
	}
	// Ranks follow volume: SOL first, then USDC.
	if m[prices.SOL].Rank != 1 || m[prices.USDC].Rank != 2 {
		t.Errorf("ranks SOL %d USDC %d, want 1 and 2", m[prices.SOL].Rank, m[prices.USDC].Rank)
	}
}

// TestRefreshTop keeps the top mints by volume only, ranked.
func TestRefreshTop(t *testing.T) {
	s := storetest.Open(t)
	ctx := context.Background()
	var series []swap
	for i := 1; i <= 5; i++ {
		series = append(series, trades(6, mint(byte(i)), prices.USDC, 2, float64(10*i), int64(100*i))...)
	}
	insert(t, s, series)
	o := prices.DefaultOptions()
	o.Top = 3
	var c prices.Cache
	g, err := c.RefreshOnce(ctx, s, time.Now(), o)
	if err != nil {
		t.Fatal(err)
	}
	m, err := prices.Load(ctx, s, g.RefreshedAt, 100)
	if err != nil {
		t.Fatal(err)
	}
	// USDC's volume is every trade's: it ranks first.
	want := map[solana.Pubkey]uint32{prices.USDC: 1, mint(5): 2, mint(4): 3}
	if len(m) != len(want) {
		t.Fatalf("%d mints, want %d: %v", len(m), len(want), m)
	}
	for k, r := range want {
		if m[k].Rank != r {
			t.Errorf("%s rank %d, want %d", k, m[k].Rank, r)
		}
	}
	if n, _ := c.Len(); n != 3 {
		t.Errorf("cache holds %d, want 3", n)
	}
	// A reader that cannot write finds the same generation.
	ng, nm, err := prices.LoadNewest(ctx, s, 100)
	if err != nil || !ng.RefreshedAt.Equal(g.RefreshedAt) || len(nm) != len(m) || nm[mint(5)] != m[mint(5)] {
		t.Errorf("newest generation %+v (%d mints, %v), want %+v (%d mints)", ng, len(nm), err, g, len(m))
	}
}

// TestRefreshEmpty: no swaps, no prices and no error.
func TestRefreshEmpty(t *testing.T) {
	s := storetest.Open(t)
	var c prices.Cache
	g, err := c.RefreshOnce(context.Background(), s, time.Unix(t0, 0), prices.DefaultOptions())
	if err != nil || !g.WindowEnd.IsZero() {
		t.Fatalf("%+v %v", g, err)
	}
	if _, ok := c.Price(prices.USDC); ok {
		t.Error("USDC priced with no swaps")
	}
	if g, m, err := prices.LoadNewest(context.Background(), s, 10); err != nil || len(m) != 0 || !g.RefreshedAt.IsZero() {
		t.Errorf("newest of none: %+v %v %v", g, m, err)
	}
}

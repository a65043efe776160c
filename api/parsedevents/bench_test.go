package parsedevents_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/api/parsedevents"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/internal/storetest"
)

// benchTxs is the history of the benchmark address: four transactions a
// slot, with as many of other addresses around it.
const benchTxs = 1_000_000

// BenchmarkHistory reads a page of 100 of an address with a million
// transactions at several depths, through the handler; p99-ms is the
// 99th percentile page time.
func BenchmarkHistory(b *testing.B) {
	ctx := context.Background()
	s := storetest.Open(b)
	addr := solana.Pubkey{7, 7, 7}
	for _, stmt := range []string{
		// The address, then a neighbour on each side of it in the key.
		fmt.Sprintf(`INSERT INTO address_transactions (address, slot, tx_index, signature, block_time)
			SELECT toFixedString(unhex(%s), 32), intDiv(number, 4), number %% 4,
				toFixedString(concat(reinterpretAsFixedString(number), repeat('s', 56)), 64), 1700000000 + intDiv(number, 10)
			FROM numbers(%d)`, quoteHex(addr), benchTxs),
		fmt.Sprintf(`INSERT INTO address_transactions (address, slot, tx_index, signature, block_time)
			SELECT toFixedString(unhex(if(number %% 2 = 0, '%s', '%s')), 32), intDiv(number, 4), number %% 4,
				toFixedString(concat(reinterpretAsFixedString(number), repeat('o', 56)), 64), 1700000000
			FROM numbers(%d)`, hexOf(solana.Pubkey{7, 7, 6}), hexOf(solana.Pubkey{7, 7, 8}), benchTxs),
		fmt.Sprintf(`INSERT INTO parsed_transactions (signature, slot, tx_index, block_time, failed, parsed)
			SELECT toFixedString(concat(reinterpretAsFixedString(number), repeat('s', 56)), 64), intDiv(number, 4), number %% 4,
				1700000000 + intDiv(number, 10), false, concat('{"slot":', toString(intDiv(number, 4)), ',"type":"UNKNOWN","instructions":[]}')
			FROM numbers(%d)`, benchTxs),
		`OPTIMIZE TABLE address_transactions FINAL`,
		`OPTIMIZE TABLE parsed_transactions FINAL`,
	} {
		if err := s.Exec(ctx, stmt, nil); err != nil {
			b.Fatalf("%s: %v", stmt, err)
		}
	}
	h := parsedevents.History(s, checkpoint.NewSlotCache(s, 0))
	for _, depth := range []int{0, benchTxs / 2, benchTxs - 100} {
		for _, order := range []string{"desc", "asc"} {
			b.Run(fmt.Sprintf("depth=%d/%s", depth, order), func(b *testing.B) {
				// The token of the item before the page, in the order.
				pos := depth - 1
				if order == "desc" {
					pos = benchTxs - depth
				}
				body := fmt.Sprintf(`{"address":%q,"limit":100,"sortOrder":%q`, addr.String(), order)
				if depth > 0 {
					body += fmt.Sprintf(`,"paginationToken":"%d:%d"`, pos/4, pos%4)
				}
				body += "}"
				var times []time.Duration
				for b.Loop() {
					start := time.Now()
					out, err := h(ctx, "p", []byte(body))
					if err != nil {
						b.Fatal(err)
					}
					times = append(times, time.Since(start))
					if n := strings.Count(string(out), `"type"`); n != 100 {
						b.Fatalf("%d items", n)
					}
				}
				b.ReportMetric(p99(times), "p99-ms")
			})
		}
	}
	t := parsedevents.Transactions(s, checkpoint.NewSlotCache(s, 0))
	b.Run("transactions=100", func(b *testing.B) {
		sigs := make([]string, 100)
		for i := range sigs {
			var sig solana.Signature
			n := uint64(i * 9973)
			for k := range 8 {
				sig[k] = byte(n >> (8 * k))
			}
			copy(sig[8:], strings.Repeat("s", 56))
			sigs[i] = `"` + sig.String() + `"`
		}
		body := []byte(`{"transactions":[` + strings.Join(sigs, ",") + `]}`)
		var times []time.Duration
		for b.Loop() {
			start := time.Now()
			out, err := t(ctx, "p", body)
			if err != nil {
				b.Fatal(err)
			}
			times = append(times, time.Since(start))
			if n := strings.Count(string(out), `"parserStatus":"OK"`); n != 100 {
				b.Fatalf("%d found", n)
			}
		}
		b.ReportMetric(p99(times), "p99-ms")
	})
}

func p99(ts []time.Duration) float64 {
	if len(ts) == 0 {
		return 0
	}
	slices.Sort(ts)
	return float64(ts[len(ts)*99/100].Microseconds()) / 1000
}

func hexOf(k solana.Pubkey) string { return fmt.Sprintf("%X", k[:]) }

func quoteHex(k solana.Pubkey) string { return "'" + hexOf(k) + "'" }

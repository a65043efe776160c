package parsedtx_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/ingest/decoders"
	"github.com/dasch-labs/dasch/ingest/source"
	"github.com/dasch-labs/dasch/internal/storetest"
)

const swapFixtures = "../../chain/parsed/testdata/swaps"

// TestIngestSwaps runs real swap fixtures through ingest: each
// transaction files the swap its user made as leg 0 and a route its pool
// swaps after it, the columns keeping the migration's meaning (raw
// amounts, the mints' decimals, SOL as the wrapped SOL mint); a failed
// swap files nothing.
func TestIngestSwaps(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	// In slot order: a file list must not go back in slots.
	var files []string
	for _, sig := range []string{
		"2pfnv4drhnitfzCFKxiRoJMzFQpG7wZ9mpRQVk7xm5TQ27g6FZH95HVF6KgwQBS872yGtyhuq57jXXS1y29ub11",  // a Jupiter route
		"43VK3TtYjN21VG13f2EPvNJxmML38GB8QbTDVtFifzeDW3LQpmLtFdLjERAKwy3k4RUe4Hizmdrj4Nyjm5vYKDBx", // failed: no row
		"5bvyp1nob51M6FCjCeZd68AjXFWJJEvdqkHu9ZCeRt6sMz5wpUiTi3LPBEuonUHuVg8LwzSnx5MX2RFGSv6Mb36v",
		"2zNeSn8cJpTAW51NR8ZUHEXc5wVwerumVEk4iJFyAYdTHMjy49wumkZvWLkaeB8CD5YmjuJ3AjcbrBYBzAVKdEdD",
		"2cd7QQSByKy6Y6eddUmQzVwZp5hfrbyhz4osnsf9gmi2EhoScvBoCs5hgJ8WpADH7zhxtQqUcCwBok49KWJ4iJPw",
	} {
		files = append(files, filepath.Join(swapFixtures, sig+".json"))
	}
	cfg := ingest.Config{Store: s, Source: source.NewFileList(files)}
	if err := decoders.Configure(ctx, s, &cfg, decoders.Options{}); err != nil {
		t.Fatal(err)
	}
	for range 2 { // a second run changes nothing
		if _, err := ingest.Run(ctx, cfg); err != nil {
			t.Fatal(err)
		}
	}
	res, err := s.Query(ctx, `SELECT slot, leg, protocol, base58Encode(program_id), base58Encode(user),
		base58Encode(input_mint), base58Encode(output_mint), in_amount, out_amount, input_decimals, output_decimals,
		base58Encode(signature), block_time > 0
		FROM token_swaps FINAL ORDER BY slot, tx_index, signature, leg`, nil)
	if err != nil {
		t.Fatal(err)
	}
	const sol = "So11111111111111111111111111111111111111112"
	const user = "DtMUkCoeyzs35B6EpQQxPyyog6TRwXxV1W1Acp8nWBNa"
	const usdc, cobie = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "HaMv3cdfDW6357yjpDur6kb6w52BUPJrMJpR76tjpump"
	want := [][]any{
		{uint64(322982554), uint16(0), "JUPITER", "JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4", user, usdc, cobie, uint64(10000), uint64(2583728601), uint8(6), uint8(6)},
		{uint64(322982554), uint16(1), "METEORA", "LBUZKhRxPF3XUpBCjp4YzTKgLccjZhTSDM9YuVaPwxo", user, usdc, sol, uint64(10000), uint64(73111), uint8(6), uint8(9)},
		{uint64(322982554), uint16(2), "PUMP_FUN", "6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P", user, sol, cobie, uint64(73111), uint64(2583728601), uint8(9), uint8(6)},
		{uint64(376243586), uint16(0), "PUMP_AMM", "pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA", "95rVs91daKmzom4SM41dg4MRmy5M7rMEHPerenZwWaCq",
			"EWV6bjhKF5zkXANCdWPvDs7dofRVk4pKyVTitqgEWj8E", sol, uint64(468934276696458), uint64(201692493), uint8(9), uint8(9)},
		{uint64(376396640), uint16(0), "PUMP_AMM", "pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA", "G2341KGbNxuSAfCfqNuPhfLQtPB94hPfgyVPC89Faor4",
			sol, "8k1DvnFBsbuWJw2t4JqTibR7cAgqadMveqiykMr1pump", uint64(3682999), uint64(4374143343), uint8(9), uint8(6)},
		{uint64(376411673), uint16(0), "RAYDIUM", "CAMMCzo5YL8w4VFF8KVHrK22GGUsp5VTaW7grrKgrWqK", "98QXkwe6DThTsTq7tukKF4g9Wc6WnRbZyTBZ1iBupY39",
			sol, "7eR1yv7pUzhaqQneKJ2fmVTRuzY61ja5KwfbBrLsq1Gu", uint64(300000000), uint64(807769528641), uint8(9), uint8(6)},
	}
	if len(res.Rows) != len(want) {
		t.Fatalf("%d token_swaps rows, want %d: %v", len(res.Rows), len(want), res.Rows)
	}
	for i, w := range want {
		got := res.Rows[i]
		for j := range w {
			if fmt.Sprint(got[j]) != fmt.Sprint(w[j]) {
				t.Errorf("row %d column %d: %v, want %v", i, j, got[j], w[j])
			}
		}
		if _, err := solana.ParseSignature(got[11].(string)); err != nil {
			t.Errorf("row %d signature %v: %v", i, got[11], err)
		}
		if got[12] != true && fmt.Sprint(got[12]) != "1" {
			t.Errorf("row %d has no block time", i)
		}
	}

	// The analyst queries of docs/schema.md run on it.
	vol, err := s.Query(ctx, `SELECT toDate(fromUnixTimestamp(block_time)) AS day, base58Encode(mint) AS mint,
		sum(amount) AS volume, count() AS swaps
		FROM (SELECT block_time, input_mint AS mint, in_amount / pow(10, input_decimals) AS amount
		      FROM token_swaps FINAL WHERE leg = 0
		      UNION ALL
		      SELECT block_time, output_mint, out_amount / pow(10, output_decimals)
		      FROM token_swaps FINAL WHERE leg = 0)
		GROUP BY day, mint ORDER BY day DESC, volume DESC LIMIT 20`, nil)
	if err != nil {
		t.Fatal(err)
	}
	solSwaps := 0
	for _, r := range vol.Rows {
		if r[1] == sol {
			solSwaps += int(r[3].(uint64))
		}
	}
	if len(vol.Rows) != 6 || solSwaps != 3 {
		t.Errorf("volume per mint per day: %v", vol.Rows)
	}
	mine, err := s.Query(ctx, `SELECT slot, base58Encode(signature) AS signature, protocol,
		base58Encode(input_mint) AS sold, in_amount / pow(10, input_decimals) AS sold_amount,
		base58Encode(output_mint) AS bought, out_amount / pow(10, output_decimals) AS bought_amount
		FROM token_swaps FINAL
		WHERE leg = 0 AND user = base58Decode('G2341KGbNxuSAfCfqNuPhfLQtPB94hPfgyVPC89Faor4')
		ORDER BY slot DESC, tx_index DESC LIMIT 20`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(mine.Rows) != 1 || mine.Rows[0][5] != "8k1DvnFBsbuWJw2t4JqTibR7cAgqadMveqiykMr1pump" || fmt.Sprint(mine.Rows[0][4]) != "0.003682999" {
		t.Errorf("swaps of a user: %v", mine.Rows)
	}
}

package das

import (
	"context"
	"encoding/hex"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/prices"
	"github.com/dasch-labs/dasch/server"
)

// pricedEnv is a server whose prices come from a refresh over six
// swaps of the corpus fungible for USDC at 2 dollars a token.
func pricedEnv(t *testing.T) (*env, float64) {
	t.Helper()
	cache := &prices.Cache{}
	e := newEnvWith(t, server.Config{}, func(d *Deps) { d.Prices = cache })
	e.index(
		"accounts/search_asset_with_token_type_fungible/7EYnhQoR9YM3N7UoaKRoA44Uy8JeaZV3qyouov87awMs.json",
		"accounts/search_asset_with_token_type_fungible/7BajpcYgnxmWK91RhrfsdB3Tm83PcDwPvMC8ZinvtTY6.json",
		"accounts/search_asset_with_token_type_fungible/6BRNfDfdq1nKyU1TQiCEQLWyPtD8EwUH9Kt2ahsbidUx.json",
		"accounts/account_updates/843gdpsTE4DoJz3ZoBsEjAqT8UgAcyF5YojygGgGZE1f.json",
		"accounts/account_updates/6cQEeDKhobxxsvPKcAsdHZbDrPgQtEpo8PFzayDu5Gi5.json",
		"accounts/account_updates/DPBEGb2DajfkannVZ6J4NxRY2ovz1yn1j36i1WVdZVpW.json",
	)
	mint := solana.MustParsePubkey(pricedMint)
	now := time.Now().Unix()
	var b strings.Builder
	b.WriteString(`INSERT INTO token_swaps (slot, tx_index, signature, leg, block_time, protocol, program_id, user,
		input_mint, output_mint, in_amount, out_amount, input_decimals, output_decimals) VALUES `)
	for i := 0; i < 6; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		// 50 tokens (6 decimals) for 100 USDC.
		fmt.Fprintf(&b, "(%d, 0, 's%d', 0, %d, 'test', '', unhex('%02x'), unhex('%s'), unhex('%s'), 50000000, 100000000, 6, 6)",
			100-i, i, now-int64(60*i), i%3, hex.EncodeToString(mint[:]), hex.EncodeToString(prices.USDC[:]))
	}
	ctx := context.Background()
	if err := e.s.Exec(ctx, b.String(), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := cache.RefreshOnce(ctx, e.s, time.Now(), prices.DefaultOptions()); err != nil {
		t.Fatal(err)
	}
	return e, 2
}

const pricedMint = "7EYnhQoR9YM3N7UoaKRoA44Uy8JeaZV3qyouov87awMs"

type pricedAsset struct {
	ID        string `json:"id"`
	TokenInfo *struct {
		Decimals  uint8   `json:"decimals"`
		Balance   *uint64 `json:"balance"`
		PriceInfo *struct {
			PricePerToken float64  `json:"price_per_token"`
			TotalPrice    *float64 `json:"total_price"`
			Currency      string   `json:"currency"`
		} `json:"price_info"`
	} `json:"token_info"`
}

// TestPriceInfo: getAsset and getAssetBatch of the priced fungible
// show price_info (no total_price: no balance is shown), an NFT with
// token_info and no price shows none, and without showFungible no
// token_info is shown at all.
func TestPriceInfo(t *testing.T) {
	e, price := pricedEnv(t)
	const nft = "843gdpsTE4DoJz3ZoBsEjAqT8UgAcyF5YojygGgGZE1f"
	check := func(what string, a pricedAsset, priced bool) {
		t.Helper()
		switch {
		case a.TokenInfo == nil:
			t.Errorf("%s: no token_info", what)
		case !priced && a.TokenInfo.PriceInfo != nil:
			t.Errorf("%s: price_info %+v, want none", what, *a.TokenInfo.PriceInfo)
		case !priced:
		case a.TokenInfo.PriceInfo == nil:
			t.Errorf("%s: no price_info", what)
		default:
			p := a.TokenInfo.PriceInfo
			if math.Abs(p.PricePerToken-price) > 1e-9 || p.Currency != "USDC" || p.TotalPrice != nil {
				t.Errorf("%s: price_info %+v, want %v USDC and no total", what, *p, price)
			}
		}
	}
	for _, tc := range []struct {
		id     string
		priced bool
	}{{pricedMint, true}, {nft, false}} {
		a := e.call("getAsset", `{"id":"`+tc.id+`","options":{"showFungible":true}}`)
		var got pricedAsset
		if err := json.Unmarshal(a.Result, &got); err != nil || a.Error != nil {
			t.Fatalf("%s: %s %+v %v", tc.id, a.Result, a.Error, err)
		}
		check("getAsset "+tc.id, got, tc.priced)
	}
	a := e.call("getAssetBatch", `{"ids":["`+nft+`","`+pricedMint+`"],"displayOptions":{"showFungible":true}}`)
	var batch []pricedAsset
	if err := json.Unmarshal(a.Result, &batch); err != nil || len(batch) != 2 {
		t.Fatalf("batch: %s %v", a.Result, err)
	}
	check("batch[0]", batch[0], false)
	check("batch[1]", batch[1], true)
	a = e.call("getAsset", `{"id":"`+pricedMint+`"}`)
	if strings.Contains(string(a.Result), "price_info") || strings.Contains(string(a.Result), "token_info") {
		t.Errorf("without showFungible: %s, want no token_info", a.Result)
	}
}

// TestPriceInfoListing: getAssetsByOwner with showFungible shows the
// owner's balance and total_price = balance in whole tokens × price.
func TestPriceInfoListing(t *testing.T) {
	e, price := pricedEnv(t)
	const owner = "2oerfxddTpK5hWAmCMYB6fr9WvNrjEH54CHCWK8sAq7g"
	a := e.call("getAssetsByOwner", `{"ownerAddress":"`+owner+`","options":{"showFungible":true}}`)
	var got struct {
		Items []pricedAsset `json:"items"`
	}
	if err := json.Unmarshal(a.Result, &got); err != nil || a.Error != nil {
		t.Fatalf("%s %+v %v", a.Result, a.Error, err)
	}
	if len(got.Items) != 1 || got.Items[0].TokenInfo == nil {
		t.Fatalf("%s, want the fungible alone", a.Result)
	}
	ti := got.Items[0].TokenInfo
	if ti.Balance == nil || *ti.Balance == 0 || ti.PriceInfo == nil || ti.PriceInfo.TotalPrice == nil {
		t.Fatalf("token_info %s, want a balance and its total price", a.Result)
	}
	want := float64(*ti.Balance) / math.Pow10(int(ti.Decimals)) * price
	if math.Abs(*ti.PriceInfo.TotalPrice-want) > 1e-9*want || ti.PriceInfo.PricePerToken != price {
		t.Errorf("price_info %+v, want %v a token and %v in all", *ti.PriceInfo, price, want)
	}
}

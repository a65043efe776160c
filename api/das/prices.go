package das

import (
	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/chain/solana"
)

// PriceSource answers a mint's dollar price per whole token, for
// token_info.price_info (prices.Cache).
type PriceSource interface {
	Price(mint solana.Pubkey) (float64, bool)
}

// price returns id's price when answers with opts show one: with
// showFungible, for a mint the source prices.
func (d Deps) price(id solana.Pubkey, opts asset.Options) (float64, bool) {
	if d.Prices == nil || !opts.ShowFungible {
		return 0, false
	}
	return d.Prices.Price(id)
}

// priceResults adds price_info to the token_info of each result of ids
// that has one and a price. The documents are edited, not decoded.
func (d Deps) priceResults(ids []solana.Pubkey, rs []asset.Result, opts asset.Options) {
	for i, r := range rs {
		if r.Err != nil {
			continue
		}
		p, ok := d.price(ids[i], opts)
		if !ok {
			continue
		}
		switch {
		case r.JSON != nil:
			out, err := asset.WithPrice(make([]byte, 0, len(r.JSON)+80), r.JSON, p)
			if err != nil {
				d.Logger.Warn("price info left out", "asset", ids[i], "err", err)
				continue
			}
			rs[i].JSON = out
		case r.Asset != nil:
			rs[i].Asset = asset.WithPriceInfo(r.Asset, p)
		}
	}
}

// priceItems adds price_info to the token_info of each answer of a
// list page (ids[i] is items[i]'s), after its holdings: total_price is
// the balance's worth where the item shows one.
func (d Deps) priceItems(ids []solana.Pubkey, items []json.RawMessage, opts asset.Options) {
	for i, it := range items {
		p, ok := d.price(ids[i], opts)
		if !ok {
			continue
		}
		out, err := asset.WithPrice(make([]byte, 0, len(it)+120), it, p)
		if err != nil {
			d.Logger.Warn("price info left out", "asset", ids[i], "err", err)
			continue
		}
		items[i] = out
	}
}

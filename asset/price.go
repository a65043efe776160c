package asset

import (
	"fmt"
	"math"
	"strconv"

	"github.com/goccy/go-json"
)

// CurrencyUSDC is price_info.currency: prices are in dollars, as
// Helius names them.
const CurrencyUSDC = "USDC"

// PriceInfo is token_info.price_info: the dollar price of one whole
// token and, where the answer shows a balance, the balance's worth.
type PriceInfo struct {
	PricePerToken float64  `json:"price_per_token"`
	TotalPrice    *float64 `json:"total_price,omitempty"`
	Currency      string   `json:"currency"`
}

// NewPriceInfo is the price_info of a token of decimals at price, with
// the worth of balance when there is one.
func NewPriceInfo(price float64, decimals uint8, balance *uint64) *PriceInfo {
	p := &PriceInfo{PricePerToken: price, Currency: CurrencyUSDC}
	if balance != nil {
		total := float64(*balance) / math.Pow10(int(decimals)) * price
		p.TotalPrice = &total
	}
	return p
}

// WithPriceInfo returns a with token_info.price_info at price; a itself
// is left as it is (it may be shared). An asset without token_info is
// returned as it is.
func WithPriceInfo(a *Asset, price float64) *Asset {
	if a == nil || a.TokenInfo == nil {
		return a
	}
	v, ti := *a, *a.TokenInfo
	ti.PriceInfo = NewPriceInfo(price, ti.Decimals, ti.Balance)
	v.TokenInfo = &ti
	return &v
}

// WithPrice appends to dst the asset JSON doc with token_info.price_info
// at price, as WithPriceInfo gives it encoded: the document's bytes are
// edited, not decoded (as ViewJSON). A document without token_info is
// copied as it is. doc must be compact JSON.
func WithPrice(dst, doc []byte, price float64) ([]byte, error) {
	v := jsonView{doc: doc, out: dst}
	err := v.object(func(key []byte, start, _ int) (bool, error) {
		if string(key) != "token_info" {
			return false, nil
		}
		v.out = append(v.out, `"token_info":`...)
		return true, v.tokenInfo(start, price)
	})
	if err != nil {
		return dst, fmt.Errorf("asset document: %w", err)
	}
	return v.out, nil
}

// tokenInfo copies the token_info object at start, reading its balance
// and decimals, and adds price_info last, where the struct encodes it
// (one already there is replaced).
func (v *jsonView) tokenInfo(start int, price float64) error {
	var (
		balance  *uint64
		decimals uint8
	)
	v.pos = start
	err := v.object(func(key []byte, s, e int) (bool, error) {
		switch string(key) {
		case "balance":
			b, err := strconv.ParseUint(string(v.doc[s:e]), 10, 64)
			if err != nil {
				return false, fmt.Errorf("token_info.balance: %w", err)
			}
			balance = &b
		case "decimals":
			d, err := strconv.ParseUint(string(v.doc[s:e]), 10, 8)
			if err != nil {
				return false, fmt.Errorf("token_info.decimals: %w", err)
			}
			decimals = uint8(d)
		case "price_info":
			return true, nil
		}
		return false, nil
	})
	if err != nil {
		return fmt.Errorf("token_info: %w", err)
	}
	enc, err := json.Marshal(NewPriceInfo(price, decimals, balance))
	if err != nil {
		return err
	}
	v.out = v.out[:len(v.out)-1] // the closing brace, written again below
	if v.out[len(v.out)-1] != '{' {
		v.out = append(v.out, ',')
	}
	v.out = append(append(append(v.out, `"price_info":`...), enc...), '}')
	return nil
}

package parsed

import (
	"math/big"
	"strconv"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/chain/solana"
)

// rawMeta is the part of the meta the canonical Tx does not carry.
type rawMeta struct {
	Meta *struct {
		PreBalances       []solana.U64       `json:"preBalances"`
		PostBalances      []solana.U64       `json:"postBalances"`
		PreTokenBalances  []tokenBalanceJSON `json:"preTokenBalances"`
		PostTokenBalances []tokenBalanceJSON `json:"postTokenBalances"`
	} `json:"meta"`
}

type tokenBalanceJSON struct {
	AccountIndex  int    `json:"accountIndex"`
	Mint          string `json:"mint"`
	Owner         string `json:"owner"`
	ProgramID     string `json:"programId"`
	UITokenAmount struct {
		Amount   string `json:"amount"`
		Decimals int    `json:"decimals"`
	} `json:"uiTokenAmount"`
}

// tokenBalance is one token account's balance before or after.
type tokenBalance struct {
	mint, owner string
	amount      *big.Int
	decimals    int
}

// balances are the lamports of every key before and after (nil when not
// one per key) and the token balances by key index.
type balances struct {
	pre, post       []uint64
	preTok, postTok map[int]tokenBalance
	tokenOrder      []int // key indexes with a token balance, first seen first
}

func readBalances(tx *solana.Tx) *balances {
	b := &balances{preTok: map[int]tokenBalance{}, postTok: map[int]tokenBalance{}}
	n := len(tx.AccountKeys)
	if len(tx.PostBalances) == n {
		b.post = tx.PostBalances
	}
	var m rawMeta
	if len(tx.Raw) == 0 || json.Unmarshal(tx.Raw, &m) != nil || m.Meta == nil {
		return b
	}
	if len(m.Meta.PreBalances) == n && len(m.Meta.PostBalances) == n {
		b.pre = make([]uint64, n)
		b.post = make([]uint64, n)
		for i := range n {
			b.pre[i] = uint64(m.Meta.PreBalances[i])
			b.post[i] = uint64(m.Meta.PostBalances[i])
		}
	}
	seen := map[int]bool{}
	for _, set := range []struct {
		in  []tokenBalanceJSON
		dst map[int]tokenBalance
	}{{m.Meta.PreTokenBalances, b.preTok}, {m.Meta.PostTokenBalances, b.postTok}} {
		for _, tb := range set.in {
			if tb.AccountIndex < 0 || tb.AccountIndex >= n {
				continue
			}
			amt, ok := new(big.Int).SetString(tb.UITokenAmount.Amount, 10)
			if !ok || amt.Sign() < 0 || tb.UITokenAmount.Decimals < 0 || tb.UITokenAmount.Decimals > 255 {
				continue
			}
			set.dst[tb.AccountIndex] = tokenBalance{mint: tb.Mint, owner: tb.Owner, amount: amt, decimals: tb.UITokenAmount.Decimals}
			if !seen[tb.AccountIndex] {
				seen[tb.AccountIndex] = true
				b.tokenOrder = append(b.tokenOrder, tb.AccountIndex)
			}
		}
	}
	return b
}

// token is what the balances say of token account i, after if known.
func (b *balances) token(i int) (tokenBalance, bool) {
	if t, ok := b.postTok[i]; ok {
		return t, true
	}
	t, ok := b.preTok[i]
	return t, ok
}

// accountData lists every key with its lamport change and the changes of
// the token balances it holds as a token account.
func accountData(tx *solana.Tx, b *balances) []AccountData {
	out := make([]AccountData, len(tx.AccountKeys))
	for i, k := range tx.AccountKeys {
		out[i] = AccountData{Account: k.String(), TokenBalanceChanges: []TokenBalanceChange{}}
		if b.pre != nil {
			out[i].NativeBalanceChange = int64(b.post[i] - b.pre[i])
		}
	}
	for _, i := range b.tokenOrder {
		pre, hasPre := b.preTok[i]
		post, hasPost := b.postTok[i]
		ref := post
		if !hasPost {
			ref = pre
		}
		d := new(big.Int)
		if hasPost {
			d.Set(post.amount)
		}
		if hasPre {
			d.Sub(d, pre.amount)
		}
		if d.Sign() == 0 {
			continue
		}
		out[i].TokenBalanceChanges = append(out[i].TokenBalanceChanges, TokenBalanceChange{
			UserAccount:    ref.owner,
			TokenAccount:   tx.AccountKeys[i].String(),
			Mint:           ref.mint,
			RawTokenAmount: RawTokenAmount{TokenAmount: d.String(), Decimals: ref.decimals},
		})
	}
	return out
}

// uiAmount is raw / 10^decimals as an exact decimal number.
func uiAmount(raw string, decimals int) json.Number {
	neg := len(raw) > 0 && raw[0] == '-'
	if neg {
		raw = raw[1:]
	}
	if _, err := strconv.ParseUint(raw, 10, 64); err != nil {
		if _, ok := new(big.Int).SetString(raw, 10); !ok {
			return "0"
		}
	}
	for len(raw) <= decimals {
		raw = "0" + raw
	}
	whole, frac := raw[:len(raw)-decimals], raw[len(raw)-decimals:]
	for len(frac) > 0 && frac[len(frac)-1] == '0' {
		frac = frac[:len(frac)-1]
	}
	s := whole
	if frac != "" {
		s += "." + frac
	}
	if neg && s != "0" {
		s = "-" + s
	}
	return json.Number(s)
}

// owners are the owners of the token balances, each once, in key order.
func (b *balances) owners() []solana.Pubkey {
	var out []solana.Pubkey
	seen := map[string]bool{}
	for _, i := range b.tokenOrder {
		for _, m := range []map[int]tokenBalance{b.preTok, b.postTok} {
			t, ok := m[i]
			if !ok || t.owner == "" || seen[t.owner] {
				continue
			}
			seen[t.owner] = true
			if k, err := solana.ParsePubkey(t.owner); err == nil {
				out = append(out, k)
			}
		}
	}
	return out
}

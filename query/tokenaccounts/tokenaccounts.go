// Package tokenaccounts reads SPL token accounts as decoded at ingest
// (asset_token_accounts, asset_token_owners): by owner, by mint or both,
// one page at a time in address order.
package tokenaccounts

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/chain/token"
	"github.com/dasch-labs/dasch/query/assetrows"
	"github.com/dasch-labs/dasch/store"
)

// Account is one token account.
type Account struct {
	Address, Mint, Owner    solana.Pubkey
	Amount, DelegatedAmount uint64
	Frozen                  bool
	Delegate, CloseAuth     *solana.Pubkey
	Extensions              string // JSON, "" for none
	Program                 solana.Pubkey
}

// ATA is the associated token account address of owner for a's mint.
func (a Account) ATA(owner solana.Pubkey) solana.Pubkey {
	return token.AssociatedTokenAddress(owner, a.Mint, a.Program)
}

// Query selects accounts: of Owner, of Mint, or both; zero balances only
// with Zero.
type Query struct {
	Owner, Mint *solana.Pubkey
	Zero        bool
}

// Page is Limit accounts, after (Page-1)*Limit when Page is set, else
// those with addresses after After and before Before. ByAmount orders by
// amount, largest first (then address), resuming past Past when set.
type Page struct {
	Limit         int
	Page          int
	Before, After *solana.Pubkey
	ByAmount      bool
	Past          *AmountCursor
}

// AmountCursor is a position in amount order: the last account answered.
type AmountCursor struct {
	Amount  uint64
	Address solana.Pubkey
}

// Encode is c as a cursor string: base58 of the amount (8 bytes, big
// endian) and the address.
func (c AmountCursor) Encode() string {
	var b [40]byte
	binary.BigEndian.PutUint64(b[:8], c.Amount)
	copy(b[8:], c.Address[:])
	return base58.Encode(b[:])
}

// DecodeAmountCursor reverses Encode.
func DecodeAmountCursor(s string) (AmountCursor, error) {
	b, err := base58.Decode(s)
	if err != nil || len(b) != 40 {
		return AmountCursor{}, fmt.Errorf("cursor %q is not an amount cursor", s)
	}
	return AmountCursor{Amount: binary.BigEndian.Uint64(b[:8]), Address: solana.Pubkey(b[8:])}, nil
}

// ErrAmountNeedsMint is an amount order without a mint.
var ErrAmountNeedsMint = errors.New("sortBy amount needs mintAddress")

// ErrNoScope is a query with neither owner nor mint, with the reference's
// text.
var ErrNoScope = errors.New("Either 'ownerAddress' or 'mintAddress' must be provided")

// List returns one page of q's accounts.
func List(ctx context.Context, s store.Querier, q Query, p Page) ([]Account, error) {
	if q.Owner == nil && q.Mint == nil {
		return nil, ErrNoScope
	}
	if p.Limit <= 0 {
		return nil, nil
	}
	params := store.Params{}
	key := func(name string, k solana.Pubkey) string {
		params[name] = string(k[:])
		return "{" + name + ":FixedString(32)}"
	}
	// A closed account's tombstone is no account.
	where := []string{"NOT closed"}
	if q.Owner != nil {
		o := key("owner", *q.Owner)
		// The owner's rows name the candidates; the by-mint table says
		// which are still the owner's.
		in := "SELECT mint, address FROM asset_token_owners FINAL WHERE owner = " + o
		if q.Mint != nil {
			in += " AND mint = " + key("mint", *q.Mint)
		}
		where = append(where, "(mint, address) IN ("+in+")", "owner = "+o)
	}
	if q.Mint != nil {
		where = append(where, "mint = "+key("mint", *q.Mint))
	}
	if !q.Zero {
		where = append(where, "amount > 0")
	}
	if p.Before != nil {
		where = append(where, "address < "+key("before", *p.Before))
	}
	if p.After != nil {
		where = append(where, "address > "+key("after", *p.After))
	}
	order := " ORDER BY address"
	if p.ByAmount {
		if q.Mint == nil {
			return nil, ErrAmountNeedsMint
		}
		order = " ORDER BY amount DESC, address"
		if c := p.Past; c != nil {
			params["past_amount"] = strconv.FormatUint(c.Amount, 10)
			a := "{past_amount:UInt64}"
			where = append(where, "(amount < "+a+" OR (amount = "+a+" AND address > "+key("past", c.Address)+"))")
		}
	}
	sql := `SELECT address, mint, owner, amount, frozen, delegate, delegated_amount, close_authority, extensions, program
		FROM asset_token_accounts FINAL WHERE ` + strings.Join(where, " AND ") + order + " LIMIT " + strconv.Itoa(p.Limit)
	if p.Page > 1 {
		sql += " OFFSET " + strconv.Itoa((p.Page-1)*p.Limit)
	}
	res, err := s.Query(ctx, sql, params)
	if err != nil {
		return nil, fmt.Errorf("list token accounts: %w", err)
	}
	out := make([]Account, 0, len(res.Rows))
	for i := range res.Rows {
		r := res.Row(i)
		a := Account{
			Address: solana.Pubkey(r.Key(0)), Mint: solana.Pubkey(r.Key(1)), Owner: solana.Pubkey(r.Key(2)),
			Amount: r.U64(3), Frozen: r.Bool(4), DelegatedAmount: r.U64(6), Extensions: r.Str(8),
		}
		a.Delegate, a.CloseAuth = optKey(r.OptKey(5)), optKey(r.OptKey(7))
		a.Program = solana.Pubkey(r.Key(9))
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("list token accounts: %w", err)
		}
		out = append(out, a)
	}
	return out, nil
}

func optKey(b [32]byte, ok bool) *solana.Pubkey {
	if !ok {
		return nil
	}
	k := solana.Pubkey(b)
	return &k
}

// Holdings returns owner's token account of each of mints that it holds:
// its associated token account when it has one, else its largest.
func Holdings(ctx context.Context, s store.Querier, owner solana.Pubkey, mints []solana.Pubkey) (map[solana.Pubkey]Account, error) {
	out := map[solana.Pubkey]Account{}
	if len(mints) == 0 {
		return out, nil
	}
	in, params := assetrows.KeyIn("mint", mints)
	params["owner"] = string(owner[:])
	res, err := s.Query(ctx, `SELECT address, mint, amount, program FROM asset_token_accounts FINAL
		WHERE (mint, address) IN (SELECT mint, address FROM asset_token_owners FINAL
			WHERE owner = {owner:FixedString(32)} AND `+in+`)
		AND owner = {owner:FixedString(32)} AND NOT closed`, params)
	if err != nil {
		return nil, fmt.Errorf("read holdings: %w", err)
	}
	for i := range res.Rows {
		r := res.Row(i)
		a := Account{Address: solana.Pubkey(r.Key(0)), Mint: solana.Pubkey(r.Key(1)), Owner: owner,
			Amount: r.U64(2), Program: solana.Pubkey(r.Key(3))}
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("read holdings: %w", err)
		}
		prev, ok := out[a.Mint]
		switch {
		case !ok:
			out[a.Mint] = a
		case prev.Address == prev.ATA(owner):
		case a.Address == a.ATA(owner) || a.Amount > prev.Amount:
			out[a.Mint] = a
		}
	}
	return out, nil
}

package das

import (
	"context"
	"errors"

	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/query/assetlist"
	"github.com/dasch-labs/dasch/query/tokenaccounts"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

type getTokenAccountsParams struct {
	OwnerAddress   *string  `json:"ownerAddress"`
	MintAddress    *string  `json:"mintAddress"`
	Owner          *string  `json:"owner"`
	Mint           *string  `json:"mint"`
	Limit          *uint32  `json:"limit"`
	Page           *uint32  `json:"page"`
	Before         *string  `json:"before"`
	After          *string  `json:"after"`
	Options        *Options `json:"options"`
	Cursor         *string  `json:"cursor"`
	DisplayOptions *Options `json:"displayOptions"`
	SortBy         *struct {
		SortBy        *string `json:"sortBy"`
		SortDirection *string `json:"sortDirection"`
	} `json:"sortBy"`
}

// The reference's order, then Helius's spellings.
var getTokenAccountsFields = []string{"ownerAddress", "mintAddress", "limit", "page", "before",
	"after", "options", "cursor", "displayOptions", "owner", "mint", "sortBy"}

// tokenAccountList is getTokenAccounts' answer. Cursor is the last
// address of a full page read without page/before/after, null on the
// last page.
type tokenAccountList struct {
	LastIndexedSlot uint64         `json:"last_indexed_slot"`
	Total           int            `json:"total"`
	Limit           int            `json:"limit"`
	Page            *int           `json:"page,omitempty"`
	Before          *string        `json:"before,omitempty"`
	After           *string        `json:"after,omitempty"`
	TokenAccounts   []tokenAccount `json:"token_accounts"`
	Cursor          *string        `json:"cursor"`
	Errors          []listError    `json:"errors"`
}

type tokenAccount struct {
	Address         string  `json:"address"`
	Mint            string  `json:"mint"`
	Amount          uint64  `json:"amount"`
	Owner           string  `json:"owner"`
	Frozen          bool    `json:"frozen"`
	Delegate        *string `json:"delegate"`
	DelegatedAmount uint64  `json:"delegated_amount"`
	CloseAuthority  *string `json:"close_authority"`
	Extensions      rawJSON `json:"extensions"`
}

// getTokenAccounts lists SPL token accounts by owner and/or mint, in
// address order.
func getTokenAccounts(d Deps) jsonrpc.Handler {
	return func(ctx context.Context, c *jsonrpc.Call) (any, error) {
		var p getTokenAccountsParams
		if err := decode(c.Params, &p, getTokenAccountsFields); err != nil {
			return nil, err
		}
		owner, mint := p.OwnerAddress, p.MintAddress
		if owner == nil {
			owner = p.Owner
		}
		if mint == nil {
			mint = p.Mint
		}
		q := tokenaccounts.Query{Zero: allOptions(p.Options, p.DisplayOptions).ShowZeroBalance}
		var err error
		if q.Owner, err = optAddress(owner); err != nil {
			return nil, err
		}
		if q.Mint, err = optAddress(mint); err != nil {
			return nil, err
		}
		byAmount, err := p.byAmount()
		if err != nil {
			return nil, err
		}
		pgn := paging{Limit: p.Limit, Page: p.Page, Before: p.Before, After: p.After, Cursor: p.Cursor}
		var past *tokenaccounts.AmountCursor
		if byAmount {
			if q.Mint == nil {
				return nil, invalidParams("Invalid params: sortBy amount ranks the holders of a mint: give mintAddress")
			}
			if p.Before != nil || p.After != nil {
				return nil, invalidParams(errPaginationSorting)
			}
			if p.Cursor != nil && p.Page == nil {
				c, err := tokenaccounts.DecodeAmountCursor(*p.Cursor)
				if err != nil {
					return nil, invalidParams("Cursor Validation Err: " + *p.Cursor + " is invalid")
				}
				past, pgn.Cursor = &c, nil
			}
		}
		pg, mode, err := pgn.page(sortByID)
		if err != nil {
			return nil, err
		}
		tp := tokenaccounts.Page{Limit: pg.Limit, Page: pg.Page, Before: pg.Before, After: pg.After, ByAmount: byAmount, Past: past}
		if pg.Cursor != nil {
			tp.After = pg.Cursor // addresses ascend
		}
		slot, err := d.Slots.IndexedSlot(ctx)
		if err != nil {
			return nil, failed(d, c.Method, err)
		}
		accounts, err := tokenaccounts.List(ctx, d.Store, q, tp)
		if errors.Is(err, tokenaccounts.ErrNoScope) {
			return nil, invalidParams("Database Error: Custom Error: " + err.Error())
		}
		if err != nil {
			return nil, failed(d, c.Method, err)
		}
		out := &tokenAccountList{LastIndexedSlot: slot, Total: len(accounts), Limit: pg.Limit,
			TokenAccounts: make([]tokenAccount, len(accounts)), Errors: []listError{}}
		for i, a := range accounts {
			out.TokenAccounts[i] = tokenAccount{
				Address: a.Address.String(), Mint: a.Mint.String(), Amount: a.Amount, Owner: a.Owner.String(),
				Frozen: a.Frozen, Delegate: keyStr(a.Delegate), DelegatedAmount: a.DelegatedAmount,
				CloseAuthority: keyStr(a.CloseAuth), Extensions: rawJSON("null"),
			}
			if a.Extensions != "" {
				out.TokenAccounts[i].Extensions = rawJSON(a.Extensions)
			}
		}
		// A cursor only for a full page: null says this was the last.
		next := ""
		if n := len(accounts); n > 0 && n == pg.Limit {
			last := accounts[n-1]
			next = base58.Encode(last.Address[:])
			if byAmount {
				next = tokenaccounts.AmountCursor{Amount: last.Amount, Address: last.Address}.Encode()
			}
		}
		out.Page, out.Before, out.After, out.Cursor = pgn.members(mode, pg, next)
		return out, nil
	}
}

// sortByID is the order of lists that have only one.
var sortByID = assetlist.Sort{By: assetlist.SortID}

func keyStr(k *solana.Pubkey) *string {
	if k == nil {
		return nil
	}
	s := k.String()
	return &s
}

// byAmount reports whether the request ranks accounts by amount, an
// addition: `sortBy: {sortBy: "amount"}`, largest first.
func (p *getTokenAccountsParams) byAmount() (bool, error) {
	if p.SortBy == nil {
		return false, nil
	}
	if p.SortBy.SortBy == nil || *p.SortBy.SortBy != "amount" {
		return false, invalidParams("Invalid params: getTokenAccounts sorts by `amount` only")
	}
	if d := p.SortBy.SortDirection; d != nil && *d != "desc" {
		return false, invalidParams("Invalid params: sortBy amount ranks largest first: sortDirection must be `desc`")
	}
	return true, nil
}

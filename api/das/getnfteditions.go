package das

import (
	"context"
	"errors"

	"github.com/dasch-labs/dasch/chain/metadata"
	"github.com/dasch-labs/dasch/query/assetlist"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

var getNftEditionsFields = []string{"mintAddress", "page", "limit", "before", "after", "cursor", "mint"}

type getNftEditionsParams struct {
	MintAddress *string `json:"mintAddress"`
	Mint        *string `json:"mint"`
	Page        *uint32 `json:"page"`
	Limit       *uint32 `json:"limit"`
	Before      *string `json:"before"`
	After       *string `json:"after"`
	Cursor      *string `json:"cursor"`
}

// nftEditions is getNftEditions' answer. Cursor is the last edition
// address of a full page read without page/before/after.
type nftEditions struct {
	LastIndexedSlot      uint64       `json:"last_indexed_slot"`
	Total                int          `json:"total"`
	Limit                int          `json:"limit"`
	MasterEditionAddress string       `json:"master_edition_address"`
	Supply               uint64       `json:"supply"`
	MaxSupply            *uint64      `json:"max_supply"`
	Editions             []nftEdition `json:"editions,omitempty"`
	Page                 *int         `json:"page,omitempty"`
	Before               *string      `json:"before,omitempty"`
	After                *string      `json:"after,omitempty"`
	Cursor               *string      `json:"cursor,omitempty"`
}

// nftEdition carries each member in the reference's spelling and in
// Helius's (mint, edition), so both clients read it.
type nftEdition struct {
	MintAddress    string `json:"mint_address"`
	EditionAddress string `json:"edition_address"`
	EditionNumber  uint64 `json:"edition_number"`
	Mint           string `json:"mint"`
	Edition        uint64 `json:"edition"`
}

// getNftEditions lists the prints of a master edition NFT.
func getNftEditions(d Deps) jsonrpc.Handler {
	return func(ctx context.Context, c *jsonrpc.Call) (any, error) {
		var p getNftEditionsParams
		if err := decode(c.Params, &p, getNftEditionsFields); err != nil {
			return nil, err
		}
		name, given := "mintAddress", p.MintAddress
		if given == nil && p.Mint != nil {
			name, given = "mint", p.Mint
		}
		mint, err := address(name, given)
		if err != nil {
			return nil, err
		}
		pg, mode, err := paging{Limit: p.Limit, Page: p.Page, Before: p.Before, After: p.After, Cursor: p.Cursor}.page(sortByID)
		if err != nil {
			return nil, err
		}
		slot, err := d.Slots.IndexedSlot(ctx)
		if err != nil {
			return nil, failed(d, c.Method, err)
		}
		master, err := assetlist.MasterOf(ctx, d.Store, mint)
		if errors.Is(err, assetlist.ErrNoMaster) {
			return nil, notFound(err.Error())
		}
		if err != nil {
			return nil, failed(d, c.Method, err)
		}
		masterAddr := metadata.EditionPDA(mint)
		eds, err := assetlist.Editions(ctx, d.Store, masterAddr, pg)
		if err != nil {
			return nil, failed(d, c.Method, err)
		}
		out := &nftEditions{LastIndexedSlot: slot, Total: len(eds), Limit: pg.Limit,
			MasterEditionAddress: masterAddr.String(), Supply: master.Supply, MaxSupply: master.MaxSupply}
		for _, e := range eds {
			m := e.Mint.String()
			out.Editions = append(out.Editions, nftEdition{MintAddress: m, EditionAddress: e.Address.String(),
				EditionNumber: e.Number, Mint: m, Edition: e.Number})
		}
		next := ""
		if n := len(eds); n > 0 && n == pg.Limit {
			next = eds[n-1].Address.String()
		}
		out.Page, out.Before, out.After, out.Cursor = paging{Before: p.Before, After: p.After}.members(mode, pg, next)
		return out, nil
	}
}

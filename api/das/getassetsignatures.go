package das

import (
	"context"
	"errors"

	"github.com/goccy/go-json"
	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/chain/bubblegum"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/query/cnftsigs"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// maxSignatures is the most items one page may ask for.
const maxSignatures = 1000

// SignatureParam is a transaction signature param: base58 of 64 bytes.
type SignatureParam solana.Signature

// UnmarshalJSON accepts a base58 string of exactly 64 bytes.
func (s *SignatureParam) UnmarshalJSON(b []byte) error {
	var str string
	if err := json.Unmarshal(b, &str); err != nil {
		return jsonrpc.InvalidParams("expected a base58 signature")
	}
	if str == "" || len(str) > 88 {
		return jsonrpc.InvalidParams(quote(str) + " is not a base58 signature")
	}
	raw, err := base58.Decode(str)
	if err != nil || len(raw) != len(s) {
		return jsonrpc.InvalidParams(quote(str) + " is not a base58 signature")
	}
	copy(s[:], raw)
	return nil
}

// SortDirection is "asc" or "desc".
type SortDirection string

// UnmarshalJSON accepts the reference's two spellings only.
func (d *SortDirection) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil || (s != "asc" && s != "desc") {
		return jsonrpc.InvalidParams("`sortDirection` must be \"asc\" or \"desc\"")
	}
	*d = SortDirection(s)
	return nil
}

type getAssetSignaturesParams struct {
	ID            *AssetID        `json:"id"`
	Limit         *uint32         `json:"limit"`
	Page          *uint32         `json:"page"`
	Before        *SignatureParam `json:"before"`
	After         *SignatureParam `json:"after"`
	Tree          *AssetID        `json:"tree"`
	LeafIndex     *int64          `json:"leafIndex"`
	Cursor        *SignatureParam `json:"cursor"`
	SortDirection *SortDirection  `json:"sortDirection"`
}

// In the reference's member order, which positional params follow.
var getAssetSignaturesFields = []string{"id", "limit", "page", "before", "after", "tree", "leafIndex", "cursor", "sortDirection"}

// SignatureList is the reference's answer: total is the number of items
// in this page; page, before and after echo the pagination asked for.
type SignatureList struct {
	Total           int         `json:"total"`
	Limit           uint32      `json:"limit"`
	Page            *uint32     `json:"page,omitempty"`
	Before          *string     `json:"before,omitempty"`
	After           *string     `json:"after,omitempty"`
	Items           [][2]string `json:"items"`
	LastIndexedSlot uint64      `json:"last_indexed_slot"`
}

// signatureQuery is a validated getAssetSignatures request.
type signatureQuery struct {
	asset                 solana.Pubkey
	limit                 uint32
	page                  *uint32
	before, after, cursor *solana.Signature
	asc                   bool
}

// validate applies the reference's rules and texts.
func (p *getAssetSignaturesParams) validate() (*signatureQuery, error) {
	byID := p.ID != nil && p.Tree == nil && p.LeafIndex == nil
	byLeaf := p.ID == nil && p.Tree != nil && p.LeafIndex != nil
	if !byID && !byLeaf {
		return nil, invalidParams("Invalid params: Must provide either 'id' or both 'tree' and 'leafIndex'")
	}
	q := &signatureQuery{limit: maxSignatures, page: p.Page, asc: p.SortDirection != nil && *p.SortDirection == "asc"}
	if byID {
		q.asset = solana.Pubkey(*p.ID)
	} else {
		if *p.LeafIndex < 0 {
			return nil, invalidParams("Invalid params: `leafIndex` must not be negative")
		}
		id, err := bubblegum.AssetID(bubblegum.Key(*p.Tree), uint64(*p.LeafIndex))
		if err != nil {
			return nil, invalidParams("Invalid params: no asset id for this tree and leafIndex")
		}
		q.asset = solana.Pubkey(id)
	}
	if p.Limit != nil {
		if *p.Limit > maxSignatures {
			return nil, invalidParams("Invalid params: Pagination Error. Limit should not be greater than 1000.")
		}
		q.limit = *p.Limit
	}
	if p.Page != nil {
		if *p.Page == 0 {
			return nil, invalidParams("Invalid params: Pagination Error. No Pagination Method Selected")
		}
		if p.Before != nil || p.After != nil || p.Cursor != nil {
			return nil, invalidParams("Invalid params: Pagination Error. Only one pagination parameter supported per query.")
		}
	}
	if p.Cursor != nil && (p.Before != nil || p.After != nil) {
		return nil, invalidParams("Invalid params: Pagination Error. Only one pagination parameter supported per query.")
	}
	sig := func(s *SignatureParam) *solana.Signature {
		if s == nil {
			return nil
		}
		v := solana.Signature(*s)
		return &v
	}
	q.before, q.after, q.cursor = sig(p.Before), sig(p.After), sig(p.Cursor)
	return q, nil
}

// getAssetSignatures lists the transactions that changed a compressed NFT,
// by change-log seq (newest first unless sortDirection is asc), as
// [signature, instruction] pairs.
func getAssetSignatures(d Deps) jsonrpc.Handler {
	return func(ctx context.Context, c *jsonrpc.Call) (any, error) {
		var p getAssetSignaturesParams
		if err := decode(c.Params, &p, getAssetSignaturesFields); err != nil {
			return nil, err
		}
		q, err := p.validate()
		if err != nil {
			return nil, err
		}
		slot, err := d.Slots.IndexedSlot(ctx)
		if err != nil {
			return nil, failed(d, c.Method, err)
		}
		page := cnftsigs.Page{Limit: uint64(q.limit), Asc: q.asc, Through: &slot}
		if q.page != nil {
			page.Offset = uint64(*q.page-1) * uint64(q.limit)
		}
		// before, after and cursor name a transaction of the asset: the page
		// holds the items past it (cursor: in the sort direction).
		bound := func(sig *solana.Signature, name string, low bool) (*uint64, error) {
			if sig == nil {
				return nil, nil
			}
			lo, hi, err := cnftsigs.SeqRange(ctx, d.Store, q.asset, *sig)
			if errors.Is(err, cnftsigs.ErrNoSignature) {
				return nil, invalidParams("Invalid params: `" + name + "` is not a transaction of this asset")
			}
			if err != nil {
				return nil, failed(d, c.Method, err)
			}
			if low {
				return &lo, nil
			}
			return &hi, nil
		}
		if page.Before, err = bound(q.before, "before", true); err != nil {
			return nil, err
		}
		if page.After, err = bound(q.after, "after", false); err != nil {
			return nil, err
		}
		if q.cursor != nil {
			if q.asc {
				page.After, err = bound(q.cursor, "cursor", false)
			} else {
				page.Before, err = bound(q.cursor, "cursor", true)
			}
			if err != nil {
				return nil, err
			}
		}
		items, err := cnftsigs.Signatures(ctx, d.Store, q.asset, page)
		if err != nil {
			return nil, failed(d, c.Method, err)
		}
		out := &SignatureList{Total: len(items), Limit: q.limit, Page: q.page, Items: make([][2]string, len(items)), LastIndexedSlot: slot}
		for i, it := range items {
			out.Items[i] = [2]string{it.Signature.String(), bubblegum.PascalName(it.Instruction)}
		}
		if q.before != nil {
			s := q.before.String()
			out.Before = &s
		}
		if q.after != nil {
			s := q.after.String()
			out.After = &s
		}
		return out, nil
	}
}

package photon

import (
	"context"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// accountRequest names one account by address or hash (Photon's
// CompressedAccountRequest); the address wins when both are given.
type accountRequest struct {
	Address *Pubkey `json:"address"`
	Hash    *Hash   `json:"hash"`
}

// accountCall is one decoded single-account request with its context slot.
type accountCall struct {
	slot    uint64
	account *compressed.Account // nil when no unspent account matches
}

// lookupAccount decodes an accountRequest and reads the unspent account it
// names.
func lookupAccount(ctx context.Context, d Deps, c *jsonrpc.Call) (accountCall, error) {
	var p accountRequest
	if err := jsonrpc.DecodeParams(c.Params, &p, []string{"address", "hash"}); err != nil {
		return accountCall{}, err
	}
	slot, err := d.contextSlot(ctx)
	if err != nil {
		return accountCall{}, err
	}
	var found []compressed.Account
	switch {
	case p.Address != nil:
		found, err = compressed.AccountsByAddressesAt(ctx, d.Store, []compressed.Key{compressed.Key(*p.Address)}, &slot)
	case p.Hash != nil:
		found, err = compressed.AccountsByHashesAt(ctx, d.Store, []compressed.Key{compressed.Key(*p.Hash)}, &slot)
	default:
		return accountCall{}, validationError("Either address or hash must be provided")
	}
	if err != nil {
		return accountCall{}, err
	}
	out := accountCall{slot: slot}
	if len(found) > 0 {
		out.account = &found[0]
	}
	return out, nil
}

// singleAccount serves getCompressedAccount in either account shape.
func singleAccount(d Deps, v2 bool) jsonrpc.Handler {
	return func(ctx context.Context, c *jsonrpc.Call) (any, error) {
		r, err := lookupAccount(ctx, d, c)
		if err != nil {
			return nil, err
		}
		b := openContext(make([]byte, 0, 1024), r.slot)
		if r.account == nil {
			b = append(b, "null"...)
		} else {
			b = appendAccount(b, r.account, v2, nil)
		}
		return closeContext(b), nil
	}
}

// u64Answer is {"context":…,"value":v}.
func u64Answer(slot, v uint64) json.RawMessage {
	return closeContext(appendU64(openContext(make([]byte, 0, 64), slot), v))
}

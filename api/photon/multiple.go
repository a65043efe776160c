package photon

import (
	"context"

	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

type multipleAccountsParams struct {
	Hashes    *HashList   `json:"hashes"`
	Addresses *PubkeyList `json:"addresses"`
}

// multipleAccounts serves getMultipleCompressedAccounts in either shape:
// one item per requested key, in request order, null where no unspent
// account matches.
func multipleAccounts(d Deps, v2 bool) jsonrpc.Handler {
	return func(ctx context.Context, c *jsonrpc.Call) (any, error) {
		var p multipleAccountsParams
		if err := jsonrpc.DecodeParams(c.Params, &p, []string{"hashes", "addresses"}); err != nil {
			return nil, err
		}
		slot, err := d.contextSlot(ctx)
		if err != nil {
			return nil, err
		}
		var keys []compressed.Key
		var found []compressed.Account
		byAddress := false
		switch {
		case p.Hashes != nil && p.Addresses == nil:
			if keys = *p.Hashes; len(keys) > pageLimit {
				return nil, validationError("Too many hashes requested " + itoa(len(keys)) + ". Maximum allowed: 1000")
			}
			found, err = compressed.AccountsByHashesAt(ctx, d.Store, keys, &slot)
		case p.Addresses != nil && p.Hashes == nil:
			if keys = *p.Addresses; len(keys) > pageLimit {
				return nil, validationError("Too many addresses requested " + itoa(len(keys)) + ". Maximum allowed: 1000")
			}
			byAddress = true
			found, err = compressed.AccountsByAddressesAt(ctx, d.Store, keys, &slot)
		default:
			return nil, validationError("Either hashes or addresses must be provided")
		}
		if err != nil {
			return nil, err
		}
		index := make(map[compressed.Key]*compressed.Account, len(found))
		for i := range found {
			k := found[i].Hash
			if byAddress {
				k = *found[i].Address
			}
			index[k] = &found[i]
		}
		b := openContext(make([]byte, 0, 128+len(keys)*700), slot)
		b = append(b, `{"items":[`...)
		var m keyMemo
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			if a := index[k]; a != nil {
				b = appendAccount(b, a, v2, &m)
			} else {
				b = append(b, "null"...)
			}
		}
		return closeContext(append(b, "]}"...)), nil
	}
}

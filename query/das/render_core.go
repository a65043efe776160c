package das

import (
	"fmt"

	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/ingest/das"
	"github.com/dasch-labs/dasch/ingest/solana"
	"github.com/dasch-labs/dasch/schema"
)

// decodeCore decodes the stored Core account; a burnt one is rendered from
// the last state it had while live, marked burnt.
func decodeCore(acc *Account) (*das.CoreAccount, error) {
	c, err := das.DecodeCore(acc.Program, acc.Data)
	if err != nil {
		return nil, err
	}
	if c.Kind == das.CoreBurnt && len(acc.Live) > 0 {
		live, err := das.DecodeCore(acc.Program, acc.Live)
		if err != nil {
			return nil, fmt.Errorf("last live state: %w", err)
		}
		live.Burnt = true
		return live, nil
	}
	return c, nil
}

// coreCollection returns the collection a Core asset's update authority
// names, if st is such an asset.
func coreCollection(st *State) (solana.Pubkey, bool) {
	if st == nil {
		return solana.Pubkey{}, false
	}
	acc := st.Find(schema.AssetKindCore, st.ID)
	if acc == nil {
		return solana.Pubkey{}, false
	}
	c, err := decodeCore(acc)
	if err != nil {
		return solana.Pubkey{}, false // reported when the asset is rendered
	}
	return c.CollectionAddress()
}

func renderCore(id solana.Pubkey, acc *Account, states map[solana.Pubkey]*State, opts asset.Options) (*asset.Asset, error) {
	c, err := decodeCore(acc)
	if err != nil {
		return nil, fmt.Errorf("mpl core: %w", err)
	}
	if c.Kind == das.CoreBurnt {
		return nil, asset.ErrNotFound // burnt before anything live was indexed
	}
	var coll *das.CoreAccount
	if addr, ok := c.CollectionAddress(); ok {
		if cst := states[addr]; cst != nil {
			if cacc := cst.Find(schema.AssetKindCore, addr); cacc != nil {
				if coll, err = decodeCore(cacc); err != nil {
					return nil, fmt.Errorf("mpl core collection %s: %w", addr, err)
				}
			}
		}
	}
	if rec := newest(states[id].OfKind(schema.AssetKindAgentIdentity)); rec != nil {
		if ident, err := das.DecodeAgentIdentity(rec.Program, rec.Data); err == nil && ident.Asset == id {
			c.AgentToken = ident.AgentToken
		}
	}
	return asset.FromCore(id, c, coll, opts)
}

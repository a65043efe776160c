package asset

import (
	"fmt"

	"github.com/dasch-labs/dasch/chain/core"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/schema"
)

// decodeCore decodes the stored Core account; a burnt one is rendered from
// the last state it had while live, marked burnt.
func decodeCore(acc *Account) (*core.CoreAccount, error) {
	c, err := core.DecodeCore(acc.Program, acc.Data)
	if err != nil {
		return nil, err
	}
	if c.Kind == core.CoreBurnt && len(acc.Live) > 0 {
		live, err := core.DecodeCore(acc.Program, acc.Live)
		if err != nil {
			return nil, fmt.Errorf("last live state: %w", err)
		}
		live.Burnt = true
		return live, nil
	}
	return c, nil
}

// cores decodes each stored Core account once per request: the collection
// lookup, the asset's rendering and every member of one collection in a
// batch share the decoded accounts, which are never modified.
type cores map[solana.Pubkey]decodedCore

type decodedCore struct {
	acc *core.CoreAccount // nil when the key holds no Core account
	err error
}

// of returns the Core account stored at key in st, decoded; nil, nil when
// there is none.
func (cs cores) of(st *State, key solana.Pubkey) (*core.CoreAccount, error) {
	if d, ok := cs[key]; ok {
		return d.acc, d.err
	}
	var d decodedCore
	if st != nil {
		if raw := st.Find(schema.AssetKindCore, key); raw != nil {
			d.acc, d.err = decodeCore(raw)
		}
	}
	cs[key] = d
	return d.acc, d.err
}

// collection returns the collection a Core asset's update authority names,
// if st holds such an asset.
func (cs cores) collection(st *State) (solana.Pubkey, bool) {
	if st == nil {
		return solana.Pubkey{}, false
	}
	c, err := cs.of(st, st.ID)
	if c == nil || err != nil {
		return solana.Pubkey{}, false // an error is reported when the asset is rendered
	}
	return c.CollectionAddress()
}

func fromCoreRows(id solana.Pubkey, cs cores, states map[solana.Pubkey]*State, opts Options) (*Asset, error) {
	decoded, err := cs.of(states[id], id)
	if err != nil {
		return nil, fmt.Errorf("mpl core: %w", err)
	}
	if decoded == nil {
		return nil, ErrNotFound
	}
	c := *decoded // the agent token is set on this request's copy
	if c.Kind == core.CoreBurnt {
		return nil, ErrNotFound // burnt before anything live was indexed
	}
	var coll *core.CoreAccount
	if addr, ok := c.CollectionAddress(); ok {
		if coll, err = cs.of(states[addr], addr); err != nil {
			return nil, fmt.Errorf("mpl core collection %s: %w", addr, err)
		}
	}
	if rec := newest(states[id].OfKind(schema.AssetKindAgentIdentity)); rec != nil {
		if ident, err := core.DecodeAgentIdentity(rec.Program, rec.Data); err == nil && ident.Asset == id {
			c.AgentToken = ident.AgentToken
		}
	}
	return FromCore(id, &c, coll, opts)
}

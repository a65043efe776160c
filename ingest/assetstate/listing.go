package assetstate

import (
	"encoding/binary"
	"fmt"

	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/chain/metadata"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/schema"
)

// listingOf is what an asset is searched by, read from its folded
// document. Supply is the reference's: the mint's supply for assets with
// a mint, else 1 (a compressed NFT keeps 1 after it is burnt).
func listingOf(id solana.Pubkey, a *asset.Asset) Listing {
	l := Listing{
		Interface:    a.Interface,
		OwnerType:    a.Ownership.OwnershipModel,
		Delegate:     pubkeyOf(a.Ownership.Delegate),
		Frozen:       a.Ownership.Frozen,
		Burnt:        a.Burnt,
		Compressed:   a.Compression.Compressed,
		Compressible: a.Compression.Eligible,
		Supply:       1,
		RoyaltyModel: a.Royalty.RoyaltyModel,
		RoyaltyBPS:   a.Royalty.BasisPoints,
	}
	if k := pubkeyOf(&a.Ownership.Owner); k != nil {
		l.Owner = *k
	}
	if a.TokenInfo != nil {
		l.Supply = a.TokenInfo.Supply
		mint := id
		l.SupplyMint = &mint
	}
	if a.Compression.Compressed {
		l.Tree = pubkeyOf(&a.Compression.Tree)
	}
	l.RoyaltyTarget = pubkeyOf(a.Royalty.Target)
	l.IsAgent, l.AgentToken, l.AssetSigner = a.IsAgent, pubkeyOf(a.AgentToken), pubkeyOf(a.AssetSigner)
	if a.Content != nil {
		l.JSONURI, l.Name = a.Content.JSONURI, a.Content.Metadata.Name
	}
	return l
}

// pubkeyOf parses an optional base58 address; empty or invalid is nil.
func pubkeyOf(s *string) *solana.Pubkey {
	if s == nil || *s == "" {
		return nil
	}
	k, err := solana.ParsePubkey(*s)
	if err != nil {
		return nil
	}
	return &k
}

// assetKey is one key an asset is listed under. number is a print's
// edition number (path AssetPathEdition).
type assetKey struct {
	path     string
	key      solana.Pubkey
	verified bool
	number   uint64
}

// encode is k as asset_state.keys stores it: verified (1 byte), number
// (8 bytes, big endian), key (32 bytes), then the path.
func (k assetKey) encode() []byte {
	b := make([]byte, 41, 41+len(k.path))
	if k.verified {
		b[0] = 1
	}
	binary.BigEndian.PutUint64(b[1:9], k.number)
	copy(b[9:41], k.key[:])
	return append(b, k.path...)
}

// decodeKey reverses encode.
func decodeKey(b []byte) (assetKey, error) {
	if len(b) < 41 {
		return assetKey{}, fmt.Errorf("stored asset key of %d bytes, want at least 41", len(b))
	}
	return assetKey{verified: b[0] == 1, number: binary.BigEndian.Uint64(b[1:9]),
		key: solana.Pubkey(b[9:41]), path: string(b[41:])}, nil
}

// keysOf lists the keys an asset with document a is listed under: its
// owner, each authority, each creator and each group whose value is an
// address. An asset without a document (not found, no supply) has none,
// which is how lists leave out what getAsset does not answer.
func keysOf(a *asset.Asset) []assetKey {
	if a == nil {
		return nil
	}
	var out []assetKey
	add := func(path string, s *string, verified bool) {
		k := pubkeyOf(s)
		if k == nil {
			return
		}
		for i := range out {
			if out[i].path == path && out[i].key == *k {
				out[i].verified = out[i].verified || verified
				return
			}
		}
		out = append(out, assetKey{path: path, key: *k, verified: verified})
	}
	add(schema.AssetPathOwner, &a.Ownership.Owner, true)
	for i := range a.Authorities {
		add(schema.AssetPathAuthority, &a.Authorities[i].Address, true)
	}
	for i := range a.Creators {
		add(schema.AssetPathCreator, &a.Creators[i].Address, a.Creators[i].Verified)
	}
	for _, g := range a.Grouping {
		// A group without the flag predates it and counts as verified,
		// as the reference reads it.
		add(schema.AssetPathGroup+g.GroupKey, g.GroupValue, g.Verified == nil || *g.Verified)
	}
	return out
}

// searchKeysOf lists the keys a rendered asset is searched by when no
// address drives the search (schema.AssetPathInterface and the flags),
// read from its listing so that each row and its columns agree.
func searchKeysOf(l *Listing) []assetKey {
	var out []assetKey
	if l.Interface != "" {
		out = append(out, assetKey{path: schema.AssetPathInterface + l.Interface})
	}
	if l.Burnt {
		out = append(out, assetKey{path: schema.AssetPathBurnt})
	}
	if l.Frozen {
		out = append(out, assetKey{path: schema.AssetPathFrozen})
	}
	return out
}

// Token Metadata edition account keys (the account's first byte).
const (
	editionKeyPrint    = 1
	editionKeyMasterV1 = 2
	editionKeyMasterV2 = 6
)

// editionOf reads the asset's edition PDA account, when stored: a master
// edition's counts go to the row's listing; a print is listed under its
// master edition. A closed account is neither.
func editionOf(row *StateRow, st *asset.State) error {
	if st == nil {
		return nil
	}
	acc := st.Find(schema.AssetKindEdition, row.Edition)
	if acc == nil || len(acc.Data) == 0 {
		return nil
	}
	switch acc.Data[0] {
	case editionKeyMasterV1, editionKeyMasterV2:
		m, err := metadata.DecodeMasterEdition(acc.Program, acc.Data)
		if err != nil {
			return fmt.Errorf("master edition: %w", err)
		}
		supply := m.Supply
		row.PrintSupply, row.PrintMaxSupply = &supply, m.MaxSupply
	case editionKeyPrint:
		e, err := metadata.DecodeEdition(acc.Program, acc.Data)
		if err != nil {
			return fmt.Errorf("edition: %w", err)
		}
		row.keys = append(row.keys, assetKey{path: schema.AssetPathEdition, key: e.Parent, number: e.Edition})
	}
	return nil
}

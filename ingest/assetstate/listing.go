package assetstate

import (
	"github.com/dasch-labs/dasch/asset"
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

// assetKey is one key an asset is listed under.
type assetKey struct {
	path     string
	key      solana.Pubkey
	verified bool
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

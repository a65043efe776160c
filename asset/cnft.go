package asset

import (
	"errors"
	"fmt"

	"github.com/dasch-labs/dasch/chain/bubblegum"
)

// FromCNFT renders a compressed NFT folded from its Bubblegum events the
// way the reference does:
//   - interface V1_NFT for V1 leaves and MplBubblegumV2 for V2 leaves, as
//     the specification lists and Helius answers (the reference answers
//     V1_NFT for both: docs/das-compat.md);
//   - content from the on-chain name, symbol and uri; token_standard is
//     always NonFungible (the reference records it so for every mint);
//   - the tree config account of the mint as the one "full" authority;
//   - compression from the last leaf, seq being the asset's highest
//     changelog seq (burn moves it, the leaf stays); V2 leaves add
//     collection_hash, asset_data_hash, flags and ownership.non_transferable;
//   - the collection only when verified, unless opts.ShowUnverifiedCollections,
//     which also adds grouping[].verified;
//   - supply {0, 0, edition_nonce}.
//
// A decompressed asset (st.Decompressed) is still rendered from its leaf
// here; once its Token Metadata accounts are indexed the caller renders it
// as a regular NFT instead (see CNFTState.Decompressed).
func FromCNFT(st *bubblegum.CNFTState, opts Options) (*Asset, error) {
	if st == nil {
		return nil, errors.New("asset: nil compressed NFT state")
	}
	if st.Metadata == nil || !st.HasLeaf || !st.HasOwner {
		// Without the mint (or an update) there is no metadata to show; the
		// reference has no asset either until it indexes one.
		return nil, fmt.Errorf("asset: compressed NFT %s: mint not indexed", st.AssetID)
	}
	m := st.Metadata
	a := &Asset{
		Interface:   InterfaceV1NFT,
		ID:          st.AssetID.String(),
		Authorities: []Authority{},
		Grouping:    []Group{},
		Creators:    make([]Creator, 0, len(st.Creators)),
		Mutable:     m.IsMutable,
		Burnt:       st.Burnt,
	}
	// The reference records NonFungible for every cNFT, whatever the mint
	// argument said.
	a.Content = NewContent(m.Name, m.Symbol, m.URI, Str("NonFungible"))
	if st.Authority != nil {
		a.Authorities = append(a.Authorities, Authority{Address: st.Authority.String(), Scopes: []string{"full"}})
	}
	a.Compression = Compression{
		Compressed:  true,
		DataHash:    st.DataHash.String(),
		CreatorHash: st.CreatorHash.String(),
		AssetHash:   st.LeafHash.String(),
		Tree:        st.Tree.String(),
		Seq:         st.Seq,
		LeafID:      st.LeafID,
	}
	v2 := st.Flags != nil
	if v2 {
		a.Interface = InterfaceMplBubblegumV2
		f := *st.Flags
		a.Compression.Flags = &f
		a.Compression.CollectionHash = keyStr(st.CollectionHash)
		a.Compression.AssetDataHash = keyStr(st.AssetDataHash)
	}
	if c := st.Collection; c != nil && (c.Verified || opts.ShowUnverifiedCollections) {
		g := Group{GroupKey: "collection", GroupValue: Str(c.Key.String())}
		if opts.ShowUnverifiedCollections {
			v := c.Verified
			g.Verified = &v
		}
		a.Grouping = append(a.Grouping, g)
	}
	bp := uint32(m.SellerFeeBasisPoints)
	a.Royalty = Royalty{
		RoyaltyModel:        "creators",
		Percent:             Percent(bp),
		BasisPoints:         bp,
		PrimarySaleHappened: m.PrimarySaleHappened,
	}
	for _, c := range st.Creators {
		a.Creators = append(a.Creators, Creator{Address: c.Address.String(), Share: c.Share, Verified: c.Verified})
	}
	a.Ownership = Ownership{
		Frozen:         st.Frozen(),
		Delegated:      st.Delegate != nil,
		Delegate:       keyStr(st.Delegate),
		OwnershipModel: OwnershipSingle,
		Owner:          st.Owner.String(),
	}
	if v2 {
		nt := st.NonTransferable()
		a.Ownership.NonTransferable = &nt
	}
	var zero uint64
	a.Supply = &Supply{PrintMaxSupply: &zero, EditionNonce: m.EditionNonce}
	return a, nil
}

func keyStr(k *bubblegum.Key) *string {
	if k == nil {
		return nil
	}
	return Str(k.String())
}

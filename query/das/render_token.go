package das

import (
	"fmt"

	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/ingest/das"
	"github.com/dasch-labs/dasch/ingest/solana"
	"github.com/dasch-labs/dasch/schema"
)

// tokenSources decodes the stored accounts of a mint: the mint itself, its
// metadata, its edition (from the state loaded at the edition PDA), the
// newest token account holding it and its inscription. It returns nil when
// neither a mint nor a metadata account is stored.
func tokenSources(id solana.Pubkey, st, edition *State) (*asset.TokenSources, error) {
	src := &asset.TokenSources{ID: id}
	found := false
	if m := st.Find(schema.AssetKindMint, id); m != nil {
		mint, err := das.DecodeMint(m.Program, m.Data)
		if err != nil {
			return nil, fmt.Errorf("mint: %w", err)
		}
		src.Mint, src.MintProgram, src.MintSlot, found = mint, m.Program, m.Slot, true
	}
	if md := newest(st.OfKind(schema.AssetKindMetadata)); md != nil {
		meta, err := das.DecodeMetadata(md.Program, md.Data)
		if err != nil {
			return nil, fmt.Errorf("metadata: %w", err)
		}
		src.Metadata, src.MetadataSlot, found = meta, md.Slot, true
	}
	if !found {
		return nil, nil
	}
	if edition != nil {
		for _, e := range edition.OfKind(schema.AssetKindEdition) {
			if len(e.Data) == 0 {
				continue
			}
			var err error
			if e.Data[0] == keyEditionV1 {
				src.Edition, err = das.DecodeEdition(e.Program, e.Data)
			} else {
				src.MasterEdition, err = das.DecodeMasterEdition(e.Program, e.Data)
			}
			if err != nil {
				return nil, fmt.Errorf("edition: %w", err)
			}
		}
	}
	// The loader returns only token accounts holding the mint now; the
	// newest write wins when several claim it (an NFT moves between them).
	if ta := newest(st.OfKind(schema.AssetKindTokenAccount)); ta != nil {
		acc, err := das.DecodeTokenAccount(ta.Program, ta.Data)
		if err != nil {
			return nil, fmt.Errorf("token account: %w", err)
		}
		src.TokenAccount = acc
	}
	return src, nil
}

// keyEditionV1 is the Token Metadata key byte of a print Edition.
const keyEditionV1 = 1

// newest returns the account written last, or nil.
func newest(accs []Account) *Account {
	var best *Account
	for i := range accs {
		if best == nil || accs[i].Slot > best.Slot {
			best = &accs[i]
		}
	}
	return best
}

func renderToken(id solana.Pubkey, st, edition *State, opts asset.Options) (*asset.Asset, error) {
	src, err := tokenSources(id, st, edition)
	if err != nil {
		return nil, err
	}
	if src == nil {
		return nil, asset.ErrNotFound
	}
	return asset.FromToken(src, opts)
}

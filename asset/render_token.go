package asset

import (
	"fmt"

	"github.com/dasch-labs/dasch/chain/inscription"
	"github.com/dasch-labs/dasch/chain/metadata"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/chain/token"
	"github.com/dasch-labs/dasch/schema"
)

// tokenSources decodes the stored accounts of a mint: the mint itself, its
// metadata, its edition (from the state loaded at the edition PDA), the
// newest token account holding it and its inscription. It returns nil when
// neither a mint nor a metadata account is stored.
func tokenSources(id solana.Pubkey, st, edition *State) (*TokenSources, error) {
	src := &TokenSources{ID: id}
	found := false
	if m := st.Find(schema.AssetKindMint, id); m != nil {
		if data, closed := liveData(m); data != nil {
			mint, err := token.DecodeMint(m.Program, data)
			if err != nil {
				return nil, fmt.Errorf("mint: %w", err)
			}
			src.Mint, src.MintProgram, src.MintSlot, found = mint, m.Program, m.Slot, true
			src.Burnt = src.Burnt || closed
		}
	}
	if md := newest(st.OfKind(schema.AssetKindMetadata)); md != nil {
		if data, closed := liveData(md); data != nil {
			meta, err := metadata.DecodeMetadata(md.Program, data)
			if err != nil {
				return nil, fmt.Errorf("metadata: %w", err)
			}
			src.Metadata, src.MetadataSlot, found = meta, md.Slot, true
			src.Burnt = src.Burnt || closed
		}
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
				src.Edition, err = metadata.DecodeEdition(e.Program, e.Data)
			} else {
				src.MasterEdition, err = metadata.DecodeMasterEdition(e.Program, e.Data)
			}
			if err != nil {
				return nil, fmt.Errorf("edition: %w", err)
			}
		}
	}
	// The holder is the newest token account holding the mint; with none
	// holding it, the newest one at all (as the reference answers).
	// A closed token account holds nothing and is no holder.
	var accs, holding []Account
	for _, a := range st.OfKind(schema.AssetKindTokenAccount) {
		if len(a.Data) == 0 {
			continue
		}
		accs = append(accs, a)
		if a.Amount > 0 {
			holding = append(holding, a)
		}
	}
	if len(holding) > 0 {
		accs = holding
	}
	if ta := newest(accs); ta != nil {
		acc, err := token.DecodeTokenAccount(ta.Program, ta.Data)
		if err != nil {
			return nil, fmt.Errorf("token account: %w", err)
		}
		src.TokenAccount = acc
	}
	if in := newest(st.OfKind(schema.AssetKindInscription)); in != nil && len(in.Data) > 0 {
		ins, err := inscription.DecodeInscription(in.Program, in.Data)
		if err != nil {
			return nil, fmt.Errorf("inscription: %w", err)
		}
		src.Inscription = ins
	}
	return src, nil
}

// liveData is what acc holds to render: its data, or for a closed account
// (empty data) the last data it held while open, with closed set; nil
// when it was never seen open.
func liveData(acc *Account) (data []byte, closed bool) {
	if len(acc.Data) > 0 {
		return acc.Data, false
	}
	if len(acc.Live) > 0 {
		return acc.Live, true
	}
	return nil, true
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

func fromTokenRows(id solana.Pubkey, st, edition *State, opts Options) (*Asset, error) {
	src, err := tokenSources(id, st, edition)
	if err != nil {
		return nil, err
	}
	if src == nil {
		return nil, ErrNotFound
	}
	return FromToken(src, opts)
}

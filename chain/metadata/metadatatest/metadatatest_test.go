package metadatatest

import (
	"reflect"
	"testing"

	"github.com/dasch-labs/dasch/chain/metadata"
	"github.com/dasch-labs/dasch/chain/solana"
)

var metadataProgram = metadata.TokenMetadataProgram()

func k(b byte) solana.Pubkey {
	var p solana.Pubkey
	for i := range p {
		p[i] = b + byte(i)
	}
	return p
}

func TestMetadataRoundTrip(t *testing.T) {
	nonce, std, rs := uint8(254), metadata.ProgrammableNonFungible, k(9)
	full := &metadata.Metadata{Key: metadata.KeyMetadataV1, UpdateAuthority: k(1), Mint: k(2), Name: "Name", Symbol: "SYM",
		URI: "https://arweave.net/x", SellerFeeBasisPoints: 500, HasCreators: true,
		Creators:            []metadata.Creator{{Address: k(3), Verified: true, Share: 60}, {Address: k(4), Share: 40}},
		PrimarySaleHappened: true, IsMutable: true, EditionNonce: &nonce, TokenStandard: &std,
		Collection:         &metadata.Collection{Verified: true, Key: k(5)},
		Uses:               &metadata.Uses{UseMethod: 1, Remaining: 2, Total: 3},
		CollectionDetails:  &metadata.CollectionDetails{Version: 1, Size: 10},
		ProgrammableConfig: &metadata.ProgrammableConfig{RuleSet: &rs},
	}
	bare := &metadata.Metadata{Key: metadata.KeyMetadataV1, UpdateAuthority: k(1), Mint: k(2), Name: "T", Symbol: "T", URI: "u"}
	for _, m := range []*metadata.Metadata{full, bare} {
		b := EncodeMetadata(m)
		if len(b) != metadataLen {
			t.Errorf("length %d, want %d", len(b), metadataLen)
		}
		got, err := metadata.DecodeMetadata(metadataProgram, b)
		if err != nil {
			t.Fatalf("decode: %v", err)
		}
		if !reflect.DeepEqual(got, m) {
			t.Errorf("round trip:\n got %+v\nwant %+v", got, m)
		}
	}
}

func TestMasterEditionRoundTrip(t *testing.T) {
	zero := uint64(0)
	for _, m := range []*metadata.MasterEdition{{Key: metadata.KeyMasterEditionV2, MaxSupply: &zero}, {Key: metadata.KeyMasterEditionV2, Supply: 4}} {
		b := EncodeMasterEdition(m)
		if len(b) != masterEditionLen {
			t.Errorf("length %d, want %d", len(b), masterEditionLen)
		}
		got, err := metadata.DecodeMasterEdition(metadataProgram, b)
		if err != nil {
			t.Fatalf("decode: %v", err)
		}
		if !reflect.DeepEqual(got, m) {
			t.Errorf("round trip:\n got %+v\nwant %+v", got, m)
		}
	}
}

package metadata

import (
	"errors"
	"testing"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/chain/token"
	"github.com/dasch-labs/dasch/internal/borsh"
)

func TestDecodeMetadataFixtures(t *testing.T) {
	u8 := func(v uint8) *uint8 { return &v }
	ts := func(v TokenStandard) *TokenStandard { return &v }
	tests := []struct {
		dir, pubkey      string
		mint, updateAuth string
		name, symbol     string
		uri              string
		fee              uint16
		creators         []string // base58 addresses
		verified         []bool
		shares           []uint8
		mutable          bool
		nonce            *uint8
		standard         *TokenStandard
		ruleSet          string // "" means no programmable config
	}{
		{
			dir: "asset_parsing", pubkey: "6cQEeDKhobxxsvPKcAsdHZbDrPgQtEpo8PFzayDu5Gi5",
			mint: "843gdpsTE4DoJz3ZoBsEjAqT8UgAcyF5YojygGgGZE1f", updateAuth: "GMhP98kXvfziKNfq1nP99AbWtZAweLu3DFz5Vs5ZaVTy",
			name: "Phantom Mage #1233", symbol: "PM",
			uri:      "https://nftstorage.link/ipfs/bafybeihaky4htq6obur3ziksyanpdoqmrnefben3dbecddru52xh2sdkii/1232.json",
			fee:      555,
			creators: []string{"5KtTmcxYYzK5mR7gEtjVX2eBBK1g7YjVbvsMBAbyf9uK", "HmkCMBPdY6MixHP8hxsM8G1UwJH3fBN2itWagnYoXASR"},
			verified: []bool{true, false}, shares: []uint8{0, 100},
			mutable: true, nonce: u8(253), standard: ts(ProgrammableNonFungible),
			ruleSet: "AdH2Utn6Fus15ZhtenW4hZBQnvtLgM1YCW2MfVp7pYS5",
		},
		{
			dir: "fungible_token_get_asset", pubkey: "5x38Kp4hvdomTCnCrAny4UtMUt5rQBdB6px2K1Ui45Wq",
			mint: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", updateAuth: "2wmVCSfPxGPjrnMMn7rchp4uaeoTqN39mXFC2zhPdri9",
			name: "USD Coin", symbol: "USDC", mutable: true, nonce: u8(252),
		},
		{
			dir: "get_nft_editions", pubkey: "4V9QuYLpiMu4ZQmhdEHmgATdgiHkDeJfvZi84BfkYcez",
			mint: "9yQecKKYSHxez7fFjJkUvkz42TLmkoXzhyZxEf2pw8pz", updateAuth: "232PpcrPc6Kz7geafvbRzt5HnHP4kX88yvzUCN69WXQC",
			name: "Silurian Period", uri: "https://arweave.net/qtd2UfdKkcmsg-JEGnL_ZJNrOsS0oc2rt_rRUzVuMEk", fee: 1000,
			creators: []string{"232PpcrPc6Kz7geafvbRzt5HnHP4kX88yvzUCN69WXQC"}, verified: []bool{true}, shares: []uint8{100},
			nonce: u8(253), standard: ts(NonFungibleEdition),
		},
	}
	for _, tc := range tests {
		t.Run(tc.dir, func(t *testing.T) {
			a := loadAccount(t, tc.dir, tc.pubkey)
			m, err := DecodeMetadata(a.Owner, a.Data)
			if err != nil {
				t.Fatal(err)
			}
			if got := MetadataPDA(m.Mint); got != a.Pubkey {
				t.Errorf("MetadataPDA(%s) = %s, want %s", m.Mint, got, a.Pubkey)
			}
			if m.Key != KeyMetadataV1 || m.Mint.String() != tc.mint || m.UpdateAuthority.String() != tc.updateAuth ||
				m.Name != tc.name || m.Symbol != tc.symbol || m.URI != tc.uri || m.SellerFeeBasisPoints != tc.fee ||
				m.IsMutable != tc.mutable || m.PrimarySaleHappened {
				t.Errorf("got %+v", m)
			}
			if m.HasCreators != (tc.creators != nil) || len(m.Creators) != len(tc.creators) {
				t.Fatalf("creators %+v", m.Creators)
			}
			for i, c := range m.Creators {
				if c.Address.String() != tc.creators[i] || c.Verified != tc.verified[i] || c.Share != tc.shares[i] {
					t.Errorf("creator %d = %+v", i, c)
				}
			}
			if !eqPtr(m.EditionNonce, tc.nonce) || !eqPtr(m.TokenStandard, tc.standard) {
				t.Errorf("nonce %v standard %v", m.EditionNonce, m.TokenStandard)
			}
			if m.Collection != nil || m.Uses != nil || m.CollectionDetails != nil {
				t.Errorf("unexpected collection/uses/details %+v %+v %+v", m.Collection, m.Uses, m.CollectionDetails)
			}
			if tc.ruleSet == "" {
				if m.ProgrammableConfig != nil {
					t.Errorf("programmable config %+v", m.ProgrammableConfig)
				}
			} else if m.ProgrammableConfig == nil {
				t.Error("no programmable config")
			} else {
				checkOptKey(t, "rule set", m.ProgrammableConfig.RuleSet, tc.ruleSet)
			}
		})
	}
}

func TestDecodeEditionsFixtures(t *testing.T) {
	const master = "8SHfqzJYABeGfiG1apwiEYt6TvfGQiL1pdwEjvTKsyiZ"
	a := loadAccount(t, "get_nft_editions", master)
	me, err := DecodeMasterEdition(a.Owner, a.Data)
	if err != nil {
		t.Fatal(err)
	}
	if me.Key != KeyMasterEditionV2 || me.Supply != 60 || me.MaxSupply == nil || *me.MaxSupply != 69 {
		t.Errorf("master edition %+v", me)
	}
	// The master edition is the mint authority of its mint, which is how
	// its PDA can be checked against the fixtures.
	if got := EditionPDA(pk(t, "Ey2Qb8kLctbchQsMnhZs5DjY32To2QtPuXNwWvk4NosL")); got.String() != master {
		t.Errorf("EditionPDA = %s", got)
	}

	tests := []struct {
		pubkey, mint string
		number       uint64
	}{
		{"AoxgzXKEsJmUyF5pBb3djn9cJFA26zh2SQHvd9EYijZV", "GJvFDcBWf6aDncd1TBzx2ou1rgLFYaMBdbYLBa9oTAEw", 1},
		{"giWoA4jqHFkodPJgtbRYRcYtiXbsVytnxnEao3QT2gg", "9yQecKKYSHxez7fFjJkUvkz42TLmkoXzhyZxEf2pw8pz", 2},
	}
	for _, tc := range tests {
		t.Run(tc.pubkey, func(t *testing.T) {
			a := loadAccount(t, "get_nft_editions", tc.pubkey)
			e, err := DecodeEdition(a.Owner, a.Data)
			if err != nil {
				t.Fatal(err)
			}
			if e.Parent.String() != master || e.Edition != tc.number {
				t.Errorf("edition %+v", e)
			}
			if got := EditionPDA(pk(t, tc.mint)); got != a.Pubkey {
				t.Errorf("EditionPDA(%s) = %s", tc.mint, got)
			}
			// Kinds must not be confused with one another.
			if _, err := DecodeMasterEdition(a.Owner, a.Data); err == nil {
				t.Error("edition decoded as master edition")
			}
			if _, err := DecodeMetadata(a.Owner, a.Data); err == nil {
				t.Error("edition decoded as metadata")
			}
		})
	}
}

// TestTruncated cuts every fixture at every length short of its full size:
// decoding must fail cleanly, except where Metadata's lenient tail applies
// or an edition's prefix is itself a valid layout.
func TestTruncated(t *testing.T) {
	tests := []struct {
		dir, pubkey string
		decode      func(solana.Pubkey, []byte) error
		minOK       int // shortest prefix that legitimately decodes; 0 = only the full data
	}{
		{"asset_parsing", "6cQEeDKhobxxsvPKcAsdHZbDrPgQtEpo8PFzayDu5Gi5", metadataErr, -1},
		{"get_nft_editions", "8SHfqzJYABeGfiG1apwiEYt6TvfGQiL1pdwEjvTKsyiZ", masterEditionErr, 1 + 8 + 1 + 8},
		{"get_nft_editions", "AoxgzXKEsJmUyF5pBb3djn9cJFA26zh2SQHvd9EYijZV", editionErr, 1 + 32 + 8},
	}
	for _, tc := range tests {
		t.Run(tc.pubkey, func(t *testing.T) {
			a := loadAccount(t, tc.dir, tc.pubkey)
			for n := range len(a.Data) {
				err := tc.decode(a.Owner, a.Data[:n])
				switch {
				case tc.minOK < 0:
					// Only checking that it does not panic.
				case tc.minOK > 0 && n >= tc.minOK:
					if err != nil {
						t.Errorf("len %d: %v", n, err)
					}
				case err == nil:
					t.Errorf("len %d decoded without error", n)
				}
			}
		})
	}
}

func TestMalformed(t *testing.T) {
	tok := token.TokenProgram()
	meta := TokenMetadataProgram()
	tests := []struct {
		name   string
		decode func(solana.Pubkey, []byte) error
		owner  solana.Pubkey
		data   []byte
		ok     bool
	}{
		{"metadata empty", metadataErr, meta, nil, false},
		{"metadata wrong key", metadataErr, meta, []byte{6}, false},
		{"metadata wrong owner", metadataErr, tok, []byte{4}, false},
		{"edition wrong key", editionErr, meta, make([]byte, 41), false},
		{"master edition bad option", masterEditionErr, meta, append([]byte{6}, append(make([]byte, 8), 7)...), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.decode(tc.owner, tc.data)
			if (err == nil) != tc.ok {
				t.Errorf("err = %v, want ok=%v", err, tc.ok)
			}
		})
	}
}

func TestShortError(t *testing.T) {
	_, err := DecodeEdition(TokenMetadataProgram(), []byte{1, 2})
	if !errors.Is(err, borsh.ErrShort) {
		t.Errorf("err = %v, want ErrShort", err)
	}
}

// FuzzDecode feeds arbitrary bytes to every decoder under every owner (the
// token programs' too); the only requirement is that none panics.
func FuzzDecode(f *testing.F) {
	f.Add([]byte{4})
	f.Add(make([]byte, token.MintLen))
	f.Add(make([]byte, token.AccountLen+5))
	owners := []solana.Pubkey{token.TokenProgram(), token.Token2022Program(), TokenMetadataProgram()}
	decoders := []func(solana.Pubkey, []byte) error{metadataErr, masterEditionErr, editionErr}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, o := range owners {
			for _, d := range decoders {
				_ = d(o, data)
			}
		}
	})
}

func metadataErr(o solana.Pubkey, b []byte) error {
	_, err := DecodeMetadata(o, b)
	return err
}

func masterEditionErr(o solana.Pubkey, b []byte) error {
	_, err := DecodeMasterEdition(o, b)
	return err
}

func editionErr(o solana.Pubkey, b []byte) error {
	_, err := DecodeEdition(o, b)
	return err
}

func checkOptKey(t *testing.T, what string, got *solana.Pubkey, want string) {
	t.Helper()
	switch {
	case want == "" && got != nil:
		t.Errorf("%s = %s, want none", what, got)
	case want != "" && got == nil:
		t.Errorf("%s = none, want %s", what, want)
	case want != "" && got.String() != want:
		t.Errorf("%s = %s, want %s", what, got, want)
	}
}

func eqPtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

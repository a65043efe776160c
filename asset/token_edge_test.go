package asset

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/dasch-labs/dasch/chain/inscription"
	"github.com/dasch-labs/dasch/chain/metadata"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/chain/token"
)

// madLad returns the decoded state of reg_get_asset's pNFT, for edits.
func madLad(t *testing.T) *TokenSources {
	t.Helper()
	c := loadTokenCase(t, "reg_get_asset")
	id, err := solana.ParsePubkey(c.Request.Params.ID)
	if err != nil {
		t.Fatal(err)
	}
	return seedAccounts(t, c).sources(t, id)
}

// errOtherMint marks a case expecting the metadata/mint mismatch error.
var errOtherMint = errors.New("metadata of another mint")

func TestFromTokenEdges(t *testing.T) {
	wsol, err := solana.ParsePubkey(wrappedSOL)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		edit    func(*TokenSources)
		opts    Options
		wantErr error
		check   func(*Asset) string
	}{
		{name: "no source", edit: func(s *TokenSources) { *s = TokenSources{} }, wantErr: ErrNotFound},
		{name: "no mint", edit: func(s *TokenSources) { s.Mint = nil }, wantErr: ErrNotFound},
		{name: "no metadata on an SPL Token mint", edit: func(s *TokenSources) { s.Metadata = nil }, wantErr: ErrNotFound},
		{name: "burnt NFT", edit: func(s *TokenSources) { s.Mint.Supply = 0 }, wantErr: ErrNoSupply},
		{name: "metadata of another mint", edit: func(s *TokenSources) { s.Metadata.Mint[0] ^= 1 }, wantErr: errOtherMint},
		{
			name: "wrapped SOL has no supply but renders as fungible",
			edit: func(s *TokenSources) {
				s.ID, s.Metadata.Mint, s.Mint.Supply, s.Metadata.TokenStandard = wsol, wsol, 0, nil
			},
			check: func(a *Asset) string {
				if a.Interface != InterfaceFungibleToken || a.Ownership.OwnershipModel != OwnershipToken || a.Supply != nil || a.Ownership.Owner != "" {
					return "not a fungible token"
				}
				return ""
			},
		},
		{
			name: "no token standard and supply one is Custom with a holder",
			edit: func(s *TokenSources) { s.Metadata.TokenStandard = nil },
			check: func(a *Asset) string {
				if a.Interface != InterfaceCustom || a.Supply == nil || a.Ownership.Owner == "" || a.Content.Metadata.TokenStandard != nil {
					return "not Custom"
				}
				return ""
			},
		},
		{
			name: "fungible asset standard",
			edit: func(s *TokenSources) {
				fa := metadata.FungibleAsset
				s.Metadata.TokenStandard = &fa
			},
			check: func(a *Asset) string {
				if a.Interface != InterfaceFungibleAsset || a.Supply != nil || a.Ownership.OwnershipModel != OwnershipToken {
					return "not a fungible asset"
				}
				return ""
			},
		},
		{
			name: "unverified collection hidden by default",
			edit: func(s *TokenSources) { s.Metadata.Collection.Verified = false },
			check: func(a *Asset) string {
				if len(a.Grouping) != 0 {
					return "unverified collection shown"
				}
				return ""
			},
		},
		{
			name: "unverified collection shown on request with its flag",
			edit: func(s *TokenSources) { s.Metadata.Collection.Verified = false },
			opts: Options{ShowUnverifiedCollections: true},
			check: func(a *Asset) string {
				if len(a.Grouping) != 1 || a.Grouping[0].Verified == nil || *a.Grouping[0].Verified {
					return "want one group with verified false"
				}
				return ""
			},
		},
		{
			name: "collection metadata from the collection's JSON",
			edit: func(s *TokenSources) {
				s.CollectionJSON = []byte(`{"name":"Mad Lads","image":"https://x/y.png","attributes":[],"description":null}`)
			},
			opts: Options{ShowCollectionMetadata: true},
			check: func(a *Asset) string {
				if got := string(a.Grouping[0].CollectionMetadata); got != `{"image":"https://x/y.png","name":"Mad Lads"}` {
					return "collection_metadata " + got
				}
				return ""
			},
		},
		{
			name: "collection JSON that is not an object shows {}",
			edit: func(s *TokenSources) { s.CollectionJSON = []byte(`"processing"`) },
			opts: Options{ShowCollectionMetadata: true},
			check: func(a *Asset) string {
				if got := string(a.Grouping[0].CollectionMetadata); got != `{}` {
					return "collection_metadata " + got
				}
				return ""
			},
		},
		{
			name: "uses rendered",
			edit: func(s *TokenSources) { s.Metadata.Uses = &metadata.Uses{UseMethod: 1, Remaining: 2, Total: 5} },
			check: func(a *Asset) string {
				if a.Uses == nil || *a.Uses != (Uses{UseMethod: "Multiple", Remaining: 2, Total: 5}) {
					return "uses not rendered"
				}
				return ""
			},
		},
		{
			name: "inscription only when asked",
			edit: func(s *TokenSources) { s.Inscription = &inscription.Inscription{Root: s.ID} },
			check: func(a *Asset) string {
				if a.Inscription != nil {
					return "inscription shown without showInscription"
				}
				return ""
			},
		},
		{
			// Whitespace is trimmed before NULs are removed, as the
			// reference does, so a space before a NUL survives.
			name: "names and uri are trimmed",
			edit: func(s *TokenSources) { s.Metadata.Name, s.Metadata.URI = " Lad\x00 ", " https://a/b.json \x00" },
			check: func(a *Asset) string {
				if a.Content.Metadata.Name != "Lad" || a.Content.JSONURI != "https://a/b.json " {
					return "not trimmed: " + a.Content.Metadata.Name + "|" + a.Content.JSONURI
				}
				return ""
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := madLad(t)
			tt.edit(src)
			a, err := FromToken(src, tt.opts)
			if tt.wantErr == errOtherMint {
				if err == nil || !strings.Contains(err.Error(), "belongs to mint") {
					t.Fatalf("got %v, want a mint mismatch error", err)
				}
				return
			}
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("got %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if msg := tt.check(a); msg != "" {
				t.Error(msg)
			}
		})
	}
}

func TestMintExtensionsJSON(t *testing.T) {
	key := func(b byte) []byte {
		k := make([]byte, 32)
		k[31] = b
		return k
	}
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	tests := []struct {
		name string
		exts []token.Extension
		want string
	}{
		{"no extensions", nil, ""},
		{"only non-transferable shows nothing", []token.Extension{{Type: token.ExtNonTransferable}}, ""},
		{
			"group pointer, non-transferable and default state",
			[]token.Extension{
				{Type: token.ExtGroupPointer, Data: cat(key(1), key(2))},
				{Type: token.ExtNonTransferable},
				{Type: token.ExtDefaultAccountState, Data: []byte{2}},
			},
			`{"default_account_state":{"state":2},"group_pointer":{"group_address":"11111111111111111111111111111113"},"non_transferable":true}`,
		},
		{
			"pausable",
			[]token.Extension{{Type: token.ExtPausable, Data: cat(make([]byte, 32), []byte{1})}},
			`{"pausable":{"authority":null,"paused":true}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := MintExtensionsJSON(&token.Mint{Program: token.Token2022Program(), Extensions: tt.exts})
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
	if _, err := MintExtensionsJSON(&token.Mint{Extensions: []token.Extension{{Type: token.ExtTransferHook, Data: key(1)}}}); err == nil {
		t.Error("truncated transfer hook: no error")
	}
}

// TestPrintSupplyFromMasterEdition: with the master edition indexed, the
// print supplies are its own (Helius's behaviour); without it, 0.
func TestPrintSupplyFromMasterEdition(t *testing.T) {
	limit := uint64(50)
	tests := []struct {
		name        string
		me          *metadata.MasterEdition
		wantMax     *uint64
		wantCurrent uint64
	}{
		{"no master edition", nil, new(uint64), 0},
		{"limited", &metadata.MasterEdition{Supply: 7, MaxSupply: &limit}, &limit, 7},
		{"unlimited", &metadata.MasterEdition{Supply: 3}, nil, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := madLad(t)
			src.MasterEdition = tc.me
			a, err := FromToken(src, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if a.Supply == nil {
				t.Fatal("no supply")
			}
			gotMax := a.Supply.PrintMaxSupply
			if (gotMax == nil) != (tc.wantMax == nil) || (gotMax != nil && *gotMax != *tc.wantMax) || a.Supply.PrintCurrentSupply != tc.wantCurrent {
				t.Errorf("print supply max %v current %d, want %v %d", gotMax, a.Supply.PrintCurrentSupply, tc.wantMax, tc.wantCurrent)
			}
		})
	}
}

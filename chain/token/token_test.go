package token

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/dasch-labs/dasch/chain/metadata"
	"github.com/dasch-labs/dasch/chain/solana"
)

func TestDecodeMintFixtures(t *testing.T) {
	tests := []struct {
		dir, pubkey      string
		supply           uint64
		decimals         uint8
		mintAuth, freeze string // "" means none
	}{
		// NFT mints: authorities are the master edition PDA of the mint.
		{"asset_parsing", "843gdpsTE4DoJz3ZoBsEjAqT8UgAcyF5YojygGgGZE1f", 1, 0,
			"BBxbujpLmQgqwu9p1t2S2AZrXuTGBiaUg3M7PUjuBExh", "BBxbujpLmQgqwu9p1t2S2AZrXuTGBiaUg3M7PUjuBExh"},
		{"get_nft_editions", "Ey2Qb8kLctbchQsMnhZs5DjY32To2QtPuXNwWvk4NosL", 1, 0,
			"8SHfqzJYABeGfiG1apwiEYt6TvfGQiL1pdwEjvTKsyiZ", "8SHfqzJYABeGfiG1apwiEYt6TvfGQiL1pdwEjvTKsyiZ"},
		{"fungible_token_get_asset", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", 3688102136626265, 6,
			"BJE5MMbqXjVwjAF7oxwPYXnTXDyspzZyt4vwenNw5ruG", "7dGbd2QZcCKcTndnHcTL8q7SMVXAkp688NTQYwrRCrar"},
		{"token_extensions_get_asset", "BPU5vrAHafRuVeK33CgfdwTKSsmC4p6t3aqyav3cFF7Y", 1, 0,
			"Em34oqDQYQZ9b6ycPHD28K47mttrRsdNu1S1pgK6NtPL", ""},
	}
	for _, tc := range tests {
		t.Run(tc.dir, func(t *testing.T) {
			a := loadAccount(t, tc.dir, tc.pubkey)
			m, err := DecodeMint(a.Owner, a.Data)
			if err != nil {
				t.Fatal(err)
			}
			if m.Supply != tc.supply || m.Decimals != tc.decimals || !m.IsInitialized || m.Program != a.Owner {
				t.Errorf("got supply %d decimals %d init %v program %s", m.Supply, m.Decimals, m.IsInitialized, m.Program)
			}
			checkOptKey(t, "mint authority", m.MintAuthority, tc.mintAuth)
			checkOptKey(t, "freeze authority", m.FreezeAuthority, tc.freeze)
			if _, err := DecodeTokenAccount(a.Owner, a.Data); err == nil {
				t.Error("mint decoded as a token account")
			}
		})
	}
}

func TestDecodeMintToken2022Extensions(t *testing.T) {
	a := loadAccount(t, "token_extensions_get_asset", "BPU5vrAHafRuVeK33CgfdwTKSsmC4p6t3aqyav3cFF7Y")
	if a.Owner != Token2022Program() {
		t.Fatalf("owner %s", a.Owner)
	}
	m, err := DecodeMint(a.Owner, a.Data)
	if err != nil {
		t.Fatal(err)
	}
	auth := "Em34oqDQYQZ9b6ycPHD28K47mttrRsdNu1S1pgK6NtPL"
	if len(m.Extensions) != 2 || m.Extensions[0].Type != ExtMetadataPointer || m.Extensions[1].Type != ExtTokenMetadata {
		t.Fatalf("extensions %+v", m.Extensions)
	}
	if m.MetadataPointer == nil {
		t.Fatal("no metadata pointer")
	}
	checkOptKey(t, "pointer authority", m.MetadataPointer.Authority, auth)
	// The mint points at itself: metadata lives in the TokenMetadata extension.
	checkOptKey(t, "pointer address", m.MetadataPointer.MetadataAddress, a.Pubkey.String())
	tm := m.TokenMetadata
	if tm == nil {
		t.Fatal("no token metadata")
	}
	checkOptKey(t, "update authority", tm.UpdateAuthority, auth)
	if tm.Mint != a.Pubkey || tm.Name != "DAS Dev" || tm.Symbol != "DAS" ||
		tm.URI != "https://acme.com/demo.json" || len(tm.AdditionalMetadata) != 0 {
		t.Errorf("token metadata %+v", tm)
	}
}

func TestDecodeTokenAccountFixture(t *testing.T) {
	a := loadAccount(t, "asset_parsing", "DPBEGb2DajfkannVZ6J4NxRY2ovz1yn1j36i1WVdZVpW")
	ta, err := DecodeTokenAccount(a.Owner, a.Data)
	if err != nil {
		t.Fatal(err)
	}
	want := TokenAccount{
		Program: TokenProgram(),
		Mint:    pk(t, "843gdpsTE4DoJz3ZoBsEjAqT8UgAcyF5YojygGgGZE1f"),
		Owner:   pk(t, "BzbdvwEkQKeghTY53aZxTYjUienhdbkNVkgrLV6cErke"),
		Amount:  1,
		State:   StateFrozen, // frozen by the NFT's edition PDA
	}
	if ta.Program != want.Program || ta.Mint != want.Mint || ta.Owner != want.Owner ||
		ta.Amount != want.Amount || ta.State != want.State || ta.Delegate != nil ||
		ta.IsNative != nil || ta.DelegatedAmount != 0 || ta.CloseAuthority != nil || ta.Extensions != nil {
		t.Errorf("got %+v", ta)
	}
}

// TestTruncated cuts every fixture at every length short of its full size:
// decoding must fail cleanly, except where a shorter Token-2022 prefix is
// itself a valid layout.
func TestTruncated(t *testing.T) {
	tests := []struct {
		dir, pubkey string
		decode      func(solana.Pubkey, []byte) error
		minOK       int // shortest prefix that legitimately decodes; 0 = only the full data
	}{
		{"asset_parsing", "843gdpsTE4DoJz3ZoBsEjAqT8UgAcyF5YojygGgGZE1f", mintErr, 0},
		{"asset_parsing", "DPBEGb2DajfkannVZ6J4NxRY2ovz1yn1j36i1WVdZVpW", tokenAccountErr, 0},
		{"token_extensions_get_asset", "BPU5vrAHafRuVeK33CgfdwTKSsmC4p6t3aqyav3cFF7Y", mintErr, -1},
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
	tok := TokenProgram()
	t22 := Token2022Program()
	meta := metadata.TokenMetadataProgram()
	mint := make([]byte, MintLen)
	mint[45] = 1 // is_initialized

	withByte := func(b []byte, off int, v byte) []byte {
		c := bytes.Clone(b)
		c[off] = v
		return c
	}
	ext := func(typ, n uint16, payload []byte) []byte {
		b := make([]byte, AccountLen+1)
		copy(b, mint)
		b[AccountLen] = accountTypeMint
		b = binary.LittleEndian.AppendUint16(b, typ)
		b = binary.LittleEndian.AppendUint16(b, n)
		return append(b, payload...)
	}
	tests := []struct {
		name   string
		decode func(solana.Pubkey, []byte) error
		owner  solana.Pubkey
		data   []byte
		ok     bool
	}{
		{"zero mint is valid", mintErr, tok, mint, true},
		{"wrong owner", mintErr, meta, mint, false},
		{"legacy mint too long", mintErr, tok, append(bytes.Clone(mint), 0), false},
		{"bad COption tag", mintErr, tok, withByte(mint, 0, 2), false},
		{"bad bool", mintErr, tok, withByte(mint, 45, 2), false},
		{"t22 bare mint", mintErr, t22, mint, true},
		{"t22 wrong account type", mintErr, t22, withByte(ext(0, 0, nil), AccountLen, accountTypeAccount), false},
		{"t22 dirty padding", mintErr, t22, withByte(ext(0, 0, nil), 100, 1), false},
		{"t22 extension overruns", mintErr, t22, ext(ExtMetadataPointer, 64, make([]byte, 10)), false},
		{"t22 short metadata pointer", mintErr, t22, ext(ExtMetadataPointer, 10, make([]byte, 10)), false},
		{"t22 unknown extension kept", mintErr, t22, ext(999, 3, []byte{1, 2, 3}), true},
		{"t22 token metadata huge string", mintErr, t22,
			ext(ExtTokenMetadata, 68, append(make([]byte, 64), 0xff, 0xff, 0xff, 0xff)), false},
		{"multisig length", tokenAccountErr, t22, make([]byte, multisigLen), false},
		{"token account bad state", tokenAccountErr, tok, withByte(make([]byte, AccountLen), 108, 3), false},
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

func TestUnknownExtensionKept(t *testing.T) {
	b := make([]byte, AccountLen+1, AccountLen+1+7)
	b[45] = 1
	b[AccountLen] = accountTypeMint
	b = append(b, 0xe7, 0x03, 3, 0, 1, 2, 3) // type 999, length 3
	m, err := DecodeMint(Token2022Program(), b)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Extensions) != 1 || m.Extensions[0].Type != 999 || !bytes.Equal(m.Extensions[0].Data, []byte{1, 2, 3}) {
		t.Errorf("extensions %+v", m.Extensions)
	}
	// The raw bytes must not alias the input.
	b[len(b)-1] = 9
	if m.Extensions[0].Data[2] != 3 {
		t.Error("extension data aliases input")
	}
}

// FuzzDecode feeds arbitrary bytes to every decoder under every owner (the
// Token Metadata program's too); the only requirement is that none panics.
func FuzzDecode(f *testing.F) {
	f.Add([]byte{4})
	f.Add(make([]byte, MintLen))
	f.Add(make([]byte, AccountLen+5))
	owners := []solana.Pubkey{TokenProgram(), Token2022Program(), metadata.TokenMetadataProgram()}
	decoders := []func(solana.Pubkey, []byte) error{mintErr, tokenAccountErr}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, o := range owners {
			for _, d := range decoders {
				_ = d(o, data)
			}
		}
	})
}

func mintErr(o solana.Pubkey, b []byte) error {
	_, err := DecodeMint(o, b)
	return err
}

func tokenAccountErr(o solana.Pubkey, b []byte) error {
	_, err := DecodeTokenAccount(o, b)
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

package tokentest

import (
	"reflect"
	"testing"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/chain/token"
)

var (
	tokenProgram     = token.TokenProgram()
	token2022Program = token.Token2022Program()
)

func k(b byte) solana.Pubkey {
	var p solana.Pubkey
	for i := range p {
		p[i] = b + byte(i)
	}
	return p
}

func TestMintRoundTrip(t *testing.T) {
	a, f := k(1), k(2)
	for _, m := range []*token.Mint{
		{Program: tokenProgram, MintAuthority: &a, Supply: 1, IsInitialized: true, FreezeAuthority: &f},
		{Program: tokenProgram, Supply: 1 << 50, Decimals: 9, IsInitialized: true},
		{Program: token2022Program, MintAuthority: &a, Supply: 7, Decimals: 6, IsInitialized: true,
			MetadataPointer: &token.MetadataPointer{Authority: &a, MetadataAddress: &f},
			TokenMetadata: &token.TokenMetadata{UpdateAuthority: &a, Mint: f, Name: "n", Symbol: "s", URI: "u",
				AdditionalMetadata: []token.KeyValue{{Key: "k", Value: "v"}}}},
	} {
		b, err := EncodeMint(m)
		if err != nil {
			t.Fatal(err)
		}
		got, err := token.DecodeMint(m.Program, b)
		if err != nil {
			t.Fatalf("decode: %v", err)
		}
		got.Extensions = nil // raw copies of the typed extensions
		if !reflect.DeepEqual(got, m) {
			t.Errorf("round trip:\n got %+v\nwant %+v", got, m)
		}
	}
	if _, err := EncodeMint(&token.Mint{Program: tokenProgram, TokenMetadata: &token.TokenMetadata{}}); err == nil {
		t.Error("extensions on an SPL Token mint encoded")
	}
}

func TestTokenAccountRoundTrip(t *testing.T) {
	d, native := k(3), uint64(2039280)
	for _, a := range []*token.TokenAccount{
		{Program: tokenProgram, Mint: k(1), Owner: k(2), Amount: 1, State: token.StateInitialized},
		{Program: tokenProgram, Mint: k(1), Owner: k(2), Amount: 1, Delegate: &d, DelegatedAmount: 1,
			State: token.StateFrozen, IsNative: &native, CloseAuthority: &d},
	} {
		got, err := token.DecodeTokenAccount(a.Program, EncodeTokenAccount(a))
		if err != nil {
			t.Fatalf("decode: %v", err)
		}
		if !reflect.DeepEqual(got, a) {
			t.Errorf("round trip:\n got %+v\nwant %+v", got, a)
		}
	}
}

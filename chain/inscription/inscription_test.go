package inscription

import (
	"errors"
	"testing"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/chain/token"
)

const inscriptionDir = "get_asset_with_show_inscription_scenario_1"

func TestDecodeInscriptionV3(t *testing.T) {
	a := repoAccount(t, inscriptionDir, "DarH4z6SmdVzPrt8krAygpLodhdjvNAstP3taj2tysN2")
	in, err := DecodeInscription(a.Owner, a.Data)
	if err != nil {
		t.Fatal(err)
	}
	root := pk(t, "9FkS3kZV4MoGps14tUSp7iVnizGbxcK4bDEhSoF5oYAZ")
	tests := []struct {
		name      string
		got, want any
	}{
		{"authority", in.Authority.String(), "11111111111111111111111111111111"},
		{"root", in.Root, root},
		{"data account", in.InscriptionData.String(), "4Q18N6XrfJHgDbRTaHJR328jN9dixCLQAQhDsTsRzg3v"},
		{"order", in.Order, uint64(1733)},
		{"size", in.Size, uint32(202)},
		{"content type", in.ContentType, "image/net/riupjyro3lsvkb_listajh0jdsrsjmnyhusxvznycqw"},
		{"encoding", in.Encoding, "base64"},
		{"validation hash", in.ValidationHash != nil && *in.ValidationHash == "7fa0041483b92f5a0448067ecef9beca2192b13bfe86fbd53a0024e84fcea652", true},
		{"pda of root", InscriptionPDA(root), a.Pubkey},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s = %v, want %v", tt.name, tt.got, tt.want)
		}
	}
}

func TestDecodeInscriptionLegacy(t *testing.T) {
	b := new(le).raw(discInscription...).key(1).key(2).
		raw(3).u32(3).raw('p', 'n', 'g'). // MediaType::Image{"png"}
		raw(1).                           // EncodingType::Base64
		key(4).u64(7).u32(99).raw(0).Bytes()
	in, err := DecodeInscription(InscriptionProgram(), b)
	if err != nil {
		t.Fatal(err)
	}
	if in.ContentType != "image/png" || in.Encoding != "base64" || in.Order != 7 || in.Size != 99 || in.ValidationHash != nil || in.InscriptionData[0] != 4 {
		t.Errorf("decoded %+v", in)
	}
}

func TestDecodeInscriptionBadInput(t *testing.T) {
	good := repoAccount(t, inscriptionDir, "DarH4z6SmdVzPrt8krAygpLodhdjvNAstP3taj2tysN2")
	dataAcc := repoAccount(t, inscriptionDir, "4Q18N6XrfJHgDbRTaHJR328jN9dixCLQAQhDsTsRzg3v")
	tok := token.TokenProgram()
	tests := []struct {
		name    string
		owner   *solana.Pubkey
		data    []byte
		notInsc bool
	}{
		{"wrong owner", &tok, good.Data, false},
		{"inscription data account", nil, dataAcc.Data, true},
		{"empty", nil, nil, false},
		{"cut in root", nil, good.Data[:50], false},
		{"cut in content type", nil, good.Data[:130], false},
		{"cut in validation hash", nil, good.Data[:200], false},
	}
	for _, tt := range tests {
		owner := InscriptionProgram()
		if tt.owner != nil {
			owner = *tt.owner
		}
		in, err := DecodeInscription(owner, tt.data)
		if err == nil {
			t.Errorf("%s: decoded %+v, want error", tt.name, in)
			continue
		}
		if tt.notInsc != errors.Is(err, ErrNotInscription) {
			t.Errorf("%s: error %v", tt.name, err)
		}
	}
}

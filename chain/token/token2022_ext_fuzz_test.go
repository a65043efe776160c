package token

import (
	"bytes"
	"testing"
)

// knownMintExt are the extension types DecodeMintExtensions decodes.
var knownMintExt = map[uint16]bool{
	ExtTransferFeeConfig: true, ExtMintCloseAuthority: true, ExtConfidentialTransferMint: true,
	ExtDefaultAccountState: true, ExtNonTransferable: true, ExtInterestBearingConfig: true,
	ExtPermanentDelegate: true, ExtTransferHook: true, ExtConfidentialTransferFeeConfig: true,
	ExtMetadataPointer: true, ExtTokenMetadata: true, ExtGroupPointer: true, ExtTokenGroup: true,
	ExtGroupMemberPointer: true, ExtTokenGroupMember: true, ExtConfidentialMintBurn: true,
	ExtScaledUIAmount: true, ExtPausable: true,
}

// FuzzDecodeMintExtensions decodes arbitrary extension bytes under every
// type, seeded with PayPal USD's extensions from the corpus: no panic, an
// unknown type kept as it came, a known one never kept as unknown.
func FuzzDecodeMintExtensions(f *testing.F) {
	a := repoAccount(f, "get_asset_with_show_fungible_scenario_3", "2b1kV6DkPAnxd5ixfnxCpjxmKwqjjaYmCZfHsFu24GXo")
	m, err := DecodeMint(a.Owner, a.Data)
	if err != nil {
		f.Fatal(err)
	}
	for _, e := range m.Extensions {
		f.Add(e.Type, e.Data)
	}
	f.Add(uint16(ExtPausable), make([]byte, 33))
	f.Add(uint16(999), []byte{1, 2})
	f.Fuzz(func(t *testing.T, typ uint16, data []byte) {
		x, err := DecodeMintExtensions([]Extension{{Type: typ, Data: data}})
		if err != nil {
			if !knownMintExt[typ] {
				t.Fatalf("unknown type %d: %v", typ, err)
			}
			return
		}
		switch {
		case knownMintExt[typ] && len(x.Unknown) != 0:
			t.Fatalf("type %d decoded and kept as unknown", typ)
		case !knownMintExt[typ] && (len(x.Unknown) != 1 || !bytes.Equal(x.Unknown[0].Data, data)):
			t.Fatalf("unknown type %d: kept %+v", typ, x.Unknown)
		}
	})
}

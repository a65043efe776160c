package token

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/internal/fixture"
)

// repoCorpus is the repository's copy of the DAS corpus accounts.
const repoCorpus = "../../testdata/das/accounts"

func repoAccount(t testing.TB, dir, pubkey string) *solana.Account {
	t.Helper()
	return fixture.Account(t, repoCorpus, dir, pubkey)
}

// le builds little-endian test payloads field by field.
type le struct{ bytes.Buffer }

func (b *le) key(fill byte) *le { b.Write(bytes.Repeat([]byte{fill}, 32)); return b }
func (b *le) raw(p ...byte) *le { b.Write(p); return b }
func (b *le) n(n int, fill byte) *le {
	b.Write(bytes.Repeat([]byte{fill}, n))
	return b
}
func (b *le) u16(v uint16) *le { _ = binary.Write(b, binary.LittleEndian, v); return b }
func (b *le) u32(v uint32) *le { _ = binary.Write(b, binary.LittleEndian, v); return b }
func (b *le) u64(v uint64) *le { _ = binary.Write(b, binary.LittleEndian, v); return b }

func TestDecodeMintExtensionsPYUSD(t *testing.T) {
	a := repoAccount(t, "get_asset_with_show_fungible_scenario_3", "2b1kV6DkPAnxd5ixfnxCpjxmKwqjjaYmCZfHsFu24GXo")
	m, err := DecodeMint(a.Owner, a.Data)
	if err != nil {
		t.Fatal(err)
	}
	x, err := DecodeMintExtensions(m.Extensions)
	if err != nil {
		t.Fatal(err)
	}
	paxos := pk(t, "2apBGMsS6ti9RyF5TwQTDswXBWskiJP2LD4cUEDqYJjk")
	tests := []struct {
		name string
		ok   bool
	}{
		{"transfer fee config authority", x.TransferFeeConfig != nil && *x.TransferFeeConfig.TransferFeeConfigAuthority == paxos},
		{"transfer fee epoch", x.TransferFeeConfig != nil && x.TransferFeeConfig.NewerTransferFee.Epoch == 605 && x.TransferFeeConfig.OlderTransferFee.Epoch == 605},
		{"close authority", x.MintCloseAuthority != nil && *x.MintCloseAuthority.CloseAuthority == paxos},
		{"permanent delegate", x.PermanentDelegate != nil && *x.PermanentDelegate.Delegate == paxos},
		{"confidential mint", x.ConfidentialTransferMint != nil && !x.ConfidentialTransferMint.AutoApproveNewAccounts && x.ConfidentialTransferMint.AuditorElGamalPubkey == nil},
		{"confidential fee config", x.ConfidentialTransferFeeConfig != nil && x.ConfidentialTransferFeeConfig.HarvestToMintEnabled && x.ConfidentialTransferFeeConfig.WithheldAmount == [64]byte{}},
		{"transfer hook", x.TransferHook != nil && *x.TransferHook.Authority == paxos && x.TransferHook.ProgramID == nil},
		{"metadata pointer", x.MetadataPointer != nil && *x.MetadataPointer.MetadataAddress == a.Pubkey},
		{"token metadata", x.TokenMetadata != nil && x.TokenMetadata.Symbol == "PYUSD"},
		{"nothing unknown", len(x.Unknown) == 0},
	}
	for _, tt := range tests {
		if !tt.ok {
			t.Errorf("%s: not decoded as on chain", tt.name)
		}
	}
}

func TestExtensionDecoders(t *testing.T) {
	scaled := new(le).key(7).u64(math.Float64bits(1.5)).u64(1700000000).u64(math.Float64bits(2.25)).Bytes()
	tests := []struct {
		name  string
		typ   uint16
		data  []byte
		check func(*MintExtensions) bool
	}{
		{"default account state", ExtDefaultAccountState, []byte{2},
			func(x *MintExtensions) bool {
				return x.DefaultAccountState != nil && *x.DefaultAccountState == StateFrozen
			}},
		{"interest bearing", ExtInterestBearingConfig, new(le).key(1).u64(100).u16(0xfffb).u64(200).u16(25).Bytes(),
			func(x *MintExtensions) bool {
				c := x.InterestBearingConfig
				return c != nil && c.InitializationTimestamp == 100 && c.PreUpdateAverageRate == -5 && c.LastUpdateTimestamp == 200 && c.CurrentRate == 25
			}},
		{"group pointer", ExtGroupPointer, new(le).n(32, 0).key(3).Bytes(),
			func(x *MintExtensions) bool {
				return x.GroupPointer != nil && x.GroupPointer.Authority == nil && x.GroupPointer.Address[0] == 3
			}},
		{"token group u32", ExtTokenGroup, new(le).key(1).key(2).u32(3).u32(10).Bytes(),
			func(x *MintExtensions) bool {
				return x.TokenGroup != nil && x.TokenGroup.Size == 3 && x.TokenGroup.MaxSize == 10
			}},
		{"token group u64", ExtTokenGroup, new(le).key(1).key(2).u64(4).u64(1 << 40).Bytes(),
			func(x *MintExtensions) bool {
				return x.TokenGroup != nil && x.TokenGroup.Size == 4 && x.TokenGroup.MaxSize == 1<<40
			}},
		{"group member pointer", ExtGroupMemberPointer, new(le).key(1).key(4).Bytes(),
			func(x *MintExtensions) bool {
				return x.GroupMemberPointer != nil && x.GroupMemberPointer.Address[0] == 4
			}},
		{"token group member u32", ExtTokenGroupMember, new(le).key(1).key(2).u32(9).Bytes(),
			func(x *MintExtensions) bool { return x.TokenGroupMember != nil && x.TokenGroupMember.MemberNumber == 9 }},
		{"token group member u64", ExtTokenGroupMember, new(le).key(1).key(2).u64(11).Bytes(),
			func(x *MintExtensions) bool {
				return x.TokenGroupMember != nil && x.TokenGroupMember.MemberNumber == 11
			}},
		{"confidential mint burn", ExtConfidentialMintBurn, new(le).n(64, 1).n(36, 2).n(32, 3).n(64, 4).Bytes(),
			func(x *MintExtensions) bool {
				c := x.ConfidentialMintBurn
				return c != nil && c.DecryptableSupply[35] == 2 && c.SupplyElGamalPubkey[0] == 3 && c.PendingBurn[63] == 4
			}},
		{"scaled ui amount", ExtScaledUIAmount, scaled,
			func(x *MintExtensions) bool {
				c := x.ScaledUIAmount
				return c != nil && c.Multiplier == 1.5 && c.NewMultiplier == 2.25 && c.NewMultiplierEffectiveTimestamp == 1700000000
			}},
		{"pausable", ExtPausable, new(le).key(5).raw(1).Bytes(),
			func(x *MintExtensions) bool {
				return x.Pausable != nil && x.Pausable.Paused && x.Pausable.Authority[0] == 5
			}},
		{"transfer hook", ExtTransferHook, new(le).key(1).key(2).Bytes(),
			func(x *MintExtensions) bool { return x.TransferHook != nil && x.TransferHook.ProgramID[0] == 2 }},
		{"confidential transfer mint with auditor", ExtConfidentialTransferMint, new(le).key(1).raw(1).key(9).Bytes(),
			func(x *MintExtensions) bool {
				c := x.ConfidentialTransferMint
				return c != nil && c.AutoApproveNewAccounts && c.AuditorElGamalPubkey != nil && c.AuditorElGamalPubkey[0] == 9
			}},
		{"transfer fee config", ExtTransferFeeConfig, new(le).key(1).key(2).u64(5).u64(1).u64(10).u16(50).u64(2).u64(20).u16(75).Bytes(),
			func(x *MintExtensions) bool {
				c := x.TransferFeeConfig
				return c != nil && c.WithheldAmount == 5 && c.OlderTransferFee.TransferFeeBasisPoints == 50 && c.NewerTransferFee.MaximumFee == 20
			}},
		{"mint close authority", ExtMintCloseAuthority, new(le).key(6).Bytes(),
			func(x *MintExtensions) bool {
				return x.MintCloseAuthority != nil && x.MintCloseAuthority.CloseAuthority[0] == 6
			}},
		{"permanent delegate unset", ExtPermanentDelegate, new(le).n(32, 0).Bytes(),
			func(x *MintExtensions) bool { return x.PermanentDelegate != nil && x.PermanentDelegate.Delegate == nil }},
		{"non-transferable", ExtNonTransferable, nil,
			func(x *MintExtensions) bool { return x.NonTransferable }},
		{"unknown type kept", 999, []byte{1, 2},
			func(x *MintExtensions) bool { return len(x.Unknown) == 1 && x.Unknown[0].Type == 999 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x, err := DecodeMintExtensions([]Extension{{Type: tt.typ, Data: tt.data}})
			if err != nil {
				t.Fatal(err)
			}
			if !tt.check(x) {
				t.Errorf("decoded %+v", x)
			}
			if len(tt.data) == 0 || tt.typ == 999 {
				return
			}
			// Every shorter payload is an error, never a panic, except a
			// shorter valid layout of the same extension.
			for n := 0; n < len(tt.data); n++ {
				if (tt.typ == ExtTokenGroup && n == 72) || (tt.typ == ExtTokenGroupMember && n == 68) {
					continue
				}
				if _, err := DecodeMintExtensions([]Extension{{Type: tt.typ, Data: tt.data[:n]}}); err == nil {
					t.Errorf("truncated to %d bytes: no error", n)
				}
			}
			if _, err := DecodeMintExtensions([]Extension{{Type: tt.typ, Data: append(bytes.Clone(tt.data), 0)}}); err == nil {
				t.Errorf("one trailing byte: no error")
			}
		})
	}
}

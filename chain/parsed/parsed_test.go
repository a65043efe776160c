package parsed

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/goccy/go-json"
	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/chain/solana"
)

// TestFixtureFields checks parsed fields of real transactions against the
// values read by hand from their JSON.
func TestFixtureFields(t *testing.T) {
	txs := fixtureTxs(t)
	get := func(sig string) *Transaction {
		tx, ok := txs[sig]
		if !ok {
			t.Fatalf("no fixture %s", sig)
		}
		return Parse(tx)
	}
	t.Run("wrapped SOL transfers in the demo block", func(t *testing.T) {
		p := get("5whvTFEiavmYiwLcsVYvmpUkWj8JXKumQJYbas97tLYX6QRedrjgVJRjL3phMqSZ7akcaCxuMTCuh21zNbjBMFqv")
		if p.Fee != 7410 || p.FeePayer != "2KgowxogBrGqRcgXQEmqFvC3PGtCu66qERNJevYW8Ajh" || p.Slot != 270893658 ||
			p.Timestamp == nil || *p.Timestamp != 1704648198 || p.TransactionStatus != "success" || p.TransactionError != nil {
			t.Errorf("header %+v", p)
		}
		if len(p.TokenTransfers) != 2 {
			t.Fatalf("token transfers %+v", p.TokenTransfers)
		}
		for i, want := range []string{"10", "12500"} {
			tt := p.TokenTransfers[i]
			if tt.RawTokenAmount.TokenAmount != want || tt.RawTokenAmount.Decimals != 9 ||
				tt.Mint != "So11111111111111111111111111111111111111112" ||
				tt.FromTokenAccount != "2N8oUKaqML7P3xZeaN118eesDHoPXUQtr3wJRN3ZYUCk" ||
				tt.ToTokenAccount != "CKkmUtUSNgRUpfYToq9Dri9BQmYrjt7ARJbp4zFz1Mcd" ||
				tt.FromUserAccount != "CyZuD7RPDcrqCGbNvLCyqk6Py9cEZTKmNKujfPi3ynDd" || tt.TokenStandard != "Fungible" {
				t.Errorf("transfer %d: %+v", i, tt)
			}
		}
		if p.TokenTransfers[1].TokenAmount != "0.0000125" {
			t.Errorf("ui amount %s", p.TokenTransfers[1].TokenAmount)
		}
		changes := map[string]string{}
		for _, a := range p.AccountData {
			for _, c := range a.TokenBalanceChanges {
				changes[c.TokenAccount] = c.RawTokenAmount.TokenAmount
			}
		}
		if changes["2N8oUKaqML7P3xZeaN118eesDHoPXUQtr3wJRN3ZYUCk"] != "-12510" || changes["CKkmUtUSNgRUpfYToq9Dri9BQmYrjt7ARJbp4zFz1Mcd"] != "12510" {
			t.Errorf("token balance changes %v", changes)
		}
		if p.AccountData[0].NativeBalanceChange != -7410 {
			t.Errorf("fee payer change %d", p.AccountData[0].NativeBalanceChange)
		}
		in := p.Instructions[0]
		if in.ProgramName != "Compute Budget Program" || in.InstructionName != "setComputeUnitPrice" || in.Decoded.Args["microLamports"] != uint64(8033) {
			t.Errorf("instruction 0 %+v", in)
		}
	})
	t.Run("mint with fee", func(t *testing.T) {
		p := get("2M63FRn8tYUCDxuxo4fJLkwQfu7FQp5RecNVPK42TMdAbq45BiWjuz1P9nNy6uRrcMpXph63eAUW71GzQE1HmEGs")
		if len(p.NativeTransfers) != 1 || p.NativeTransfers[0].Amount != 300 ||
			p.NativeTransfers[0].FromUserAccount != "AhezPCGV8BqPFwwvbzo353ohNJExhCLCPZXXRbUaqCLX" {
			t.Errorf("native %+v", p.NativeTransfers)
		}
		if len(p.TokenTransfers) != 1 {
			t.Fatalf("token %+v", p.TokenTransfers)
		}
		tt := p.TokenTransfers[0]
		if tt.FromTokenAccount != "" || tt.FromUserAccount != "" || tt.ToUserAccount != "DAAY8YnCFASfeLyXFXff8bTitePXdGcXYr6DkkYJ3aJX" ||
			tt.RawTokenAmount != (RawTokenAmount{"1000", 2}) || tt.TokenAmount != "10" || tt.Mint != "FeynqjiR2HGyqQX6ouv5jrRnGxEFYHHRvvnwGQ2HpfSX" {
			t.Errorf("mint %+v", tt)
		}
	})
	t.Run("token transfer with the receiving account created", func(t *testing.T) {
		p := get("f14Ug5uuJu1uAEo8yPikmUDYRAj6y1Wpia1DWCAdP8qo5HFTrJbsKXGEDyh1MLWhdU9HAXbSjsaDr72midTu5zE")
		from, to, mint := "Cf9abfrZbkkcKthpkKqwmA8H3LiGtGZ2ZL8NsfQzYLQP", "FLUKaShMGJz2E3yy2kqqvQL3Sk1dWEVGRCa8fVRy93QX", "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU"
		if p.Type != TypeTransfer || p.Description != from+" transferred 1 "+mint+" to "+to || p.Source != "SOLANA_PROGRAM_LIBRARY" {
			t.Errorf("summary %q %q %q", p.Type, p.Description, p.Source)
		}
		want := TokenTransfer{FromUserAccount: from, ToUserAccount: to, FromTokenAccount: "5iv62nJJJHsV7pgJcA3sf9kp98uWaQcjyKtxFZ5dEbcW",
			ToTokenAccount: "9k5eMQU6sGaeSBCubw6ykezVFp2stSSnUsJ7YaRPqUkA", TokenAmount: "1", RawTokenAmount: RawTokenAmount{"1000000", 6},
			Mint: mint, TokenStandard: "Fungible", ProgramID: tokenID.String()}
		if len(p.TokenTransfers) != 1 || p.TokenTransfers[0] != want {
			t.Errorf("transfers %+v", p.TokenTransfers)
		}
		if p.Instructions[0].InstructionName != "createIdempotent" || p.Instructions[1].InstructionName != "transferChecked" {
			t.Errorf("instructions %s, %s", p.Instructions[0].InstructionName, p.Instructions[1].InstructionName)
		}
	})
	t.Run("compressed NFT transfer", func(t *testing.T) {
		p := get("4fzBjTaXmrrJReLLSYPzn1fhPfuiU2EU1hGUddtHV1B49pvRewGyyzvMMpssi7K4Y5ZYj5xS9DrJuxqJDZRMZqY1")
		oldOwner, newOwner := "F3MdnVQkRSy56FSKroYawfMk1RJFo42Quzz8VTmFzPVz", "3jnP4utL1VvjNhkxstYJ5MNayZfK4qHjFBDHNKEBpXCH"
		asset := "4k41XV45LUyX2iRSdw8bvwPmKF9y7SNLi9imUGWc3ADS"
		if p.Type != "COMPRESSED_NFT_TRANSFER" || p.Source != "BUBBLEGUM" && p.Source != "UNKNOWN" ||
			p.Description != oldOwner+" transferred compressed NFT "+asset+" to "+newOwner {
			t.Errorf("summary %q %q %q", p.Type, p.Source, p.Description)
		}
		if len(p.Events.Compressed) != 1 {
			t.Fatalf("events %+v", p.Events)
		}
		e := p.Events.Compressed[0]
		if e.AssetID != asset || e.OldLeafOwner != oldOwner || e.NewLeafOwner != newOwner || e.LeafIndex != 170433 || e.Seq != 258420 ||
			e.TreeID != "8Uyk1cZGDcytRBdyKkqHJhTAvSPzSNDDEJTacWUEW8p6" || e.InstructionIndex != 2 || e.InnerInstructionIndex != nil {
			t.Errorf("event %+v", e)
		}
		in := p.Instructions[0]
		for i := range p.Instructions {
			if p.Instructions[i].InstructionIndex == 2 && p.Instructions[i].InnerInstructionIndex == nil {
				in = p.Instructions[i]
			}
		}
		if in.InstructionName != "transfer" || in.Decoded == nil || in.Decoded.Args["assetId"] != asset ||
			in.Decoded.Accounts[3].Name != "newLeafOwner" || in.Decoded.Accounts[3].Pubkey != newOwner {
			t.Errorf("instruction %+v", in)
		}
	})
	t.Run("every fixture", func(t *testing.T) {
		for _, sig := range sortedKeys(txs) {
			tx := txs[sig]
			p := Parse(tx)
			if len(p.Instructions) != len(tx.Instructions)+len(tx.Inner) {
				t.Errorf("%s: %d instructions, want %d", sig, len(p.Instructions), len(tx.Instructions)+len(tx.Inner))
			}
			last := -1
			for _, in := range p.Instructions {
				if in.InstructionIndex < last {
					t.Errorf("%s: instructions out of order", sig)
				}
				last = in.InstructionIndex
				if prog, ok := programs[solana.MustParsePubkey(in.ProgramID)]; ok && prog.decode != nil && in.Decoded == nil && in.DecodeError == "" {
					t.Errorf("%s: %s instruction neither decoded nor failed", sig, in.ProgramName)
				}
				if in.Decoded != nil && len(in.Decoded.Accounts) != len(in.RawAccounts) {
					t.Errorf("%s: decoded accounts %d of %d", sig, len(in.Decoded.Accounts), len(in.RawAccounts))
				}
			}
			if len(p.AccountData) != len(tx.AccountKeys) || p.Signature != sig {
				t.Errorf("%s: %d account data of %d keys", sig, len(p.AccountData), len(tx.AccountKeys))
			}
		}
	})
}

// txJSON builds a getTransaction result in the json encoding.
type txb struct {
	keys   []string
	signed int
	ixs    []map[string]any
	inner  []map[string]any
	meta   map[string]any
}

func key(i int) string {
	var k solana.Pubkey
	k[0], k[31] = byte(i), 7
	return k.String()
}

func (b *txb) build(t *testing.T) *solana.Tx {
	t.Helper()
	meta := map[string]any{"err": nil, "fee": 5000, "innerInstructions": b.inner, "logMessages": []string{}}
	for k, v := range b.meta {
		meta[k] = v
	}
	var sig solana.Signature
	sig[0] = 1
	raw, err := json.Marshal(map[string]any{
		"slot": 100, "blockTime": 1700000000,
		"transaction": map[string]any{
			"signatures": []string{sig.String()},
			"message": map[string]any{
				"header":      map[string]any{"numRequiredSignatures": b.signed, "numReadonlySignedAccounts": 0, "numReadonlyUnsignedAccounts": 1},
				"accountKeys": b.keys, "recentBlockhash": key(200), "instructions": b.ixs,
			},
		},
		"meta": meta,
	})
	if err != nil {
		t.Fatal(err)
	}
	tx, err := solana.ParseTx(raw)
	if err != nil {
		t.Fatal(err)
	}
	return tx
}

func ix(prog int, accounts []int, data []byte) map[string]any {
	return map[string]any{"programIdIndex": prog, "accounts": accounts, "data": base58.Encode(data)}
}

func u32u64(tag uint32, v uint64) []byte {
	b := binary.LittleEndian.AppendUint32(nil, tag)
	return binary.LittleEndian.AppendUint64(b, v)
}

func tokenData(tag byte, amount uint64, decimals ...byte) []byte {
	return append(binary.LittleEndian.AppendUint64([]byte{tag}, amount), decimals...)
}

func balance(i int, mint, owner, amount string, decimals int) map[string]any {
	return map[string]any{"accountIndex": i, "mint": mint, "owner": owner, "programId": tokenID.String(),
		"uiTokenAmount": map[string]any{"amount": amount, "decimals": decimals}}
}

func TestSynthetic(t *testing.T) {
	system, token, budget := solana.SystemProgram().String(), tokenID.String(), computeBudgetID.String()
	a, b, c, d, mint := key(1), key(2), key(3), key(4), key(5)
	for _, tc := range []struct {
		name  string
		tx    txb
		check func(t *testing.T, p *Transaction)
	}{
		{"SOL transfer", txb{keys: []string{a, b, budget, system}, signed: 1,
			ixs:  []map[string]any{ix(2, nil, []byte{2, 0x40, 0x0d, 0x03, 0}), ix(3, []int{0, 1}, u32u64(2, 100_000_000))},
			meta: map[string]any{"preBalances": []uint64{1_000_000_000, 0, 1, 1}, "postBalances": []uint64{899_995_000, 100_000_000, 1, 1}}},
			func(t *testing.T, p *Transaction) {
				if p.Type != TypeTransfer || p.Description != a+" transferred 0.1 SOL to "+b || p.Source != "SYSTEM_PROGRAM" {
					t.Errorf("summary %q %q %q", p.Type, p.Description, p.Source)
				}
				if len(p.NativeTransfers) != 1 || p.NativeTransfers[0] != (NativeTransfer{a, b, 100_000_000}) {
					t.Errorf("native %+v", p.NativeTransfers)
				}
				if p.AccountData[0].NativeBalanceChange != -100_005_000 || p.AccountData[1].NativeBalanceChange != 100_000_000 {
					t.Errorf("account data %+v", p.AccountData)
				}
				if in := p.Instructions[1]; in.Decoded.Accounts[0] != (DecodedAccount{"from", a, true, true}) ||
					in.Decoded.Accounts[1] != (DecodedAccount{"to", b, false, true}) {
					t.Errorf("accounts %+v", in.Decoded.Accounts)
				}
			}},
		{"token transferChecked, owners from balances", txb{keys: []string{a, c, d, mint, token}, signed: 1,
			ixs: []map[string]any{ix(4, []int{1, 3, 2, 0}, tokenData(12, 1_500_000, 6))},
			meta: map[string]any{
				"preTokenBalances":  []any{balance(1, mint, a, "2000000", 6), balance(2, mint, b, "0", 6)},
				"postTokenBalances": []any{balance(1, mint, a, "500000", 6), balance(2, mint, b, "1500000", 6)}}},
			func(t *testing.T, p *Transaction) {
				want := TokenTransfer{FromUserAccount: a, ToUserAccount: b, FromTokenAccount: c, ToTokenAccount: d, TokenAmount: "1.5",
					RawTokenAmount: RawTokenAmount{"1500000", 6}, Mint: mint, TokenStandard: "Fungible", ProgramID: token}
				if len(p.TokenTransfers) != 1 || p.TokenTransfers[0] != want {
					t.Errorf("token %+v", p.TokenTransfers)
				}
				if p.Type != TypeTransfer || p.Description != fmt.Sprintf("%s transferred 1.5 %s to %s", a, mint, b) {
					t.Errorf("summary %q %q", p.Type, p.Description)
				}
				if ch := p.AccountData[1].TokenBalanceChanges; len(ch) != 1 || ch[0].RawTokenAmount.TokenAmount != "-1500000" || ch[0].UserAccount != a {
					t.Errorf("changes %+v", ch)
				}
			}},
		{"token transfer without balances: authority as sender", txb{keys: []string{a, c, d, token}, signed: 1,
			ixs: []map[string]any{ix(3, []int{1, 2, 0}, tokenData(3, 7))}},
			func(t *testing.T, p *Transaction) {
				if len(p.TokenTransfers) != 1 || p.TokenTransfers[0].FromUserAccount != a || p.TokenTransfers[0].ToUserAccount != "" ||
					p.TokenTransfers[0].TokenStandard != "UnknownStandard" || p.TokenTransfers[0].TokenAmount != "7" {
					t.Errorf("token %+v", p.TokenTransfers)
				}
			}},
		{"inner transfers, burn and createAccount", txb{keys: []string{a, b, c, mint, key(9), system, token}, signed: 1,
			ixs: []map[string]any{ix(4, []int{0}, []byte{9})},
			inner: []map[string]any{{"index": 0, "instructions": []any{
				map[string]any{"programIdIndex": 5, "accounts": []int{0, 1}, "data": base58.Encode(append(u32u64(0, 2_039_280), make([]byte, 40)...)), "stackHeight": 2},
				map[string]any{"programIdIndex": 6, "accounts": []int{2, 3, 0}, "data": base58.Encode(tokenData(15, 42, 0)), "stackHeight": 2},
			}}}},
			func(t *testing.T, p *Transaction) {
				if p.Type != TypeUnknown || p.Description != "" || p.Source != "UNKNOWN" {
					t.Errorf("summary %q %q %q", p.Type, p.Description, p.Source)
				}
				if len(p.NativeTransfers) != 1 || p.NativeTransfers[0] != (NativeTransfer{a, b, 2_039_280}) {
					t.Errorf("native %+v", p.NativeTransfers)
				}
				if len(p.TokenTransfers) != 1 || p.TokenTransfers[0].ToTokenAccount != "" || p.TokenTransfers[0].FromTokenAccount != c ||
					p.TokenTransfers[0].Mint != mint || p.TokenTransfers[0].RawTokenAmount.TokenAmount != "42" {
					t.Errorf("burn %+v", p.TokenTransfers)
				}
				in := p.Instructions[2]
				if len(p.Instructions) != 3 || in.InnerInstructionIndex == nil || *in.InnerInstructionIndex != 1 ||
					in.StackHeight == nil || *in.StackHeight != 2 || in.InstructionIndex != 0 || in.InstructionName != "burnChecked" {
					t.Errorf("flat list %+v", p.Instructions)
				}
				if p.Instructions[0].ProgramName != "" || p.Instructions[0].Decoded != nil {
					t.Errorf("unknown program decoded: %+v", p.Instructions[0])
				}
			}},
		{"failed: decoded error, no transfers", txb{keys: []string{a, c, d, token}, signed: 1,
			ixs:  []map[string]any{ix(3, []int{1, 2, 0}, tokenData(3, 7))},
			meta: map[string]any{"err": map[string]any{"InstructionError": []any{0, map[string]any{"Custom": 1}}}}},
			func(t *testing.T, p *Transaction) {
				e := p.TransactionError
				if p.TransactionStatus != "failed" || e == nil || string(e.Error) != `{"InstructionError":[0,{"Custom":1}]}` {
					t.Fatalf("error %+v", e)
				}
				if d := e.DecodedError; d == nil || d.InstructionIndex != 0 || d.ProgramID != token || d.Name != "InsufficientFunds" ||
					d.Code == nil || *d.Code != 1 || d.ProgramName != "Token Program" {
					t.Errorf("decoded %+v", e.DecodedError)
				}
				if len(p.TokenTransfers) != 0 || p.Type != TypeUnknown {
					t.Errorf("failed transaction moved tokens: %+v", p.TokenTransfers)
				}
			}},
		{"bad data is recorded, the rest parses", txb{keys: []string{a, b, system}, signed: 1,
			ixs: []map[string]any{ix(2, []int{0, 1}, []byte{2, 0, 0, 0, 1}), ix(2, []int{0, 1}, []byte{99, 0, 0, 0}), ix(2, []int{0}, u32u64(2, 5))}},
			func(t *testing.T, p *Transaction) {
				for i, want := range []string{"transfer: instruction data too short", "unknown System instruction 99", "transfer names 1 accounts, needs 2"} {
					if in := p.Instructions[i]; in.DecodeError != want || in.Decoded != nil || in.ProgramName != "System Program" {
						t.Errorf("%d: %q, want %q", i, in.DecodeError, want)
					}
				}
				if len(p.NativeTransfers) != 0 || p.Type != TypeUnknown {
					t.Errorf("transfers from undecodable instructions %+v", p.NativeTransfers)
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tx := tc.tx.build(t)
			tc.check(t, Parse(tx))
		})
	}
}

func TestUIAmount(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		dec  int
		want string
	}{
		{"0", 0, "0"}, {"1", 9, "0.000000001"}, {"100000000", 9, "0.1"}, {"-12510", 9, "-0.00001251"},
		{"18446744073709551615", 0, "18446744073709551615"}, {"123456789012345678901234567890", 2, "1234567890123456789012345678.9"},
		{"12x", 2, "0"},
	} {
		if got := uiAmount(tc.raw, tc.dec); string(got) != tc.want {
			t.Errorf("uiAmount(%s, %d) = %s, want %s", tc.raw, tc.dec, got, tc.want)
		}
	}
}

func TestTokenTables(t *testing.T) {
	if len(tokenNames) != len(tokenAccounts) {
		t.Fatalf("%d token names, %d account lists", len(tokenNames), len(tokenAccounts))
	}
	if !strings.HasPrefix(tokenNames[25], "initializeMintCloseAuthority") || tokenNames[44] != "pausableExtension" {
		t.Error("token-2022 names misaligned")
	}
}

func TestTokenMetadataNames(t *testing.T) {
	if len(tokenMetadataNames) != 58 {
		t.Fatalf("%d names", len(tokenMetadataNames))
	}
	for i, want := range map[int]string{15: "updateMetadataAccountV2", 33: "createMetadataAccountV3", 41: "burn", 42: "create", 49: "transfer", 57: "closeAccounts"} {
		if o, err := decodeTokenMetadata([]byte{byte(i), 0}, 0); err != nil || o.name != want {
			t.Errorf("%d: %q %v, want %q", i, o.name, err, want)
		}
	}
	if _, err := decodeTokenMetadata([]byte{58}, 0); err == nil {
		t.Error("index 58 decoded")
	}
}

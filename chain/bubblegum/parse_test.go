package bubblegum

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/dasch-labs/dasch/chain/solana"
)

func loadTx(t testing.TB, rel string) *solana.Tx {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "transactions", rel))
	if err != nil {
		t.Fatal(err)
	}
	tx, err := solana.ParseTx(raw)
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	return tx
}

func allTxs(t testing.TB) map[string]*solana.Tx {
	t.Helper()
	files, err := filepath.Glob("testdata/transactions/*/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixture transactions (%v)", err)
	}
	out := make(map[string]*solana.Tx, len(files))
	for _, f := range files {
		rel, _ := filepath.Rel("testdata/transactions", f)
		out[rel] = loadTx(t, rel)
	}
	return out
}

// Fixture transactions used by the unit tests.
const (
	txMintV1      = "mint_transfer_burn/5coWPFty37s7haT3SVyMf6PkTaABEnhCRhfDjXeMNS58czHB5dCFPY6VrsZNwxBnqypmNic1LbLp1j5qjbdnZAc8.json"
	txBurn        = "mint_transfer_burn/KHNhLijkAMeKeKm6kpbk3go6q9uMF3zmfCoYSBgERe8qJDW8q5ANpnkyBuyVkychXCeWzRY8i5EtKfeGaDDU23w.json"
	txRedeem      = "mint_redeem/4FQRV38NSP6gDo8qDbTBfy8UDHUd6Lzu4GXbHtfvWbtCArkVcbGQwinZ7M61eCmPEF5L8xu4tLAXL7ozbh5scfRi.json"
	txDecompress  = "mint_redeem/3Ct9n9hv5PWEYbsrgDdUDqegzsnX2n5jYRxkq5YafFAueup8mTYmN4nHhNCaEwVyVAVqNssr4fizdg9wRavT7ydE.json"
	txCPIMint     = "mint_redeem/55tQCoLUtHyu4i6Dny6SMdq4dVD61nuuLxXvRLeeQqE6xdm66Ajm4so39MXcJ2VaTmCNDEFBpitzLkiFaF7rNtHi.json"
	txFreezeV2    = "freeze_v2/k2HvVWRq9ctFaGrJURNipaTFMXZQH9AScqKxJFHQdpdeF4umWd5y2XbE1WCMP8Pe8gpQdLTeZsurpUA9wiwt4YX.json"
	txUpdateMeta  = "cnft_scenario_mint_update_metadata/3bsL5zmLKvhN9Je4snTKxjFSpmXEEg2cvMHm2rCNgaEYkNXBqJTA4N7QmvBSWPiNUQPtzJSYzpQYX92NowV3L7vN.json"
	txSetCollV2   = "remove_from_collection_using_set_collection_v2/3qpp1MZNxLW8PQcfjKz3hniVc34CktHnVmRzG7jak8PayfZHJqzh5BArC8ZRN7uyXcq9BdU6Leyfzt1SsKNAqrVM.json"
	assetBurnt    = "8vw7tdLGE3FBjaetsJrZAarwsbc8UESsegiLyvWXxs5A"
	assetRedeemed = "Az9QTysJj1LW1F7zkYF21HgBj3FRpq3zpxTFdPnAJYm8"
)

func TestParseFixtures(t *testing.T) {
	tests := []struct {
		tx      string
		ix      []string
		asset   string
		seq     uint64
		inner   int
		version uint8 // leaf version, 0 when no leaf
	}{
		{txMintV1, []string{IxMintV1}, assetBurnt, 1, -1, 1},
		{txBurn, []string{IxBurn}, assetBurnt, 3, -1, 0},
		{txRedeem, []string{IxRedeem}, assetRedeemed, 62, -1, 0},
		{txDecompress, []string{IxDecompressV1}, assetRedeemed, 0, -1, 0},
		{txCPIMint, []string{IxMintToCollectionV1}, assetRedeemed, 61, 1, 1},
		{txFreezeV2, []string{IxFreezeV2}, "", 3, -1, 2},
		{txUpdateMeta, []string{IxUpdateMetadata}, "FLFoCw2RBbxiw9rbEeqPWJ5rasArD9kTCKWEJirTexsU", 2, -1, 1},
		{txSetCollV2, []string{IxSetCollectionV2}, "", 2, -1, 2},
	}
	for _, tc := range tests {
		t.Run(strings.SplitN(tc.tx, "/", 2)[0]+"/"+tc.ix[0], func(t *testing.T) {
			evs, err := Parse(loadTx(t, tc.tx))
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, e := range evs {
				names = append(names, e.Instruction)
			}
			if !reflect.DeepEqual(names, tc.ix) {
				t.Fatalf("instructions %v, want %v", names, tc.ix)
			}
			e := evs[0]
			if tc.asset != "" && e.AssetID.String() != tc.asset {
				t.Errorf("asset %s, want %s", e.AssetID, tc.asset)
			}
			if e.Seq != tc.seq || e.Inner != tc.inner {
				t.Errorf("seq %d inner %d, want %d %d", e.Seq, e.Inner, tc.seq, tc.inner)
			}
			switch {
			case tc.version == 0 && e.Leaf != nil:
				t.Errorf("unexpected leaf %+v", e.Leaf)
			case tc.version != 0 && (e.Leaf == nil || e.Leaf.Version != tc.version):
				t.Errorf("leaf %+v, want version %d", e.Leaf, tc.version)
			}
			if e.ChangeLog != nil {
				// The asset id of every leaf is the PDA of its tree and nonce.
				id, err := AssetID(e.Tree, e.LeafID)
				if err != nil || id != e.AssetID {
					t.Errorf("asset id PDA %s (%v), event says %s", id, err, e.AssetID)
				}
				if len(e.ChangeLog.Path) == 0 {
					t.Error("changelog without path")
				}
			}
		})
	}
}

func TestParseDecodedArgs(t *testing.T) {
	evs, err := Parse(loadTx(t, txUpdateMeta))
	if err != nil || len(evs) != 1 {
		t.Fatalf("%v %v", evs, err)
	}
	e := evs[0]
	if e.Metadata == nil || e.Update == nil || e.Args == nil || e.Args.Nonce == nil || *e.Args.Nonce != e.LeafID {
		t.Fatalf("update_metadata decoded as %+v", e)
	}
	// This update replaces the three creators with two, the first verified.
	if u := e.Update; u.Creators == nil || len(*u.Creators) != 2 || !(*u.Creators)[0].Verified || u.Name != nil {
		t.Errorf("update args %+v, want two creators and nothing else", u)
	}
	if len(e.Metadata.Creators) != 3 || e.Metadata.Name != "test" {
		t.Errorf("current metadata %+v, want test with three creators", e.Metadata)
	}
	if e.Accounts["merkle_tree"] != e.Tree {
		t.Errorf("merkle_tree account %s, changelog tree %s", e.Accounts["merkle_tree"], e.Tree)
	}

	evs, err = Parse(loadTx(t, txSetCollV2))
	if err != nil || len(evs) != 1 {
		t.Fatalf("%v %v", evs, err)
	}
	if _, ok := evs[0].Accounts["new_core_collection"]; ok {
		t.Error("removal from a collection names a new collection")
	}
	if evs[0].Metadata == nil || evs[0].Metadata.Version != 2 || evs[0].Metadata.Collection == nil {
		t.Errorf("set_collection_v2 current metadata %+v, want V2 with the old collection", evs[0].Metadata)
	}
}

// TestEventJSONRoundTrip checks every fixture event survives the payload
// encoding the store uses.
func TestEventJSONRoundTrip(t *testing.T) {
	n := 0
	for name, tx := range allTxs(t) {
		evs, err := Parse(tx)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i := range evs {
			b, err := evs[i].MarshalPayload()
			if err != nil {
				t.Fatal(err)
			}
			back, err := UnmarshalEvent(b)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if !reflect.DeepEqual(*back, evs[i]) {
				t.Fatalf("%s: round trip changed the event:\n%s", name, b)
			}
			n++
		}
	}
	if n < 40 {
		t.Fatalf("only %d events in the fixtures", n)
	}
}

func TestUnmarshalEventErrors(t *testing.T) {
	tests := []struct {
		name, in string
	}{
		{"not json", `{`},
		{"empty object", `{}`},
		{"bad key", `{"signature":"s","instruction":"burn","asset_id":"0OIl"}`},
		{"short key", `{"signature":"s","instruction":"burn","tree":"abc"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if e, err := UnmarshalEvent([]byte(tc.in)); err == nil {
				t.Fatalf("got %+v, want an error", e)
			}
		})
	}
}

// withData returns a copy of tx whose first Bubblegum instruction carries
// data instead.
func withData(t testing.TB, tx *solana.Tx, data []byte) *solana.Tx {
	t.Helper()
	c := *tx
	c.Instructions = append([]solana.Instruction(nil), tx.Instructions...)
	c.Inner = append([]solana.InnerInstruction(nil), tx.Inner...)
	for i := range c.Instructions {
		if isLeafIx(&c.Instructions[i]) {
			c.Instructions[i].Data = data
			return &c
		}
	}
	t.Fatal("no top-level Bubblegum leaf instruction")
	return nil
}

// isLeafIx reports a Bubblegum instruction that acts on a leaf (fixtures
// also hold create_tree).
func isLeafIx(in *solana.Instruction) bool {
	if in.ProgramID != programID() || len(in.Data) < 8 {
		return false
	}
	name := instructionName(in.Data)
	return name != "" && !treeLevel(name)
}

// withNoop returns a copy of tx whose noop instructions carry data.
func withNoop(tx *solana.Tx, data []byte) *solana.Tx {
	c := *tx
	c.Inner = append([]solana.InnerInstruction(nil), tx.Inner...)
	for i := range c.Inner {
		if isNoop(c.Inner[i].ProgramID) {
			c.Inner[i].Data = data
		}
	}
	return &c
}

func bubblegumData(t testing.TB, tx *solana.Tx) []byte {
	t.Helper()
	for i := range tx.Instructions {
		if isLeafIx(&tx.Instructions[i]) {
			return tx.Instructions[i].Data
		}
	}
	t.Fatal("no top-level Bubblegum leaf instruction")
	return nil
}

func TestParseErrors(t *testing.T) {
	mint := loadTx(t, txMintV1)
	data := bubblegumData(t, mint)
	unknown := append([]byte{1, 2, 3, 4, 5, 6, 7, 8}, data[8:]...)
	badBool := bytes.Clone(data)
	// seller_fee (u16) follows three strings; the next byte is a bool.
	nameLen := int(data[8]) // names here are short
	symOff := 8 + 4 + nameLen
	symLen := int(data[symOff])
	uriOff := symOff + 4 + symLen
	uriLen := int(data[uriOff])
	badBool[uriOff+4+uriLen+2] = 7
	failed := *mint
	failed.Err = []byte(`{"InstructionError":[0,"Custom"]}`)
	nosig := *mint
	nosig.Signatures = nil

	tests := []struct {
		name    string
		tx      *solana.Tx
		wantErr bool
		wantN   int
	}{
		{"nil tx", nil, true, 0},
		{"no signature", &nosig, true, 0},
		{"failed tx", &failed, false, 0},
		{"unknown discriminator ignored", withData(t, mint, unknown), false, 0},
		{"tree-level instruction ignored", withData(t, mint, []byte{0xa5, 0x53, 0x88, 0x8e, 0x59, 0xca, 0x2f, 0xdc, 1}), false, 0},
		{"short discriminator", withData(t, mint, []byte{1, 2, 3}), true, 0},
		{"empty data", withData(t, mint, nil), true, 0},
		{"invalid bool", withData(t, mint, badBool), true, 0},
		{"huge string length", withData(t, mint, append(bytes.Clone(data[:8]), 0xff, 0xff, 0xff, 0x7f)), true, 0},
		{"no noop events", withNoop(mint, nil), true, 0},
		{"truncated changelog", withNoop(mint, []byte{0, 0, 1, 2, 3}), true, 0},
		{"foreign noop data ignored but no changelog", withNoop(mint, []byte{9, 9, 9}), true, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			evs, err := Parse(tc.tx)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err %v, want error %v", err, tc.wantErr)
			}
			if len(evs) != tc.wantN {
				t.Fatalf("%d events, want %d", len(evs), tc.wantN)
			}
		})
	}
}

// TestParseTruncatedArgs cuts real instruction data at every length: each
// cut must be an error (Borsh has no optional tail here), never a panic.
func TestParseTruncatedArgs(t *testing.T) {
	for _, name := range []string{txMintV1, txUpdateMeta, txSetCollV2, txFreezeV2} {
		tx := loadTx(t, name)
		data := bubblegumData(t, tx)
		for n := 8; n < len(data); n++ {
			if _, err := Parse(withData(t, tx, data[:n])); err == nil {
				t.Fatalf("%s cut at %d/%d: no error", name, n, len(data))
			} else if !errors.Is(err, ErrShort) && !strings.Contains(err.Error(), "invalid") {
				t.Fatalf("%s cut at %d: unexpected error %v", name, n, err)
			}
		}
	}
}

func FuzzParse(f *testing.F) {
	mint := loadTx(f, txMintV1)
	freeze := loadTx(f, txFreezeV2)
	for _, tx := range []*solana.Tx{mint, freeze} {
		f.Add(bubblegumData(f, tx), []byte{0, 0})
		for _, in := range tx.Inner {
			if isNoop(in.ProgramID) {
				f.Add(bubblegumData(f, tx), in.Data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data, noop []byte) {
		for _, base := range []*solana.Tx{mint, freeze} {
			tx := withData(t, base, data)
			evs, err := Parse(tx)
			if err == nil {
				for i := range evs {
					if _, err := evs[i].MarshalPayload(); err != nil {
						t.Fatal(err)
					}
				}
			}
			_, _ = Parse(withNoop(tx, noop))
		}
	})
}

package ingest

import (
	"errors"
	"fmt"
	"testing"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/ingest/decode"
	"github.com/dasch-labs/dasch/ingest/source"
)

// describe renders rows compactly: table, plus kind/key/error for dead letters.
func describe(rows []arrowbatch.Row) []string {
	var out []string
	for _, r := range rows {
		if d, ok := r.(*arrowbatch.DeadLetterRow); ok {
			out = append(out, fmt.Sprintf("dead %s %s %d %s payload=%q", d.Kind, d.Key, d.Slot, d.Error, d.Payload))
			continue
		}
		out = append(out, r.Table())
	}
	return out
}

func TestWorkerDecode(t *testing.T) {
	w := &worker{spec: "files:x", decoders: []decode.Decoder{decode.Raw{}}}
	height := uint64(9)
	cases := []struct {
		name    string
		item    source.Item
		decoded bool
		want    []string
	}{
		{"bad file", source.Item{Kind: source.KindBad, Key: "a.json", Raw: []byte("{"), Fail: "file", Err: errors.New("nope")},
			false, []string{`dead file a.json 0 nope payload="{"`}},
		{"bad item without reason", source.Item{Kind: source.KindBad, Key: "b.json"},
			false, []string{`dead file b.json 0 unusable item of kind bad payload=""`}},
		{"undecodable transaction", source.Item{Kind: source.KindTx, Slot: 5, Key: "t.json#2", Raw: []byte(`{"slot":5}`)},
			false, []string{`dead transaction t.json#2 5 transaction JSON: no transaction payload="{\"slot\":5}"`}},
		{"undecodable account", source.Item{Kind: source.KindAccount, Slot: 3, Key: "acc.json", Raw: []byte(`{"slot":3}`)},
			false, []string{`dead account acc.json 3 account JSON: no lamports payload="{\"slot\":3}"`}},
		{"block", source.Item{Kind: source.KindBlock, Slot: 7, Key: "7.json", Block: &solana.Block{Slot: 7, BlockHeight: &height}},
			true, []string{"blocks"}},
		{"block without header", source.Item{Kind: source.KindBlock, Slot: 7, Key: "7.json"},
			false, []string{`dead block 7.json 7 block item without a header payload=""`}},
		{"transaction", source.Item{Kind: source.KindTx, Slot: 40, Raw: testdata(t, photonTxs+"/"+mintSig+".json")},
			true, []string{"transactions"}},
		{"account", source.Item{Kind: source.KindAccount, Slot: 1, Raw: testdata(t, "das/accounts/"+rentMaxAcct+".json")},
			true, []string{"accounts"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := w.decode(c.item)
			got := describe(o.rows)
			if o.decoded != c.decoded || fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Fatalf("decoded=%v rows %q\nwant decoded=%v rows %q", o.decoded, got, c.decoded, c.want)
			}
		})
	}
}

func TestRawDecoderRows(t *testing.T) {
	tx, err := solana.ParseTx(testdata(t, dasTxs+"/"+dasLegacy+".json"))
	if err != nil {
		t.Fatal(err)
	}
	tx.TxIndex = 4
	var b decode.Batch
	if err := (decode.Raw{}).DecodeTx(tx, &b); err != nil {
		t.Fatal(err)
	}
	row := b.Rows()[0].(*arrowbatch.TxRow)
	// A null blockTime is stored as 0; no meta fee or compute units either.
	if row.BlockTime != 0 || row.TxIndex != 4 || row.Err != nil || row.ComputeUnits != nil || row.FeePayer != tx.AccountKeys[0] ||
		len(row.ProgramIDs) == 0 || row.Signature != tx.Signatures[0] || string(row.Raw) != string(tx.Raw) {
		t.Errorf("row %+v", row)
	}
}

package parsed

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/dasch-labs/dasch/chain/solana"
)

// FuzzDecoders runs every instruction decoder on arbitrary data: none may
// panic, and a decoded transfer names only accounts the instruction has.
func FuzzDecoders(f *testing.F) {
	for _, s := range [][]byte{nil, {2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0}, tokenData(12, 5, 6), {3, 1, 0, 0, 0, 0, 0, 0, 0},
		{26, 1, 1, 0, 0, 0, 0, 0, 0, 0, 6, 1, 0, 0, 0, 0, 0, 0, 0}, {6, 2, 1}, {11, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 255, 0, 0, 0, 0, 0, 0, 0}} {
		f.Add(s, uint8(4))
	}
	decoders := []decodeFunc{decodeSystem, decodeToken, decodeToken2022, decodeATA, decodeComputeBudget, decodeMemo, decodeTokenMetadata}
	f.Fuzz(func(t *testing.T, data []byte, n uint8) {
		for _, dec := range decoders {
			o, err := dec(data, int(n))
			if err != nil {
				continue
			}
			if o.name == "" {
				t.Fatal("decoded without a name")
			}
			if m := o.native; m != nil && (m.from >= int(n) || m.to >= int(n)) {
				t.Fatalf("%s moves lamports of accounts it lacks", o.name)
			}
			if m := o.token; m != nil && max(m.source, m.dest, m.authority, m.mint) >= int(n) {
				t.Fatalf("%s moves tokens of accounts it lacks", o.name)
			}
		}
	})
}

// FuzzParse parses arbitrary transaction JSON that the chain decoder
// accepts: Parse must not panic on any of it.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"slot":1,"transaction":{"signatures":["1111111111111111111111111111111111111111111111111111111111111111"],"message":{"accountKeys":["11111111111111111111111111111111"],"instructions":[{"programIdIndex":0,"accounts":[0,0],"data":"3Bxs4Bc3VYuGVB19"}]}},"meta":{"err":{"InstructionError":[0,{"Custom":1}]},"fee":5,"preBalances":[10],"postBalances":[5],"preTokenBalances":[{"accountIndex":0,"mint":"x","uiTokenAmount":{"amount":"-1","decimals":300}}]}}`))
	// Real transactions: Bubblegum mints, transfers and burns among them.
	files, _ := filepath.Glob(filepath.Join(root, "das/transactions/*/*.json"))
	for _, name := range files[:min(len(files), 6)] {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		tx, err := solana.ParseTx(raw)
		if err != nil || len(tx.Signatures) == 0 {
			return
		}
		p := Parse(tx)
		if len(p.Instructions) != len(tx.Instructions)+len(tx.Inner) {
			t.Fatal("instructions lost")
		}
	})
}

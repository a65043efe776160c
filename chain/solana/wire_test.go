package solana

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bin "github.com/gagliardetto/binary"
	sgo "github.com/gagliardetto/solana-go"
	"github.com/goccy/go-json"
)

// wireFixtures returns every base64 wire transaction in the photon test
// data, standalone and inside blocks.
func wireFixtures(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	root := filepath.Join("..", "testdata", "photon")
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
			return err
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var doc struct {
			Transaction  *[2]string `json:"transaction"`
			Transactions []struct {
				Transaction [2]string `json:"transaction"`
			} `json:"transactions"`
		}
		if err := json.Unmarshal(raw, &doc); err != nil {
			return err
		}
		if doc.Transaction != nil {
			out[path] = decode64(t, doc.Transaction[0])
		}
		for i, e := range doc.Transactions {
			out[fmt.Sprintf("%s#%d", path, i)] = decode64(t, e.Transaction[0])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func decode64(t *testing.T, s string) []byte {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestWireMatchesSolanaGo checks the hand-written wire decoder against the
// solana-go library on every fixture.
func TestWireMatchesSolanaGo(t *testing.T) {
	fixtures := wireFixtures(t)
	if len(fixtures) < 70 {
		t.Fatalf("only %d wire fixtures", len(fixtures))
	}
	versions := map[int]int{}
	for name, b := range fixtures {
		w, err := decodeWire(b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		ref, err := sgo.TransactionFromDecoder(bin.NewBinDecoder(b))
		if err != nil {
			t.Fatalf("%s: solana-go: %v", name, err)
		}
		versions[w.version]++
		m := ref.Message
		wantVersion := -1
		if m.IsVersioned() {
			wantVersion = int(m.GetVersion()) - 1 // solana-go counts legacy as 0
		}
		if w.version != wantVersion {
			t.Errorf("%s: version %d, want %d", name, w.version, wantVersion)
		}
		if len(w.sigs) != len(ref.Signatures) || (len(w.sigs) > 0 && w.sigs[0] != Signature(ref.Signatures[0])) {
			t.Errorf("%s: signatures differ", name)
		}
		if w.header != (Header{m.Header.NumRequiredSignatures, m.Header.NumReadonlySignedAccounts, m.Header.NumReadonlyUnsignedAccounts}) {
			t.Errorf("%s: header %+v vs %+v", name, w.header, m.Header)
		}
		if len(w.keys) != len(m.AccountKeys) || w.blockhash != Hash(m.RecentBlockhash) {
			t.Fatalf("%s: %d keys vs %d", name, len(w.keys), len(m.AccountKeys))
		}
		for i := range w.keys {
			if w.keys[i] != Pubkey(m.AccountKeys[i]) {
				t.Errorf("%s: key %d differs", name, i)
			}
		}
		if len(w.ins) != len(m.Instructions) {
			t.Fatalf("%s: %d instructions vs %d", name, len(w.ins), len(m.Instructions))
		}
		for i, in := range w.ins {
			r := m.Instructions[i]
			acc := make([]uint8, len(r.Accounts))
			for j, a := range r.Accounts {
				acc[j] = uint8(a)
			}
			if uint16(in.ProgramIndex) != r.ProgramIDIndex || !bytes.Equal(in.Accounts, acc) || !bytes.Equal(in.Data, r.Data) {
				t.Errorf("%s: instruction %d differs", name, i)
			}
		}
		lookups := 0
		for _, l := range m.AddressTableLookups {
			lookups += len(l.WritableIndexes) + len(l.ReadonlyIndexes)
		}
		if w.loadedCount() != lookups || len(w.lookups) != len(m.AddressTableLookups) {
			t.Errorf("%s: lookups differ", name)
		}
	}
	if versions[-1] == 0 || versions[0] == 0 {
		t.Errorf("fixtures cover versions %v: want legacy and v0", versions)
	}
}

func TestWireErrors(t *testing.T) {
	sig := bytes.Repeat([]byte{1}, 64)
	key := bytes.Repeat([]byte{2}, 32)
	legacy := func(extra ...byte) []byte {
		b := append([]byte{1}, sig...)
		b = append(b, 1, 0, 0, 1)
		b = append(b, key...)
		b = append(b, key...) // blockhash
		b = append(b, 0)      // no instructions
		return append(b, extra...)
	}
	if _, err := decodeWire(legacy()); err != nil {
		t.Fatalf("minimal legacy: %v", err)
	}
	cases := []struct {
		name string
		in   []byte
		want string
	}{
		{"empty", nil, "signature count"},
		{"short signature", append([]byte{1}, sig[:10]...), "signature 0"},
		{"trailing", legacy(9), "trailing"},
		{"version 1", append(append([]byte{1}, sig...), 0x81), "version 1"},
		{"long compact-u16", []byte{0x80, 0x80, 0x80, 0x01}, "longer than 3"},
		{"truncated keys", legacy()[:80], "account key"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := decodeWire(c.in)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
		})
	}
}

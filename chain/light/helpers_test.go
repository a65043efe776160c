package light

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/chain/solana"
)

// Fixtures are copied from the Photon conformance corpus (Apache-2.0, see
// testdata/LICENSE-Apache-2.0) with their file names unchanged.

func testTrees(t testing.TB) *TreeMap {
	t.Helper()
	f, err := os.Open("testdata/trees.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := LoadTrees(f)
	if err != nil {
		t.Fatal(err)
	}
	return NewTreeMap(m)
}

func loadTx(t testing.TB, set, sig string) *solana.Tx {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata/transactions", set, sig+".json"))
	if err != nil {
		t.Fatal(err)
	}
	tx, err := solana.ParseTx(raw)
	if err != nil {
		t.Fatalf("%s/%s: %v", set, sig, err)
	}
	return tx
}

// loadSet returns every transaction of a fixture set in slot order, the
// order Photon's tests index the batched sets in.
func loadSet(t *testing.T, set string) []*solana.Tx {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata/transactions", set, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("fixture set %s: %v (%d files)", set, err, len(files))
	}
	var txs []*solana.Tx
	for _, f := range files {
		sig := filepath.Base(f)
		txs = append(txs, loadTx(t, set, sig[:len(sig)-len(".json")]))
	}
	sort.SliceStable(txs, func(i, j int) bool { return txs[i].Slot < txs[j].Slot })
	return txs
}

func mustParse(t *testing.T, tx *solana.Tx, trees TreeLookup) *Events {
	t.Helper()
	ev, err := Parse(tx, trees)
	if err != nil {
		t.Fatalf("%s: %v", tx.Signatures[0], err)
	}
	return ev
}

// testCase is the part of a corpus case file the tests use.
type testCase struct {
	Name           string          `json:"name"`
	FixtureSets    []string        `json:"fixture_sets"`
	IndexOrder     []string        `json:"index_order"`
	IndexAsSlot    *uint64         `json:"index_as_slot"`
	Request        json.RawMessage `json:"request"`
	ExpectedResult json.RawMessage `json:"expected_result"`
}

func loadCase(t *testing.T, name string) *testCase {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata/cases", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var c testCase
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatalf("case %s: %v", name, err)
	}
	return &c
}

// indexCase parses the case's transactions in its index order, with the
// slot forced as the case asks.
func indexCase(t *testing.T, c *testCase, trees TreeLookup) []*Events {
	t.Helper()
	set := filepath.Base(c.FixtureSets[0])
	var out []*Events
	for _, sig := range c.IndexOrder {
		tx := loadTx(t, set, sig)
		if c.IndexAsSlot != nil {
			tx.Slot = *c.IndexAsSlot
		}
		out = append(out, mustParse(t, tx, trees))
	}
	return out
}

// unspent is what an index holds after applying events in order: every
// output not spent by a later (or the same) transaction.
func unspent(evs []*Events) []OutputAccount {
	spent := map[Hash]bool{}
	for _, ev := range evs {
		for _, in := range ev.Inputs {
			spent[in.Hash] = true
		}
	}
	var out []OutputAccount
	for _, ev := range evs {
		for _, o := range ev.Outputs {
			if !spent[o.Hash] {
				out = append(out, o)
			}
		}
	}
	return out
}

// wantAccount is an account as Photon's API returns it, V1 or V2 shape.
type wantAccount struct {
	Hash    string  `json:"hash"`
	Address *string `json:"address"`
	Data    *struct {
		Discriminator uint64 `json:"discriminator"`
		Data          string `json:"data"`
		DataHash      string `json:"dataHash"`
	} `json:"data"`
	Owner         string  `json:"owner"`
	Lamports      uint64  `json:"lamports"`
	Tree          string  `json:"tree"`
	LeafIndex     uint32  `json:"leafIndex"`
	Seq           *uint64 `json:"seq"`
	SlotCreated   uint64  `json:"slotCreated"`
	ProveByIndex  *bool   `json:"proveByIndex"`
	MerkleContext *struct {
		TreeType uint8  `json:"treeType"`
		Tree     string `json:"tree"`
		Queue    string `json:"queue"`
	} `json:"merkleContext"`
}

type wantToken struct {
	Mint     string  `json:"mint"`
	Owner    string  `json:"owner"`
	Amount   uint64  `json:"amount"`
	Delegate *string `json:"delegate"`
	State    string  `json:"state"`
	TLV      *string `json:"tlv"`
}

// checkAccount compares every field Photon serves for an account with what
// Parse produced for it.
func checkAccount(t *testing.T, want *wantAccount, token *wantToken, got *OutputAccount) {
	t.Helper()
	eq := func(field string, w, g any) {
		t.Helper()
		if w != g {
			t.Errorf("account %s: %s = %v, want %v", want.Hash, field, g, w)
		}
	}
	eq("hash", want.Hash, got.Hash.String())
	eq("owner", want.Owner, got.Owner.String())
	eq("lamports", want.Lamports, got.Lamports)
	eq("leafIndex", want.LeafIndex, got.LeafIndex)
	eq("slotCreated", want.SlotCreated, got.SlotCreated)
	if (want.Seq == nil) != (got.Seq == nil) || (want.Seq != nil && *want.Seq != *got.Seq) {
		t.Errorf("account %s: seq = %v, want %v", want.Hash, fmtOpt(got.Seq), fmtOpt(want.Seq))
	}
	if want.Address == nil {
		eq("address present", false, got.Address != nil)
	} else if got.Address == nil {
		t.Errorf("account %s: no address, want %s", want.Hash, *want.Address)
	} else {
		eq("address", *want.Address, base58.Encode(got.Address[:]))
	}
	if want.Data == nil {
		eq("data present", false, got.Data != nil)
	} else if got.Data == nil {
		t.Errorf("account %s: no data", want.Hash)
	} else {
		eq("discriminator", want.Data.Discriminator, discriminator(got.Data.Discriminator[:]))
		eq("data", want.Data.Data, base64.StdEncoding.EncodeToString(got.Data.Data))
		eq("dataHash", want.Data.DataHash, got.Data.DataHash.String())
	}
	tree := want.Tree
	if mc := want.MerkleContext; mc != nil {
		tree = mc.Tree
		eq("treeType", mc.TreeType, uint8(got.TreeType))
		eq("queue", mc.Queue, got.Queue.String())
	}
	eq("tree", tree, got.Tree.String())
	if want.ProveByIndex != nil {
		eq("proveByIndex", *want.ProveByIndex, got.InOutputQueue)
	}
	eq("unknown tree", false, got.UnknownTree)
	if token == nil {
		eq("token data present", false, got.Token != nil)
		return
	}
	if got.Token == nil {
		t.Errorf("account %s: no token data", want.Hash)
		return
	}
	td := got.Token
	eq("token mint", token.Mint, td.Mint.String())
	eq("token owner", token.Owner, td.Owner.String())
	eq("token amount", token.Amount, td.Amount)
	eq("token state", token.State, td.State.String())
	if token.Delegate == nil {
		eq("token delegate present", false, td.Delegate != nil)
	} else if td.Delegate == nil || td.Delegate.String() != *token.Delegate {
		t.Errorf("account %s: token delegate = %v, want %s", want.Hash, td.Delegate, *token.Delegate)
	}
	if token.TLV == nil {
		eq("token tlv present", false, td.TLV != nil)
	} else {
		eq("token tlv", *token.TLV, base64.StdEncoding.EncodeToString(td.TLV))
	}
}

func fmtOpt(v *uint64) any {
	if v == nil {
		return "null"
	}
	return *v
}

func findOutput(evs []*Events, h string) *OutputAccount {
	for _, ev := range evs {
		for i := range ev.Outputs {
			if ev.Outputs[i].Hash.String() == h {
				return &ev.Outputs[i]
			}
		}
	}
	return nil
}

func mustHash(t *testing.T, s string) Hash {
	t.Helper()
	b, err := base58.Decode(s)
	if err != nil || len(b) != 32 {
		t.Fatalf("hash %q: %v (%d bytes)", s, err, len(b))
	}
	return Hash(b)
}

func hashLess(a, b Hash) bool { return bytes.Compare(a[:], b[:]) < 0 }

func mustPubkey(t *testing.T, s string) solana.Pubkey {
	t.Helper()
	k, err := solana.ParsePubkey(s)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

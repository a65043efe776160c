package photon

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/goccy/go-json"
	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/api/photon/prover"
	"github.com/dasch-labs/dasch/chain/light"
	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/ingest/compressedstate"
	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/server/jsonrpc"
	"github.com/dasch-labs/dasch/store"
)

// proofEnv is an indexed store with a V1 state tree (key 200, queue 201)
// holding leaves 0, 1 and 5, and the V1 address tree amt1 holding one
// inserted address; inner nodes come from the real state step.
type proofEnv struct {
	*env
	stateTree, addrQueue compressed.Key
	inserted             compressed.Key // the address in amt1
}

// leafHash makes a distinct hash below the field modulus.
func leafHash(b byte) compressed.Key {
	k := key(b)
	k[0], k[1] = 0, b
	return k
}

func newProofEnv(t *testing.T) *proofEnv {
	e := &proofEnv{env: newEnv(t, true), stateTree: key(200), addrQueue: key(211)}
	e.exec(`INSERT INTO state_trees (tree, queue, tree_type, height, root_history_capacity) VALUES
		({t:FixedString(32)}, {q:FixedString(32)}, 1, 26, 2400),
		({a:FixedString(32)}, {aq:FixedString(32)}, 2, 26, 2400)`,
		store.Params{"t": raw(e.stateTree), "q": raw(key(201)), "a": raw(v1AddressTree), "aq": raw(e.addrQueue)})
	for i, leaf := range []uint64{0, 1, 5} {
		h := leafHash(byte(10 + i))
		e.exec(`INSERT INTO compressed_accounts (hash, tree, queue, tree_type, leaf_index, seq, in_output_queue, slot_created, owner, lamports, is_token, mint, token_owner, amount, token_state)
			VALUES ({h:FixedString(32)}, {t:FixedString(32)}, {q:FixedString(32)}, 1, {l:UInt64}, {s:UInt64}, false, 0, {o:FixedString(32)}, 0, false, {z:FixedString(32)}, {z:FixedString(32)}, 0, 0)`,
			store.Params{"h": raw(h), "t": raw(e.stateTree), "q": raw(key(201)), "l": u(leaf), "s": u(uint64(i + 1)), "o": raw(key(250)), "z": raw(compressed.Key{})})
		e.leaf(e.stateTree, leaf, h, uint64(i+1))
	}
	// amt1 after one insert: 0 -> X -> highest.
	e.inserted = leafHash(77)
	els := light.InitialAddressElements(light.TreeAddressV1)
	els[0].NextIndex, els[0].NextValue = 2, e.inserted
	els = append(els, light.IndexedElement{Value: e.inserted, NextIndex: 1, NextValue: light.HighestAddressPlusOne, Index: 2})
	for i, el := range els {
		h, err := light.AddressLeafHash(el, light.TreeAddressV1)
		if err != nil {
			t.Fatal(err)
		}
		seq := map[int]uint64{0: 4, 1: 0, 2: 5}[i]
		e.leaf(v1AddressTree, el.Index, compressed.Key(h), seq)
		e.exec(`INSERT INTO address_tree_elements (tree, leaf_idx, value, next_index, next_value, seq, slot) VALUES
			({t:FixedString(32)}, {i:UInt64}, {v:FixedString(32)}, {ni:UInt64}, {nv:FixedString(32)}, {s:UInt64}, 0)`,
			store.Params{"t": raw(v1AddressTree), "i": u(el.Index), "v": string(el.Value[:]), "ni": u(el.NextIndex), "nv": string(el.NextValue[:]), "s": u(seq)})
	}
	e.step()
	return e
}

func (e *proofEnv) leaf(tree compressed.Key, idx uint64, h compressed.Key, seq uint64) {
	e.t.Helper()
	e.exec(`INSERT INTO state_tree_nodes (tree, node_idx, level, hash, seq, leaf_idx, slot) VALUES
		({t:FixedString(32)}, {n:UInt64}, 0, {h:FixedString(32)}, {s:UInt64}, {l:UInt64}, 0)`,
		store.Params{"t": raw(tree), "n": u(1<<26 + idx), "h": raw(h), "s": u(seq), "l": u(idx)})
}

func (e *proofEnv) step() {
	e.t.Helper()
	if err := compressedstate.NewStateStep().Apply(context.Background(), e.s, 0, 0); err != nil {
		e.t.Fatal(err)
	}
}

// fold recomputes the root from a leaf, its index and its proof.
func fold(t *testing.T, leaf compressed.Key, idx uint64, proof []any) string {
	t.Helper()
	node := light.Hash(leaf)
	for l, p := range proof {
		sib := light.Hash(mustB58(t, p.(string)))
		var err error
		if idx>>l&1 == 0 {
			node, err = light.NodeHash(node, sib)
		} else {
			node, err = light.NodeHash(sib, node)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return node.String()
}

func mustB58(t *testing.T, s string) compressed.Key {
	t.Helper()
	b, err := base58.Decode(s)
	if err != nil || len(b) != 32 {
		t.Fatalf("base58 %q", s)
	}
	return compressed.Key(b)
}

func member(v any, path ...string) any {
	for _, p := range path {
		v = v.(map[string]any)[p]
	}
	return v
}

func TestAccountProofs(t *testing.T) {
	e := newProofEnv(t)
	res := e.mustCall("getMultipleCompressedAccountProofs", `["`+keyB58(leafHash(12))+`","`+keyB58(leafHash(10))+`"]`)
	items := member(res, "value").([]any)
	if len(items) != 2 {
		t.Fatalf("items %v", items)
	}
	for i, want := range []struct {
		hash compressed.Key
		leaf uint64
	}{{leafHash(12), 5}, {leafHash(10), 0}} {
		it := items[i].(map[string]any)
		if it["hash"] != keyB58(want.hash) || it["leafIndex"].(json.Number).String() != u(want.leaf) {
			t.Errorf("item %d: %v", i, it)
		}
		if it["rootSeq"].(json.Number).String() != "3" || it["merkleTree"] != keyB58(e.stateTree) {
			t.Errorf("item %d: rootSeq/tree %v %v", i, it["rootSeq"], it["merkleTree"])
		}
		proof := it["proof"].([]any)
		if len(proof) != 26 {
			t.Fatalf("proof length %d", len(proof))
		}
		if got := fold(t, want.hash, want.leaf, proof); got != it["root"] {
			t.Errorf("item %d: proof folds to %s, root %s", i, got, it["root"])
		}
	}
	// The single form answers the same proof.
	one := e.mustCall("getCompressedAccountProof", `{"hash":"`+keyB58(leafHash(12))+`"}`)
	if !reflect.DeepEqual(member(one, "value"), items[0]) {
		t.Errorf("single proof %v, want %v", member(one, "value"), items[0])
	}
	v2 := member(e.mustCall("getCompressedAccountProofV2", `{"hash":"`+keyB58(leafHash(12))+`"}`), "value").(map[string]any)
	if v2["proveByIndex"] != false || v2["root"] != items[0].(map[string]any)["root"] ||
		!reflect.DeepEqual(v2["treeContext"], asJSON(t, `{"treeType":1,"tree":"`+keyB58(e.stateTree)+`","queue":"`+keyB58(key(201))+`","cpiContext":null,"nextTreeContext":null}`)) {
		t.Errorf("V2 proof %v", v2)
	}
	if got := e.mustCall("getMultipleCompressedAccountProofs", `[]`); !reflect.DeepEqual(got, asJSON(t, `{"context":{"slot":7},"value":[]}`)) {
		t.Errorf("empty list: %v", got)
	}
}

// TestNullifiedAccountProof nullifies leaf 0 (a forester update at a later
// seq): the V1 methods no longer prove it, V2 proves it by index, and the
// other leaves' proofs see the new root.
func TestNullifiedAccountProof(t *testing.T) {
	e := newProofEnv(t)
	e.leaf(e.stateTree, 0, compressed.Key{}, 4)
	e.step()
	_, err := e.call("getCompressedAccountProof", `{"hash":"`+keyB58(leafHash(10))+`"}`)
	if err == nil || err.Message != "Record Not Found: Leaf nodes not found for hashes. Got 0 hashes. Expected 1." {
		t.Errorf("nullified account: %v", err)
	}
	v2 := member(e.mustCall("getMultipleCompressedAccountProofsV2", `["`+keyB58(leafHash(10))+`"]`), "value").([]any)
	if v2[0].(map[string]any)["proveByIndex"] != true {
		t.Errorf("V2 %v", v2)
	}
	it := member(e.mustCall("getMultipleCompressedAccountProofs", `["`+keyB58(leafHash(11))+`"]`), "value").([]any)[0].(map[string]any)
	if it["rootSeq"].(json.Number).String() != "4" || fold(t, leafHash(11), 1, it["proof"].([]any)) != it["root"] {
		t.Errorf("after nullification: %v", it)
	}
	if p0 := it["proof"].([]any)[0]; p0 != "11111111111111111111111111111111" {
		t.Errorf("sibling of leaf 1 is %v, want the zero leaf", p0)
	}
}

func TestNewAddressProofs(t *testing.T) {
	e := newProofEnv(t)
	above := key(250) // above the inserted address: its low element is leaf 2
	above[0], above[1] = 0, 0xf0
	below := leafHash(5) // below it: the low element is leaf 0
	res := e.mustCall("getMultipleNewAddressProofs", `["`+keyB58(above)+`","`+keyB58(below)+`"]`)
	items := member(res, "value").([]any)
	for i, want := range []struct {
		addr                compressed.Key
		low, next           uint64
		lowValue, nextValue compressed.Key
	}{
		{above, 2, 1, e.inserted, light.HighestAddressPlusOne},
		{below, 0, 2, compressed.Key{}, e.inserted},
	} {
		it := items[i].(map[string]any)
		if it["address"] != keyB58(want.addr) || it["lowElementLeafIndex"].(json.Number).String() != u(want.low) ||
			it["nextIndex"].(json.Number).String() != u(want.next) || it["lowerRangeAddress"] != keyB58(want.lowValue) ||
			it["higherRangeAddress"] != keyB58(want.nextValue) || it["rootSeq"].(json.Number).String() != "5" {
			t.Errorf("item %d: %v", i, it)
		}
		el := light.IndexedElement{Value: want.lowValue, NextIndex: want.next, NextValue: want.nextValue}
		h, err := light.AddressLeafHash(el, light.TreeAddressV1)
		if err != nil {
			t.Fatal(err)
		}
		if got := fold(t, compressed.Key(h), want.low, it["proof"].([]any)); got != it["root"] {
			t.Errorf("item %d: proof folds to %s, root %s", i, got, it["root"])
		}
	}
	v2 := e.mustCall("getMultipleNewAddressProofsV2", `[{"address":"`+keyB58(above)+`","tree":"`+keyB58(v1AddressTree)+`"},{"tree":"`+keyB58(v1AddressTree)+`","address":"`+keyB58(below)+`"}]`)
	if !reflect.DeepEqual(v2, res) {
		t.Errorf("V2 %v, want %v", v2, res)
	}
}

func TestValidityProofs(t *testing.T) {
	e := newProofEnv(t)
	addr := key(250)
	addr[0], addr[1] = 0, 0xf0
	v1Params := `{"hashes":["` + keyB58(leafHash(11)) + `"],"newAddresses":["` + keyB58(addr) + `"]}`
	// Without a prover, V1 says so rather than answer a null proof.
	if _, err := e.call("getValidityProof", v1Params); err == nil || err.Code != -32000 || !strings.Contains(err.Message, "--prover") {
		t.Errorf("without a prover: %v, want -32000 naming --prover", err)
	}
	acc := member(e.mustCall("getCompressedAccountProof", `{"hash":"`+keyB58(leafHash(11))+`"}`), "value").(map[string]any)
	ad := member(e.mustCall("getMultipleNewAddressProofs", `["`+keyB58(addr)+`"]`), "value").([]any)[0].(map[string]any)

	// With one: the loopback stand-in checks the request against the
	// prover's format and the proofs just read, and answers a proof.
	var got map[string]any
	stand := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		if r.URL.Path != "/prove" || dec.Decode(&got) != nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		_, _ = io.WriteString(w, `{"ar":["0x1","0x2"],"bs":[["0x0","0x0"],["0x0","0x0"]],"krs":["0x1","0x2"]}`)
	}))
	defer stand.Close()
	pc, err := prover.New(stand.URL, prover.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pe := *e.env
	pe.reg = jsonrpc.NewRegistry()
	Register(pe.reg, Deps{Store: e.s, Slots: checkpoint.NewSlotCache(e.s, 0), Prover: pc})
	v1 := member(pe.mustCall("getValidityProof", v1Params), "value").(map[string]any)
	hexOf := func(b58 any) string {
		k, err := base58.Decode(b58.(string))
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("0x%064x", k)
	}
	hexList := func(l any) []any {
		var out []any
		for _, x := range l.([]any) {
			out = append(out, hexOf(x))
		}
		return out
	}
	inclusion := got["inputCompressedAccounts"].([]any)[0].(map[string]any)
	nonInclusion := got["newAddresses"].([]any)[0].(map[string]any)
	for _, c := range []struct {
		name      string
		got, want any
	}{
		{"circuitType", got["circuitType"], "combined"},
		{"stateTreeHeight", got["stateTreeHeight"], json.Number("26")},
		{"addressTreeHeight", got["addressTreeHeight"], json.Number("26")},
		{"no publicInputHash", got["publicInputHash"], nil},
		{"root", inclusion["root"], hexOf(acc["root"])},
		{"leaf", inclusion["leaf"], hexOf(keyB58(leafHash(11)))},
		{"pathIndex", inclusion["pathIndex"], json.Number("1")},
		{"pathElements", inclusion["pathElements"], hexList(acc["proof"])},
		{"address root", nonInclusion["root"], hexOf(ad["root"])},
		{"value", nonInclusion["value"], hexOf(keyB58(addr))},
		{"address pathIndex", nonInclusion["pathIndex"], ad["lowElementLeafIndex"]},
		{"address pathElements", nonInclusion["pathElements"], hexList(ad["proof"])},
		{"leafLowerRangeValue", nonInclusion["leafLowerRangeValue"], hexOf(ad["lowerRangeAddress"])},
		{"leafHigherRangeValue", nonInclusion["leafHigherRangeValue"], hexOf(ad["higherRangeAddress"])},
		{"nextIndex", nonInclusion["nextIndex"], ad["nextIndex"]},
	} {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("prover request %s = %v, want %v", c.name, c.got, c.want)
		}
	}
	// A = -(1, 2) compresses to x = 1 with the flag, C = (1, 2) to x = 1.
	wantProof := asJSON(t, `{"a":[128`+strings.Repeat(",0", 30)+`,1],"b":[0`+strings.Repeat(",0", 63)+`],"c":[0`+strings.Repeat(",0", 30)+`,1]}`)
	if !reflect.DeepEqual(v1["compressedProof"], wantProof) {
		t.Errorf("compressedProof %v, want %v", v1["compressedProof"], wantProof)
	}
	// V2 with the prover: the same proof, from the same request.
	got = nil
	v2p := member(pe.mustCall("getValidityProofV2", `{"hashes":["`+keyB58(leafHash(11))+`"],"newAddressesWithTrees":[{"address":"`+keyB58(addr)+`","tree":"`+keyB58(v1AddressTree)+`"}]}`), "value").(map[string]any)
	if !reflect.DeepEqual(v2p["compressedProof"], wantProof) || got["circuitType"] != "combined" || len(got["inputCompressedAccounts"].([]any)) != 1 {
		t.Errorf("V2 with a prover: compressedProof %v, prover request %v", v2p["compressedProof"], got)
	}
	stand.Close()
	if _, err := pe.call("getValidityProof", v1Params); err == nil || err.Message != "Prover unavailable" {
		t.Errorf("prover gone: %v", err)
	}
	want := map[string]any{
		"roots":       []any{acc["root"], ad["root"]},
		"rootIndices": []any{json.Number("3"), json.Number("5")},
		"leafIndices": []any{json.Number("1"), json.Number("2")},
		"leaves":      []any{keyB58(leafHash(11)), keyB58(addr)},
		"merkleTrees": []any{keyB58(e.stateTree), keyB58(v1AddressTree)},
	}
	for k, w := range want {
		if !reflect.DeepEqual(v1[k], w) {
			t.Errorf("%s = %v, want %v", k, v1[k], w)
		}
	}
	v2 := member(e.mustCall("getValidityProofV2", `{"hashes":["`+keyB58(leafHash(11))+`"],"newAddressesWithTrees":[{"address":"`+keyB58(addr)+`","tree":"`+keyB58(v1AddressTree)+`"}]}`), "value")
	wantV2 := asJSON(t, `{"compressedProof":null,"accounts":[{"hash":"`+keyB58(leafHash(11))+`","root":"`+acc["root"].(string)+`",`+
		`"rootIndex":{"rootIndex":3,"proveByIndex":false},"leafIndex":1,"merkleContext":{"treeType":1,"tree":"`+keyB58(e.stateTree)+`","queue":"`+keyB58(key(201))+`","cpiContext":null,"nextTreeContext":null}}],`+
		`"addresses":[{"address":"`+keyB58(addr)+`","root":"`+ad["root"].(string)+`","rootIndex":5,"merkleContext":{"treeType":2,"tree":"`+keyB58(v1AddressTree)+`","queue":"`+keyB58(e.addrQueue)+`","cpiContext":null,"nextTreeContext":null}}]}`)
	if !reflect.DeepEqual(v2, wantV2) {
		t.Errorf("V2 %v\nwant %v", v2, wantV2)
	}
}

func TestProofErrors(t *testing.T) {
	e := newProofEnv(t)
	h := keyB58(leafHash(10))
	many := func(n int, s string) string {
		return "[" + strings.TrimSuffix(strings.Repeat(`"`+s+`",`, n), ",") + "]"
	}
	tree := keyB58(v1AddressTree)
	tests := []struct {
		name, method, params string
		code                 int
		msg                  string
	}{
		{"bad base58", "getMultipleCompressedAccountProofs", `["0OIl"]`, -32602, "Invalid hash input"},
		{"wrong size", "getMultipleCompressedAccountProofs", `["` + base58.Encode([]byte{1, 2, 3}) + `"]`, -32602, "String is the wrong size"},
		{"object for a list", "getMultipleCompressedAccountProofs", `{"hashes":[]}`, -32602, "invalid type: map, expected a sequence"},
		{"too many hashes", "getMultipleCompressedAccountProofs", many(1001, h), -32000, "Validation Error: Too many hashes requested 1001. Maximum allowed: 1000"},
		{"unknown hash", "getMultipleCompressedAccountProofs", `["` + h + `","` + keyB58(leafHash(99)) + `"]`, -32000, "Record Not Found: Leaf nodes not found for hashes. Got 1 hashes. Expected 2."},
		{"unknown hash V2", "getMultipleCompressedAccountProofsV2", `["` + keyB58(leafHash(99)) + `"]`, -32000, "Record Not Found: Some accounts not found"},
		{"single unknown V2", "getCompressedAccountProofV2", `{"hash":"` + keyB58(leafHash(99)) + `"}`, -32000, "Record Not Found: Account not found"},
		{"missing hash", "getCompressedAccountProof", `{}`, -32602, "missing field `hash`"},
		{"unknown field", "getCompressedAccountProof", `{"hash":"` + h + `","x":1}`, -32602, "unknown field `x`, expected `hash`"},
		{"no addresses", "getMultipleNewAddressProofs", `[]`, -32000, "Validation Error: No addresses provided"},
		{"too many addresses", "getMultipleNewAddressProofs", many(51, h), -32000, "Validation Error: Too many addresses requested 51. Maximum allowed: 50"},
		{"bad address", "getMultipleNewAddressProofs", `["abc!"]`, -32602, "Invalid Base58 string"},
		{"missing tree", "getMultipleNewAddressProofsV2", `[{"address":"` + h + `"}]`, -32602, "missing field `tree`"},
		{"unknown element field", "getMultipleNewAddressProofsV2", `[{"address":"` + h + `","tree":"` + tree + `","x":1}]`, -32602, "unknown field `x`, expected `address` or `tree`"},
		{"state tree as address tree", "getMultipleNewAddressProofsV2", `[{"address":"` + h + `","tree":"` + keyB58(e.stateTree) + `"}]`, -32000, "Record Not Found: Address tree not found: " + keyB58(e.stateTree)},
		{"empty validity", "getValidityProof", `{}`, -32000, "Validation Error: No hashes or new addresses provided for proof generation"},
		{"both address forms", "getValidityProof", `{"newAddresses":["` + h + `"],"newAddressesWithTrees":[{"address":"` + h + `","tree":"` + tree + `"}]}`, -32000, "Validation Error: Cannot provide both newAddresses and newAddressesWithTree"},
		{"V2 has no newAddresses", "getValidityProofV2", `{"newAddresses":[]}`, -32602, "unknown field `newAddresses`, expected `hashes` or `newAddressesWithTrees`"},
		{"unknown validity hash", "getValidityProof", `{"hashes":["` + keyB58(leafHash(99)) + `"]}`, -32000, "Record Not Found: Leaf nodes not found for hashes. Got 0 hashes. Expected 1."},
		{"unknown V2 validity hash", "getValidityProofV2", `{"hashes":["` + keyB58(leafHash(99)) + `"]}`, -32000, "Validation Error: Not all hashes exist. (Might be spent)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.call(tc.method, tc.params)
			if err == nil {
				t.Fatal("no error")
			}
			if err.Code != tc.code || !strings.Contains(err.Message, tc.msg) {
				t.Errorf("error %d %q, want %d %q", err.Code, err.Message, tc.code, tc.msg)
			}
		})
	}
}

// TestEmptyAddressTree is the proof against amt1 before any insert.
func TestEmptyAddressTree(t *testing.T) {
	e := newEnv(t, true)
	e.exec(`INSERT INTO state_trees (tree, queue, tree_type, height, root_history_capacity) VALUES ({a:FixedString(32)}, {q:FixedString(32)}, 2, 26, 2400)`,
		store.Params{"a": raw(v1AddressTree), "q": raw(key(211))})
	it := member(e.mustCall("getMultipleNewAddressProofs", `["`+keyB58(key(9))+`"]`), "value").([]any)[0].(map[string]any)
	if it["root"] != "3FrGzyXtjqjnukHDS2M5oyVj8tMVcHSahcHpWBGR5MHY" || it["rootSeq"].(json.Number).String() != "3" ||
		it["nextIndex"].(json.Number).String() != "1" || it["lowElementLeafIndex"].(json.Number).String() != "0" {
		t.Errorf("empty tree proof %v", it)
	}
}

package das

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goccy/go-json"
	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/chain/cmt"
	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/ingest/decoders"
	"github.com/dasch-labs/dasch/ingest/source"
)

// corpusTxs is the shared corpus's transaction fixtures.
const corpusTxs = "../../../shared/corpus/das/transactions"

// Fixture transactions of the corpus: a tree whose whole history they
// hold (created in the mint's transaction) and one whose earlier history
// is missing.
const (
	txMint        = "mint_transfer_burn/5coWPFty37s7haT3SVyMf6PkTaABEnhCRhfDjXeMNS58czHB5dCFPY6VrsZNwxBnqypmNic1LbLp1j5qjbdnZAc8.json"
	txTransfer    = "mint_transfer_burn/k6jmJcurgBQ6F2bVa86Z1vGb7ievzxwRZ8GAqzFEG8HicDizxceYPUm1KTzWZ3QKtGgy1EuFWUGCRqBeKU9SAoJ.json"
	txBurn        = "mint_transfer_burn/KHNhLijkAMeKeKm6kpbk3go6q9uMF3zmfCoYSBgERe8qJDW8q5ANpnkyBuyVkychXCeWzRY8i5EtKfeGaDDU23w.json"
	txCPIMint     = "mint_redeem/55tQCoLUtHyu4i6Dny6SMdq4dVD61nuuLxXvRLeeQqE6xdm66Ajm4so39MXcJ2VaTmCNDEFBpitzLkiFaF7rNtHi.json"
	assetBurnt    = "8vw7tdLGE3FBjaetsJrZAarwsbc8UESsegiLyvWXxs5A"
	assetRedeemed = "Az9QTysJj1LW1F7zkYF21HgBj3FRpq3zpxTFdPnAJYm8"
	treeBurnt     = "CnBt2TJrw1dXUBfVBf2Ah4Cz5s84jhBG7cejdPF19Eyh"
)

// indexPaths ingests files, one pipeline run per group, each group in its
// order (a group's slots must not decrease).
func (e *env) indexPaths(groups ...[]string) {
	e.t.Helper()
	for _, g := range groups {
		cfg := ingest.Config{Store: e.s, Source: source.NewFileList(g)}
		if err := decoders.Configure(context.Background(), e.s, &cfg, decoders.Options{AssetsOnly: true}); err != nil {
			e.t.Fatal(err)
		}
		if _, err := ingest.Run(context.Background(), cfg); err != nil {
			e.t.Fatalf("index %v: %v", g, err)
		}
	}
}

// indexCorpus ingests corpus transactions, one run each, in order.
func (e *env) indexCorpus(files ...string) {
	e.t.Helper()
	for _, f := range files {
		e.indexPaths([]string{filepath.Join(corpusTxs, f)})
	}
}

// decodeProof decodes an answer's proof and checks it: the proof hashes
// the leaf at its node index to the root.
func decodeProof(t *testing.T, raw json.RawMessage) *AssetProof {
	t.Helper()
	var p AssetProof
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatalf("proof %s: %v", raw, err)
	}
	key := func(s string) cmt.Node {
		b, err := base58.Decode(s)
		if err != nil || len(b) != 32 {
			t.Fatalf("%q is not a base58 hash", s)
		}
		return cmt.Node(b)
	}
	depth := len(p.Proof)
	if depth < 1 || p.NodeIndex < 1<<depth || p.NodeIndex >= 2<<depth {
		t.Fatalf("node_index %d with %d proof nodes", p.NodeIndex, depth)
	}
	sib := make([]cmt.Node, depth)
	for i, s := range p.Proof {
		sib[i] = key(s)
	}
	if err := cmt.Verify(key(p.Root), key(p.Leaf), p.NodeIndex-1<<depth, sib); err != nil {
		t.Fatalf("returned proof does not verify: %v", err)
	}
	return &p
}

// TestGetAssetProofFixtures serves proofs of real cNFT transactions: the
// proof verifies against the root, whatever order the transactions were
// indexed in; the leaf and its hashes are getAsset's; a burnt leaf is
// empty and has no hashes; a tree whose earlier history is not indexed
// gets no proof rather than a wrong one.
func TestGetAssetProofFixtures(t *testing.T) {
	type compression struct {
		DataHash    string `json:"data_hash"`
		CreatorHash string `json:"creator_hash"`
		AssetHash   string `json:"asset_hash"`
		Seq         uint64 `json:"seq"`
	}
	tests := []struct {
		name   string
		txs    []string
		id     string
		burnt  bool
		status int
		msg    string
	}{
		{"mint", []string{txMint}, assetBurnt, false, 200, ""},
		{"mint, transfer", []string{txMint, txTransfer}, assetBurnt, false, 200, ""},
		{"transfer, mint", []string{txTransfer, txMint}, assetBurnt, false, 200, ""},
		{"burn, mint, transfer", []string{txBurn, txMint, txTransfer}, assetBurnt, true, 200, ""},
		{"history before the mint missing", []string{txCPIMint}, assetRedeemed, false, 404,
			"Asset Proof for " + assetRedeemed + " Not Found: the indexed history of its tree is incomplete"},
		{"unknown asset", []string{txMint}, "11111111111111111111111111111111", false, 404,
			"Asset Proof for 11111111111111111111111111111111 Not Found"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.indexCorpus(tc.txs...)
			a := e.call("getAssetProof", `{"id":"`+tc.id+`"}`)
			if a.Status != tc.status {
				t.Fatalf("HTTP %d %+v, want %d", a.Status, a.Error, tc.status)
			}
			if tc.status != 200 {
				if a.Error == nil || a.Error.Code != codeNotFound || a.Error.Message != tc.msg {
					t.Fatalf("error %+v, want %d %q", a.Error, codeNotFound, tc.msg)
				}
				// The batch answers null for it.
				b := e.call("getAssetProofs", `{"ids":["`+tc.id+`"]}`)
				if b.Status != 200 || string(b.Result) != `{"`+tc.id+`":null}` {
					t.Fatalf("batch: HTTP %d %s %+v", b.Status, b.Result, b.Error)
				}
				return
			}
			p := decodeProof(t, a.Result)
			if p.TreeID != treeBurnt || p.NodeIndex != 1<<14 || p.LastIndexedSlot == 0 {
				t.Errorf("tree %s node_index %d last_indexed_slot %d", p.TreeID, p.NodeIndex, p.LastIndexedSlot)
			}
			g := e.call("getAsset", `{"id":"`+tc.id+`"}`)
			var asset struct {
				Compression compression `json:"compression"`
			}
			if err := json.Unmarshal(g.Result, &asset); err != nil {
				t.Fatal(err)
			}
			switch {
			case tc.burnt:
				if p.Leaf != "11111111111111111111111111111111" || p.DataHash != nil || p.CreatorHash != nil {
					t.Errorf("burnt: leaf %s data_hash %v", p.Leaf, p.DataHash)
				}
			case p.Leaf != asset.Compression.AssetHash || p.DataHash == nil || *p.DataHash != asset.Compression.DataHash ||
				p.CreatorHash == nil || *p.CreatorHash != asset.Compression.CreatorHash:
				t.Errorf("proof leaf %s data %v creator %v, getAsset %+v", p.Leaf, p.DataHash, p.CreatorHash, asset.Compression)
			}
			// Positional params, and the batch, answer the same proof.
			pos := e.call("getAssetProof", `["`+tc.id+`"]`)
			if string(pos.Result) != string(a.Result) {
				t.Errorf("positional: %s, named: %s", pos.Result, a.Result)
			}
			for _, m := range []string{"getAssetProofBatch", "getAssetProofs"} {
				b := e.call(m, `{"ids":["`+tc.id+`","11111111111111111111111111111111"]}`)
				var got map[string]*json.RawMessage
				if err := json.Unmarshal(b.Result, &got); err != nil || b.Status != 200 {
					t.Fatalf("%s: HTTP %d %s %v", m, b.Status, b.Result, err)
				}
				if len(got) != 2 || got["11111111111111111111111111111111"] != nil || got[tc.id] == nil ||
					string(*got[tc.id]) != string(a.Result) {
					t.Errorf("%s: %s", m, b.Result)
				}
			}
		})
	}
}

// TestGetAssetProofParams checks the client errors: 400 and -32602 with
// the member named.
func TestGetAssetProofParams(t *testing.T) {
	e := newEnv(t)
	many := strings.TrimSuffix(strings.Repeat(`"11111111111111111111111111111111",`, maxBatch+1), ",")
	tests := []struct {
		method, params, msg string
	}{
		{"getAssetProof", `{}`, "Invalid params: missing field `id`"},
		{"getAssetProof", `{"id":"0OIl"}`, "not valid base58"},
		{"getAssetProof", `{"id":"11111111111111111111111111111111","options":{}}`, "unknown field `options`"},
		{"getAssetProof", `[1]`, "expected a base58 string"},
		{"getAssetProofBatch", `{}`, "Invalid params: missing field `ids`"},
		{"getAssetProofs", `{"ids":[` + many + `]}`, "Invalid params: `ids` has 1001 ids, at most 1000"},
		{"getAssetProofs", `{"ids":["x"]}`, "element 0"},
	}
	for _, tc := range tests {
		a := e.call(tc.method, tc.params)
		if a.Status != 400 || a.Error == nil || a.Error.Code != -32602 || !strings.Contains(a.Error.Message, tc.msg) {
			t.Errorf("%s %.80s: HTTP %d %+v, want 400 -32602 containing %q", tc.method, tc.params, a.Status, a.Error, tc.msg)
		}
	}
}

package stateless_test

import (
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"

	"github.com/dasch-labs/dasch/api/photon/prover"
	"github.com/dasch-labs/dasch/e2e/internal/e2ekit"
)

// proverStandIn is a loopback stand-in of a Light prover service: it
// keeps the requests it receives, to be checked against the format, and
// answers a proof whose points are the curves' generators.
type proverStandIn struct {
	url  string
	mu   sync.Mutex
	reqs []proverRequest
}

type proverRequest struct {
	CircuitType     string `json:"circuitType"`
	StateTreeHeight int    `json:"stateTreeHeight"`
	Inputs          []struct {
		Root         string   `json:"root"`
		PathIndex    *int     `json:"pathIndex"`
		PathElements []string `json:"pathElements"`
		Leaf         string   `json:"leaf"`
	} `json:"inputCompressedAccounts"`
}

// generatorAnswer: A = C = (1, 2), B the G2 generator (x.c1, x.c0, y.c1,
// y.c0).
const generatorAnswer = `{"ar":["0x1","0x2"],"bs":[` +
	`["0x198e9393920d483a7260bfb731fb5d25f1aa493335a9e71297e485b7aef312c2","0x1800deef121f1e76426a00665e5c4479674322d4f75edadd46debd5cd992f6ed"],` +
	`["0x090689d0585ff075ec9e99ad690c3395bc4b313370b38ef355acdadcd122975b","0x12c85ea5db8c6deb4aab71808dcb408fe3d1e7690c43d37b4ce6cc0166fa7daa"]],` +
	`"krs":["0x1","0x2"]}`

func newProverStandIn(t *testing.T) *proverStandIn {
	p := &proverStandIn{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req proverRequest
		if r.Method != http.MethodPost || r.URL.Path != "/prove" || r.Header.Get("Content-Type") != "application/json" ||
			json.Unmarshal(body, &req) != nil {
			http.Error(w, "not a prover request", http.StatusBadRequest)
			return
		}
		p.mu.Lock()
		p.reqs = append(p.reqs, req)
		p.mu.Unlock()
		_, _ = io.WriteString(w, generatorAnswer)
	}))
	t.Cleanup(srv.Close)
	p.url = srv.URL
	return p
}

// check: for the V2 and then the V1 call, the client got the compressed
// generator proof for the hashes it asked about, and the prover was asked
// for exactly their inclusion in a height 26 tree.
func (p *proverStandIn) check(t *testing.T, summary map[string]json.RawMessage) {
	t.Helper()
	p.mu.Lock()
	reqs := slices.Clone(p.reqs)
	p.mu.Unlock()
	if len(reqs) != 2 {
		t.Fatalf("prover got %d requests, want one for V2 and one for V1", len(reqs))
	}
	for i, name := range []string{"getValidityProof/V2", "getValidityProof/V1"} {
		checkProof(t, summary, name, reqs[i])
	}
}

func checkProof(t *testing.T, summary map[string]json.RawMessage, name string, r proverRequest) {
	t.Helper()
	var got struct {
		Hashes  []string `json:"hashes"`
		A, B, C []int
	}
	if !e2ekit.Decode(t, summary, name, &got) {
		return
	}
	want, err := prover.ParseProof([]byte(generatorAnswer))
	if err != nil {
		t.Fatal(err)
	}
	ints := func(b []byte) []int {
		out := make([]int, len(b))
		for i, x := range b {
			out[i] = int(x)
		}
		return out
	}
	if !slices.Equal(got.A, ints(want.A[:])) || !slices.Equal(got.B, ints(want.B[:])) || !slices.Equal(got.C, ints(want.C[:])) {
		t.Errorf("%s: compressedProof a %v b %v c %v, want %x %x %x", name, got.A, got.B, got.C, want.A, want.B, want.C)
	}
	var leaves, wantLeaves []string
	for _, in := range r.Inputs {
		if len(in.PathElements) != 26 || in.PathIndex == nil || len(in.Root) != 66 {
			t.Errorf("%s: prover input %+v: want a root, a path index and 26 path elements", name, in)
		}
		leaves = append(leaves, in.Leaf)
	}
	for _, h := range got.Hashes {
		n, ok := new(big.Int).SetString(h, 10)
		if !ok {
			t.Fatalf("hash %q", h)
		}
		wantLeaves = append(wantLeaves, fmt.Sprintf("0x%064x", n))
	}
	if r.CircuitType != "inclusion" || r.StateTreeHeight != 26 || !slices.Equal(leaves, wantLeaves) || len(leaves) != 2 {
		t.Errorf("%s: prover request %s height %d leaves %v, want inclusion, 26, %v", name, r.CircuitType, r.StateTreeHeight, leaves, wantLeaves)
	}
}

package stateless_test

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"net"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/e2e/internal/e2ekit"
	"github.com/dasch-labs/dasch/internal/rpcnode"
)

// The lookup tables stateless.js reads its mainnet state tree list from,
// and the corpus tree's queue and CPI context account.
const (
	stateTreeLUT = "7i86eQs3GSqHjN47WdWLTCGMW6gde1q96G2EVnUyK2st"
	nullifyLUT   = "H9QD4u1fG7KmkAzn2tDXhheushxFe1EcrjGGyEFXeMqT"
	nfq1         = "nfq1NvQDJ2GEgnS8zt9prAe8rjjpAW1zFkrvZoBR148"
	cpi1         = "cpi1uHzrEhBG733DoEJNgHCyRS3XmmyVNZx5fonubE4"
	lutProgram   = "AddressLookupTab1e1111111111111111111111111"
)

// lookupTable is an address lookup table account's data: the 56-byte
// header (type 1, never deactivated, no authority) and the addresses.
func lookupTable(t *testing.T, addrs ...string) []byte {
	t.Helper()
	b := make([]byte, 56, 56+32*len(addrs))
	binary.LittleEndian.PutUint32(b[0:], 1)
	binary.LittleEndian.PutUint64(b[4:], ^uint64(0))
	for _, a := range addrs {
		k, err := solana.ParsePubkey(a)
		if err != nil {
			t.Fatal(err)
		}
		b = append(b, k[:]...)
	}
	return b
}

// TestStatelessThroughUpstream: stateless.js pointed at dasch alone, as
// on a cluster, resolves its state trees from lookup tables the node
// behind dasch holds (getAccountInfo forwarded by --rpc-upstream), and
// maps compressed accounts onto them; the node never sees the key.
func TestStatelessThroughUpstream(t *testing.T) {
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not on PATH: this test runs the @lightprotocol/stateless.js client under Node.js", tool)
		}
	}
	// Linux routes all of 127.0.0.0/8 to loopback; other systems may not.
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Skipf("127.0.0.2 is not a loopback address here: %v", err)
	}
	ln.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	node := rpcnode.New(map[uint64][]byte{50: []byte(`{}`)})
	defer node.Close()
	node.Record()
	lutOwner, _ := solana.ParsePubkey(lutProgram)
	for key, data := range map[string][]byte{
		stateTreeLUT: lookupTable(t, smt1, nfq1, cpi1),
		nullifyLUT:   lookupTable(t),
	} {
		k, _ := solana.ParsePubkey(key)
		node.SetAccount(1, k, &rpcnode.Account{Owner: lutOwner, Lamports: 1, Data: data})
	}

	e2ekit.NPMCI(t, ctx)
	bin := e2ekit.Build(t, ctx)
	dir := t.TempDir()
	storeURL := "embedded:" + filepath.Join(dir, "data")
	src, err := filepath.Abs(fixtures)
	if err != nil {
		t.Fatal(err)
	}
	e2ekit.Run(t, ctx, bin, "migrate", "--store", storeURL)
	e2ekit.Run(t, ctx, bin, "ingest", "--store", storeURL, "--source", "files:"+src)
	key := e2ekit.LastLine(e2ekit.Run(t, ctx, bin, "keys", "create", "--store", storeURL, "--project", "upstream"))
	// 127.0.0.2 is loopback too, but the client takes only localhost and
	// 127.0.0.1 for a local validator.
	base := e2ekit.Serve(t, ctx, bin, storeURL, "--listen", "127.0.0.2:0", "--rpc-upstream", node.URL())
	if strings.Contains(base, "127.0.0.1") {
		t.Fatalf("served on %s, which the client takes for a local validator", base)
	}
	summary := e2ekit.Script(t, ctx, "stateless.js", "upstream.mjs", base+"/?api-key="+key, bob)

	var slot uint64
	if e2ekit.Decode(t, summary, "getSlot", &slot) && slot != 50 {
		t.Errorf("getSlot = %d, want the node's 50", slot)
	}
	type info struct {
		Tree       string `json:"tree"`
		Queue      string `json:"queue"`
		CPIContext string `json:"cpiContext"`
		TreeType   int    `json:"treeType"`
	}
	var infos []info
	// TreeType 1 is StateV1 in the client's enum.
	if e2ekit.Decode(t, summary, "getStateTreeInfos", &infos) && !reflect.DeepEqual(infos, []info{{smt1, nfq1, cpi1, 1}}) {
		t.Errorf("getStateTreeInfos = %s, want the lookup table's one tree", e2ekit.Show(infos))
	}
	type account struct {
		Tree   string `json:"tree"`
		Queue  string `json:"queue"`
		Amount string `json:"amount"`
	}
	var accounts []account
	if e2ekit.Decode(t, summary, "getCompressedTokenAccountsByOwner", &accounts) {
		var amounts []string
		for _, a := range accounts {
			if a.Tree != smt1 || a.Queue != nfq1 {
				t.Errorf("account %s: tree info not the lookup table's", e2ekit.Show(a))
			}
			amounts = append(amounts, a.Amount)
		}
		slices.Sort(amounts)
		if !slices.Equal(amounts, []string{"100", "5"}) {
			t.Errorf("amounts %v, want bob's 100 and 5", amounts)
		}
	}
	// No --prover here: V2 answers a null proof, V1 an error naming it.
	var v2 struct {
		CompressedProof json.RawMessage `json:"compressedProof"`
	}
	if e2ekit.Decode(t, summary, "getValidityProofV2", &v2) && string(v2.CompressedProof) != "null" {
		t.Errorf("getValidityProofV2 without a prover: compressedProof %s, want null", v2.CompressedProof)
	}
	var v1 struct {
		Threw   bool   `json:"threw"`
		Message string `json:"message"`
	}
	if e2ekit.Decode(t, summary, "getValidityProof/V1", &v1) && (!v1.Threw || !strings.Contains(v1.Message, "Validity proofs need a prover service")) {
		t.Errorf("getValidityProof V1 without a prover: threw %v %q, want the server's message", v1.Threw, v1.Message)
	}
	var lookups int
	for _, r := range node.Seen() {
		if r.Method == "getAccountInfo" {
			lookups++
		}
		if r.Query != "" || r.Header.Get("X-Api-Key") != "" {
			t.Errorf("node got %s with query %q, headers %v", r.Method, r.Query, r.Header)
		}
	}
	if lookups < 2 {
		t.Errorf("node answered %d getAccountInfo calls, want the two lookup tables", lookups)
	}
}

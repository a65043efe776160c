// Package rpcnode serves fixture blocks the way a Solana JSON-RPC node
// does (getSlot, getBlock with base64 transactions), on a real loopback
// HTTP server, for tests of the RPC source. Slots without a block answer
// as skipped; scripted faults answer first where a test asks for them.
// Accounts have a state per slot and are answered by getAccountInfo, getMultipleAccounts,
// getProgramAccounts and getProgramAccountsV2 (accounts.go); a Chain
// builds blocks and account states from fixture files (chain.go).
package rpcnode

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/goccy/go-json"
	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/chain/solana"
)

// Fault is one scripted answer: "429" and "500" are HTTP statuses, "bad
// json" a body that is not JSON, and a negative number a node error of
// that code.
type Fault string

// Node is a fake RPC node over fixture blocks.
type Node struct {
	srv *httptest.Server

	mu     sync.Mutex
	blocks map[uint64][]byte
	// tip answers getSlot; TipStep grows it by one each call, up to the
	// newest block (a node producing slots).
	tip, tipMax uint64
	tipStep     bool
	faults      map[uint64][]Fault
	calls       map[string]int
	asked       []uint64
	// delay is how long getBlock takes to answer, as a node's disk and
	// network make it (SetDelay).
	delay time.Duration
	// first answers getFirstAvailableBlock (SetFirst): older blocks are
	// purged, and getBlock answers for them as skipped, as nodes do.
	first  uint64
	hidden []string // methods answered as unknown (Hide)

	// Account state (accounts.go): each account's writes by slot, the
	// programs whose accounts are made up on request, whether accounts
	// are answered as of the asked slot rather than the newest, and the
	// faults scripted per method.
	accounts  map[solana.Pubkey][]write
	generated map[solana.Pubkey]generator
	exact     bool
	callFault map[string][]Fault
	noZstd    bool // base64+zstd refused (RefuseZstd)
	record    bool // keep what requests carried (Record)
	seen      []Seen
}

// Seen is what a request carried besides its body: tests of a proxy in
// front of the node check that nothing of its own callers reached it.
type Seen struct {
	Method string
	Query  string
	Header http.Header
}

// Record makes the node keep what each request carried, for Seen; off by
// default, as benchmarks send millions.
func (n *Node) Record() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.record = true
}

// Seen lists the requests answered since Record, in order.
func (n *Node) Seen() []Seen {
	n.mu.Lock()
	defer n.mu.Unlock()
	return slices.Clone(n.seen)
}

// Hide makes the node answer method as one without it (-32601).
func (n *Node) Hide(method string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.hidden = append(n.hidden, method)
}

// SetFirst makes the node's history start at slot first.
func (n *Node) SetFirst(first uint64) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.first = first
}

// SetDelay makes getBlock answer after d, each request on its own (a
// node serves requests in parallel).
func (n *Node) SetDelay(d time.Duration) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.delay = d
}

// New returns a node serving blocks (slot → getBlock result); getSlot
// answers the newest slot. Close it when done.
func New(blocks map[uint64][]byte) *Node {
	n := &Node{blocks: blocks, faults: map[uint64][]Fault{}, calls: map[string]int{}}
	for s := range blocks {
		n.tip = max(n.tip, s)
	}
	n.tipMax = n.tip
	n.srv = httptest.NewServer(http.HandlerFunc(n.serve))
	return n
}

// URL is the node's address.
func (n *Node) URL() string { return n.srv.URL }

// Close stops the server.
func (n *Node) Close() { n.srv.Close() }

// GrowFrom makes getSlot answer from, then one more each call, up to the
// newest block.
func (n *Node) GrowFrom(from uint64) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.tip, n.tipStep = from, true
}

// SetTip makes getSlot answer tip from now on; slots up to it without a
// block answer as skipped.
func (n *Node) SetTip(tip uint64) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.tip, n.tipMax, n.tipStep = tip, max(n.tipMax, tip), false
}

// Fail scripts answers getBlock gives for slot before the real one.
func (n *Node) Fail(slot uint64, fs ...Fault) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.faults[slot] = append(n.faults[slot], fs...)
}

// Calls counts the requests of a method so far.
func (n *Node) Calls(method string) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.calls[method]
}

// Asked lists the slots getBlock was asked for, in arrival order.
func (n *Node) Asked() []uint64 {
	n.mu.Lock()
	defer n.mu.Unlock()
	return slices.Clone(n.asked)
}

type request struct {
	JSONRPC string            `json:"jsonrpc"`
	ID      json.RawMessage   `json:"id"`
	Method  string            `json:"method"`
	Params  []json.RawMessage `json:"params"`
}

type blockConfig struct {
	Encoding                       string `json:"encoding"`
	Commitment                     string `json:"commitment"`
	MaxSupportedTransactionVersion *int   `json:"maxSupportedTransactionVersion"`
	TransactionDetails             string `json:"transactionDetails"`
}

func (n *Node) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req request
	if r.Method != http.MethodPost || json.Unmarshal(body, &req) != nil || req.JSONRPC != "2.0" {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	n.mu.Lock()
	if n.record {
		n.seen = append(n.seen, Seen{Method: req.Method, Query: r.URL.RawQuery, Header: r.Header.Clone()})
	}
	delay := n.delay
	accounts := isAccountMethod(req.Method) && !slices.Contains(n.hidden, req.Method)
	n.mu.Unlock()
	if accounts {
		n.serveAccounts(w, r, &req)
		return
	}
	if req.Method == "getBlock" && delay > 0 {
		time.Sleep(delay)
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.calls[req.Method]++
	method := req.Method
	if slices.Contains(n.hidden, method) {
		method = "hidden"
	}
	switch method {
	case "getSlot":
		tip := n.tip
		if n.tipStep && n.tip < n.tipMax {
			n.tip++
		}
		answer(w, req.ID, strconv.FormatUint(tip, 10))
	case "getFirstAvailableBlock":
		answer(w, req.ID, strconv.FormatUint(n.first, 10))
	case "getBlock":
		var slot uint64
		var cfg blockConfig
		if len(req.Params) != 2 || json.Unmarshal(req.Params[0], &slot) != nil || json.Unmarshal(req.Params[1], &cfg) != nil ||
			cfg.Encoding != "base64" || cfg.MaxSupportedTransactionVersion == nil || cfg.TransactionDetails != "full" {
			nodeError(w, req.ID, -32602, "Invalid params: this node wants [slot, {encoding: base64, maxSupportedTransactionVersion, transactionDetails: full}]")
			return
		}
		n.asked = append(n.asked, slot)
		if fs := n.faults[slot]; len(fs) > 0 {
			n.faults[slot] = fs[1:]
			fault(w, req.ID, fs[0])
			return
		}
		if slot > n.tipMax {
			nodeError(w, req.ID, -32004, fmt.Sprintf("Block not available for slot %d", slot))
			return
		}
		if slot < n.first {
			nodeError(w, req.ID, -32009, fmt.Sprintf("Slot %d was skipped, or missing in long-term storage", slot))
			return
		}
		b, ok := n.blocks[slot]
		if !ok {
			nodeError(w, req.ID, -32007, fmt.Sprintf("Slot %d was skipped, or missing due to ledger jump to recent snapshot", slot))
			return
		}
		answer(w, req.ID, string(b))
	default:
		nodeError(w, req.ID, -32601, "Method not found")
	}
}

func fault(w http.ResponseWriter, id json.RawMessage, f Fault) {
	switch f {
	case "429":
		http.Error(w, "Too many requests", http.StatusTooManyRequests)
	case "500":
		http.Error(w, "Internal server error", http.StatusInternalServerError)
	case "bad json":
		_, _ = w.Write([]byte("<html>gateway</html>"))
	default:
		code, err := strconv.Atoi(string(f))
		if err != nil {
			panic("rpcnode: unknown fault " + string(f))
		}
		nodeError(w, id, code, "scripted error")
	}
}

func answer(w http.ResponseWriter, id json.RawMessage, result string) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = fmt.Fprintf(w, `{"jsonrpc":"2.0","result":%s,"id":%s}`, result, id)
}

func nodeError(w http.ResponseWriter, id json.RawMessage, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	m, _ := json.Marshal(msg)
	_, _ = fmt.Fprintf(w, `{"jsonrpc":"2.0","error":{"code":%d,"message":%s},"id":%s}`, code, m, id)
}

// LoadBlocks reads <slot>.json getBlock results under dir.
func LoadBlocks(dir string) (map[uint64][]byte, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	out := map[uint64][]byte{}
	for _, p := range paths {
		slot, err := strconv.ParseUint(strings.TrimSuffix(filepath.Base(p), ".json"), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s: block files are named <slot>.json", p)
		}
		if out[slot], err = os.ReadFile(p); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// txFixture is a getTransaction result (base64 encoding).
type txFixture struct {
	Slot        uint64          `json:"slot"`
	BlockTime   *int64          `json:"blockTime"`
	Transaction json.RawMessage `json:"transaction"`
	Meta        json.RawMessage `json:"meta"`
	Version     json.RawMessage `json:"version"`
}

// BlocksFromTransactions builds the getBlock results of the slots the
// getTransaction fixtures under dir name: each slot's transactions in
// file name order, with hashes derived from the slot and the previous
// slot holding a block as parent.
func BlocksFromTransactions(dir string) (map[uint64][]byte, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	slices.Sort(paths)
	bySlot := map[uint64][]txFixture{}
	times := map[uint64]*int64{}
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		var tx txFixture
		if err := json.Unmarshal(raw, &tx); err != nil || len(tx.Transaction) == 0 {
			return nil, fmt.Errorf("%s: not a getTransaction result", p)
		}
		bySlot[tx.Slot] = append(bySlot[tx.Slot], tx)
		times[tx.Slot] = tx.BlockTime
	}
	slots := make([]uint64, 0, len(bySlot))
	for s := range bySlot {
		slots = append(slots, s)
	}
	slices.Sort(slots)
	out := map[uint64][]byte{}
	parent := uint64(0)
	for i, s := range slots {
		if i > 0 {
			parent = slots[i-1]
		} else if s > 0 {
			parent = s - 1
		}
		var b bytes.Buffer
		bt := "null"
		if t := times[s]; t != nil {
			bt = strconv.FormatInt(*t, 10)
		}
		fmt.Fprintf(&b, `{"blockHeight":%d,"blockTime":%s,"blockhash":%q,"parentSlot":%d,"previousBlockhash":%q,"transactions":[`,
			s, bt, hashOf(s), parent, hashOf(parent))
		for j, tx := range bySlot[s] {
			if j > 0 {
				b.WriteByte(',')
			}
			version := tx.Version
			if len(version) == 0 {
				version = json.RawMessage("null")
			}
			fmt.Fprintf(&b, `{"meta":%s,"transaction":%s,"version":%s}`, tx.Meta, tx.Transaction, version)
		}
		b.WriteString(`]}`)
		out[s] = b.Bytes()
	}
	return out, nil
}

func hashOf(slot uint64) string {
	h := sha256.Sum256([]byte("block " + strconv.FormatUint(slot, 10)))
	return base58.Encode(h[:])
}

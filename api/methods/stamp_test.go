package methods_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/api/methods"
	"github.com/dasch-labs/dasch/api/parsedevents"
	"github.com/dasch-labs/dasch/chain/core"
	"github.com/dasch-labs/dasch/chain/core/coretest"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/ingest/decoders"
	"github.com/dasch-labs/dasch/ingest/source"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/server/jsonrpc"
	"github.com/dasch-labs/dasch/server/rest"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

func TestMain(m *testing.M) {
	code := m.Run()
	storetest.Close()
	os.Exit(code)
}

const (
	photonTxs = "../../chain/testdata/photon/transactions/e2e_mint_and_transfer_transactions"
	dasTxs    = "../../chain/testdata/das/transactions"
)

// stampSlot is where the first part of the corpus ends: the checkpoint
// the answers are stamped with while the second part is committed.
const stampSlot = 41

// corpus writes the two parts of a corpus into dirs of their own: the
// Photon transactions of slots up to stampSlot and two Core assets at
// it, then the later transactions, one of the assets moved twice and a
// third.
func corpus(t *testing.T) (first, later string) {
	t.Helper()
	first, later = t.TempDir(), t.TempDir()
	entries, err := os.ReadDir(photonTxs)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(photonTxs, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		var head struct{ Slot uint64 }
		if err := json.Unmarshal(b, &head); err != nil {
			t.Fatal(err)
		}
		dir := first
		if head.Slot > stampSlot {
			dir = later
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	owner, other := solana.Pubkey{7, 1}, solana.Pubkey{7, 2}
	coreFile(t, first, assetKey(1), owner, stampSlot)
	coreFile(t, first, assetKey(2), owner, stampSlot)
	// Bubblegum transactions, of slots long past the others.
	bubblegum, err := os.ReadDir(dasTxs)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range bubblegum {
		b, err := os.ReadFile(filepath.Join(dasTxs, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(later, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Moved twice past the checkpoint: the second fold replaces a
	// document the checkpoint does not cover.
	coreFile(t, later, assetKey(1), solana.Pubkey{7, 3}, stampSlot+1)
	coreFile(t, later, assetKey(1), other, stampSlot+2)
	coreFile(t, later, assetKey(3), owner, stampSlot+2)
	return first, later
}

func assetKey(b byte) solana.Pubkey { return solana.Pubkey{b, 0x5a, 0x17, 3} }

// coreFile writes an MPL Core asset of owner as an account fixture at
// slot.
func coreFile(t testing.TB, dir string, key, owner solana.Pubkey, slot uint64) {
	t.Helper()
	data := coretest.EncodeAsset(&coretest.AssetSpec{Owner: owner, Authority: solana.Pubkey{9, 9},
		Name: "Asset " + key.String()[:4], URI: "https://example.com/a.json"})
	b, err := json.Marshal(map[string]any{"pubkey": key.String(), "owner": core.CoreProgram().String(),
		"lamports": 1000, "data": base64.StdEncoding.EncodeToString(data), "slot": slot, "write_version": 0})
	if err != nil {
		t.Fatal(err)
	}
	name := key.String() + "-" + strconv.FormatUint(slot, 10) + ".json"
	if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// index runs the full pipeline, every decoder and state step, over dir.
func index(t testing.TB, s arrowstore.Writer, dir string) {
	t.Helper()
	ctx := context.Background()
	src, err := source.NewFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg := ingest.Config{Store: s, Source: src}
	if err := decoders.Configure(ctx, s, &cfg, decoders.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.Run(ctx, cfg); err != nil {
		t.Fatalf("index %s: %v", dir, err)
	}
}

// heldStore commits everything but the checkpoint, as a run cut between
// its commits and its checkpoint leaves the store: before a checkpoint
// write it calls before, then drops the write while hold is set.
type heldStore struct {
	arrowstore.Store
	mu     sync.Mutex
	hold   bool
	before func()
}

func (h *heldStore) Exec(ctx context.Context, sql string, p store.Params) error {
	if strings.Contains(sql, "INTO indexer_checkpoints") {
		h.mu.Lock()
		before, hold := h.before, h.hold
		h.before = nil
		h.mu.Unlock()
		if before != nil {
			before()
		}
		if hold {
			return nil
		}
	}
	return h.Store.Exec(ctx, sql, p)
}

// stampCalls are a call of every method family that reads the store,
// for every key s holds: compressed accounts by hash and by address,
// their owners and token owners, the signature lists, and the assets.
func stampCalls(t *testing.T, s store.Querier) []call {
	t.Helper()
	col := func(sql string) []string {
		res, err := s.Query(context.Background(), sql, nil)
		if err != nil {
			t.Fatal(err)
		}
		out := make([]string, len(res.Rows))
		for i := range res.Rows {
			r := res.Row(i)
			out[i] = base58.Encode([]byte(r.Str(0)))
			if err := r.Err(); err != nil {
				t.Fatal(err)
			}
		}
		return out
	}
	hashes := col(`SELECT DISTINCT hash FROM compressed_accounts ORDER BY hash`)
	addresses := col(`SELECT DISTINCT assumeNotNull(address) FROM compressed_accounts WHERE address IS NOT NULL ORDER BY 1`)
	owners := col(`SELECT DISTINCT owner FROM compressed_accounts ORDER BY owner`)
	tokenOwners := col(`SELECT DISTINCT token_owner FROM compressed_accounts WHERE is_token ORDER BY token_owner`)
	ids := col(`SELECT id FROM asset_docs ORDER BY id`)
	sigs := col(`SELECT signature FROM parsed_transactions ORDER BY signature`)
	touched := col(`SELECT DISTINCT address FROM address_transactions ORDER BY address LIMIT 8`)
	if len(hashes) == 0 || len(owners) == 0 || len(ids) == 0 {
		t.Fatalf("corpus without accounts or assets: %d hashes, %d owners, %d assets", len(hashes), len(owners), len(ids))
	}
	list := func(k string, vs []string) string {
		b, _ := json.Marshal(map[string][]string{k: vs})
		return string(b)
	}
	one := func(k, v string) string { return `{"` + k + `":"` + v + `"}` }
	calls := []call{
		{"getLatestCompressionSignatures", `{}`},
		{"getLatestNonVotingSignatures", `{}`},
		{"getMultipleCompressedAccounts", list("hashes", hashes)},
		{"getMultipleCompressedAccountsV2", list("hashes", hashes)},
		{"getAssetBatch", list("ids", ids)},
	}
	if len(addresses) > 0 {
		calls = append(calls, call{"getMultipleCompressedAccounts", list("addresses", addresses)})
	}
	for _, h := range hashes {
		calls = append(calls, call{"getCompressedAccount", one("hash", h)}, call{"getCompressedAccountV2", one("hash", h)},
			call{"getCompressedBalance", one("hash", h)}, call{"getCompressionSignaturesForAccount", one("hash", h)})
	}
	for _, a := range addresses {
		calls = append(calls, call{"getCompressedAccount", one("address", a)},
			call{"getCompressionSignaturesForAddress", one("address", a)})
	}
	for _, o := range owners {
		calls = append(calls, call{"getCompressionSignaturesForOwner", one("owner", o)},
			call{"getCompressedBalanceByOwner", one("owner", o)},
			call{"getCompressedAccountsByOwner", one("owner", o)}, call{"getCompressedAccountsByOwnerV2", one("owner", o)})
	}
	for _, o := range tokenOwners {
		calls = append(calls, call{"getCompressionSignaturesForTokenOwner", one("owner", o)},
			call{"getCompressedTokenAccountsByOwner", one("owner", o)})
	}
	for _, id := range ids {
		calls = append(calls, call{"getAsset", one("id", id)}, call{"getAssetSignatures", one("id", id)})
	}
	if len(sigs) == 0 || len(touched) == 0 {
		t.Fatalf("corpus without parsed transactions: %d signatures, %d addresses", len(sigs), len(touched))
	}
	for _, sig := range col(`SELECT signature FROM compression_signatures ORDER BY signature`) {
		calls = append(calls, call{"getTransactionWithCompressionInfo", one("signature", sig)},
			call{"getTransactionWithCompressionInfoV2", one("signature", sig)})
	}
	calls = append(calls, call{parsedevents.PathTransactions, list("transactions", sigs)})
	for _, a := range touched {
		calls = append(calls, call{parsedevents.PathHistory, one("address", a)})
	}
	return calls
}

// call is a JSON-RPC method or, for a method starting with a slash, a
// REST path of the parsed-events API, with its params or body.
type call struct{ method, params string }

// server answers calls: every JSON-RPC method and the parsed-events REST
// handlers over one store.
type server struct {
	reg  *jsonrpc.Registry
	rest map[string]rest.Handler
}

func newServer(s store.Querier) *server {
	slots := checkpoint.NewSlotCache(s, 0)
	return &server{reg: methods.New(methods.Options{Methods: methods.All, Store: s, Slots: slots}),
		rest: map[string]rest.Handler{
			parsedevents.PathTransactions: parsedevents.Transactions(s, slots),
			parsedevents.PathHistory:      parsedevents.History(s, slots),
		}}
}

// answer is what a call returned, as JSON, or its error.
func answer(t *testing.T, srv *server, c call) string {
	t.Helper()
	var b []byte
	if h, ok := srv.rest[c.method]; ok {
		out, err := h(context.Background(), c.method, []byte(c.params))
		if err != nil {
			return "error: " + err.Error()
		}
		b = out
	} else {
		h, ok := srv.reg.Lookup(c.method)
		if !ok {
			t.Fatalf("%s not registered", c.method)
		}
		res, err := h(context.Background(), &jsonrpc.Call{Method: c.method, Params: json.RawMessage(c.params)})
		if err != nil {
			return "error: " + err.Error()
		}
		if b, err = json.Marshal(res); err != nil {
			t.Fatal(err)
		}
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(v) // one spelling of the same answer
	return string(b)
}

// answers are the answers of calls on reg.
func answers(t *testing.T, reg *server, calls []call) []string {
	t.Helper()
	out := make([]string, len(calls))
	for i, c := range calls {
		out[i] = answer(t, reg, c)
	}
	return out
}

// sameAnswers checks that every call answers on reg as want says.
func sameAnswers(t *testing.T, when string, reg *server, calls []call, want []string) {
	t.Helper()
	for i, c := range calls {
		if got := answer(t, reg, c); got != want[i] {
			t.Errorf("%s: %s %s answered\n%s\nwant, as before the later slots were committed,\n%s", when, c.method, c.params, got, want[i])
		}
	}
}

// An answer stamped with context slot S holds everything up to S and
// nothing later, for every method family, while rows of later slots are
// committed but not checkpointed: during a run, between a commit and its
// checkpoint, and after a crash there, which leaves the same store. The
// reference is the answers of the store holding only the slots up to S;
// the calls name every key of the whole corpus.
func TestAnswersAtTheirStamp(t *testing.T) {
	first, later := corpus(t)
	all := storetest.Open(t)
	index(t, all, first)
	index(t, all, later)
	calls := stampCalls(t, all)
	final := answers(t, newServer(all), calls)
	end, err := checkpoint.ContextSlot(context.Background(), all)
	if err != nil {
		t.Fatal(err)
	}

	s := &heldStore{Store: storetest.Open(t)} // emptied
	index(t, s, first)
	if slot, err := checkpoint.ContextSlot(context.Background(), s); err != nil || slot != stampSlot {
		t.Fatalf("indexed slot %d (%v), want %d", slot, err, stampSlot)
	}
	reg := newServer(s)
	want := answers(t, reg, calls)
	// Live: at the first checkpoint of the later slots, before it is
	// written, their rows are committed and their state derived.
	var live bool
	s.hold = true
	s.before = func() {
		live = true
		sameAnswers(t, "before the checkpoint", reg, calls, want)
	}
	index(t, s, later)
	if !live {
		t.Fatal("the later slots wrote no checkpoint")
	}
	// Crashed: the run ended with every later row committed and derived
	// and the checkpoint where it was.
	sameAnswers(t, "after the run", reg, calls, want)
	// Once the checkpoint passes them, the later slots are answered as by
	// a run that was not cut; the corpus has later rows each family shows.
	if err := checkpoint.Write(context.Background(), s.Store, end); err != nil {
		t.Fatal(err)
	}
	changed := map[string]bool{}
	for i, c := range calls {
		got := answer(t, reg, c)
		if got != final[i] {
			t.Errorf("checkpointed: %s %s answered\n%s\nwant\n%s", c.method, c.params, got, final[i])
		}
		// The same answer restamped is no change.
		restamped := strings.NewReplacer(`"slot":41}`, `"slot":`+strconv.FormatUint(end, 10)+`}`,
			`"last_indexed_slot":41`, `"last_indexed_slot":`+strconv.FormatUint(end, 10)).Replace(want[i])
		if got != restamped {
			changed[c.method] = true
		}
	}
	for _, m := range []string{"getLatestCompressionSignatures", "getLatestNonVotingSignatures", "getCompressedAccount",
		"getMultipleCompressedAccounts", "getCompressionSignaturesForAccount", "getCompressionSignaturesForOwner",
		"getCompressedAccountsByOwner", "getAsset", "getAssetBatch", "getAssetSignatures", "getTransactionWithCompressionInfo", parsedevents.PathTransactions, parsedevents.PathHistory} {
		if !changed[m] {
			t.Errorf("%s answers the same once the later slots are indexed: the corpus does not test it", m)
		}
	}
}

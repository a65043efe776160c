package rpcingest_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/api/methods"
	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/ingest/decoders"
	"github.com/dasch-labs/dasch/ingest/source"
	"github.com/dasch-labs/dasch/internal/rpcnode"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/server/jsonrpc"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

func TestMain(m *testing.M) {
	code := m.Run()
	storetest.Close()
	os.Exit(code)
}

const corpusDir = "../../testdata/das"

// corpus copies every account and transaction file of the DAS corpus to
// a directory, each slot moved to a small one in the same order (10, 13,
// 16, …: two skipped slots between any two), so a node following them is
// quick to walk. It returns the directory, the copies, the first and
// last slot and the first slot with a transaction.
func corpus(t *testing.T) (dir string, files []string, first, last, firstTx uint64) {
	t.Helper()
	var src []string
	for _, d := range []string{"accounts", "synthetic_accounts", "transactions"} {
		err := filepath.WalkDir(filepath.Join(corpusDir, d), func(p string, e fs.DirEntry, err error) error {
			if err == nil && !e.IsDir() && strings.HasSuffix(p, ".json") {
				src = append(src, p)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	docs := make([]map[string]json.RawMessage, len(src))
	var slots []uint64
	for i, p := range src {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &docs[i]); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		var s uint64
		if err := json.Unmarshal(docs[i]["slot"], &s); err != nil {
			t.Fatalf("%s: slot: %v", p, err)
		}
		slots = append(slots, s)
	}
	distinct := slices.Compact(slices.Sorted(slices.Values(slots)))
	dir = t.TempDir()
	for i, p := range src {
		at, _ := slices.BinarySearch(distinct, slots[i])
		slot := uint64(10 + 3*at)
		docs[i]["slot"] = json.RawMessage(fmt.Sprint(slot))
		if strings.Contains(p, "transactions") && (firstTx == 0 || slot < firstTx) {
			firstTx = slot
		}
		rel, _ := filepath.Rel(corpusDir, p)
		to := filepath.Join(dir, rel)
		b, err := json.Marshal(docs[i])
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, b, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, to)
	}
	if len(files) < 200 || len(distinct) < 50 {
		t.Fatalf("%d files over %d slots: not the corpus", len(files), len(distinct))
	}
	return dir, files, 10, uint64(10 + 3*(len(distinct)-1)), firstTx
}

// config is an ingest of the default decoder set from src.
func config(t *testing.T, s arrowstore.Store, src source.Source) ingest.Config {
	t.Helper()
	cfg := ingest.Config{Store: s, Source: src, BatchAge: 20 * time.Millisecond, PartAge: 20 * time.Millisecond}
	if err := decoders.Configure(context.Background(), s, &cfg, decoders.Options{}); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// indexFiles indexes the files under dir as `dasch ingest --source
// files:DIR` does.
func indexFiles(t *testing.T, s arrowstore.Store, dir string) {
	t.Helper()
	src, err := source.NewFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg := config(t, s, src)
	st, err := ingest.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if st.DeadLetters != 0 {
		t.Fatalf("%d dead letters indexing the files", st.DeadLetters)
	}
}

// rpcSource is the RPC source over n, reading the accounts the decoders
// of cfg read.
func rpcSource(t *testing.T, n *rpcnode.Node, cfg *ingest.Config, o source.RPCOptions) *source.RPC {
	t.Helper()
	r, err := source.NewRPC(n.URL())
	if err != nil {
		t.Fatal(err)
	}
	o.Owners = decoders.Interest(cfg).AccountOwners
	if o.Bootstrap {
		o.Reads = decoders.AccountReads(cfg)
	}
	o.Backoff, o.Poll = time.Millisecond, 2*time.Millisecond
	o.Logger = slog.New(slog.DiscardHandler)
	if err := r.Configure(o); err != nil {
		t.Fatal(err)
	}
	return r
}

// answers is getAsset's answer for every asset folded, as dasch serves
// it (its last_indexed_slot left out), with and without the display
// options, by id.
func answers(t *testing.T, s store.Querier) map[string]string {
	t.Helper()
	ctx := context.Background()
	res, err := s.Query(ctx, `SELECT DISTINCT base58Encode(id) FROM asset_state`, nil)
	if err != nil {
		t.Fatal(err)
	}
	reg := methods.New(methods.Options{Methods: methods.DAS, Store: s, Slots: checkpoint.NewSlotCache(s, 0),
		Logger: slog.New(slog.DiscardHandler)})
	h, ok := reg.Lookup("getAsset")
	if !ok {
		t.Fatal("no getAsset")
	}
	out := map[string]string{}
	for i := range res.Rows {
		r := res.Row(i)
		id := r.Str(0)
		for _, opts := range []string{`{}`, `{"showFungible":true,"showUnverifiedCollections":true,"showCollectionMetadata":true,"showInscription":true}`} {
			got, err := h(ctx, &jsonrpc.Call{Method: "getAsset", Params: json.RawMessage(`{"id":"` + id + `","options":` + opts + `}`)})
			var answer string
			var je *jsonrpc.Error
			switch {
			case errors.As(err, &je):
				answer = fmt.Sprintf("error %d %s", je.Code, je.Message)
			case err != nil:
				t.Fatalf("getAsset %s: %v", id, err)
			default:
				var m map[string]any
				b, _ := json.Marshal(got)
				if err := json.Unmarshal(b, &m); err != nil {
					t.Fatal(err)
				}
				delete(m, "last_indexed_slot")
				b, _ = json.Marshal(m)
				answer = string(b)
			}
			out[id+" "+opts] = answer
		}
	}
	if len(out) < 100 {
		t.Fatalf("only %d answers", len(out))
	}
	return out
}

// sameAnswers fails t where got and want differ, id by id.
func sameAnswers(t *testing.T, what string, got, want map[string]string) {
	t.Helper()
	bad := 0
	for k, w := range want {
		if g, ok := got[k]; !ok {
			t.Errorf("%s: no answer for %s, want %.300s", what, k, w)
			bad++
		} else if g != w {
			t.Errorf("%s: %s:\n got %.600s\nwant %.600s", what, k, g, w)
			bad++
		}
		if bad > 5 {
			t.Fatalf("%s: more differences left out", what)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s: an answer for %s, which files do not have", what, k)
		}
	}
}

// tables is what the asset tables hold, FINAL, their version and time
// columns left out, as sorted lines. So is created_slot: the oldest slot
// of an asset's rows when it was folded, which depends on whether the
// engine had merged older rows away by then (docs/schema.md).
func tables(t *testing.T, s store.Querier) []string {
	t.Helper()
	var out []string
	for _, q := range []string{
		`SELECT 'state', hex(id), status, error, doc, slot FROM asset_state FINAL`,
		`SELECT 'account', hex(asset_id), kind, hex(pubkey), hex(program), hex(data), slot, write_version, amount FROM asset_accounts FINAL`,
		`SELECT 'token', hex(address), hex(mint), hex(owner), amount, frozen, delegated_amount, extensions, closed, slot, write_version FROM asset_token_accounts FINAL`,
		`SELECT 'owner', hex(owner), hex(address), hex(mint), amount, closed, slot FROM asset_token_owners FINAL`,
		`SELECT 'key', path, hex(key), hex(id), verified, slot, doc FROM asset_keys FINAL`,
		`SELECT 'edition', hex(master), hex(edition), hex(mint), number, slot FROM asset_editions FINAL`,
		`SELECT 'event', hex(asset_id), seq, hex(signature), ix_outer, ix_inner, instruction, slot, payload FROM bubblegum_events FINAL`,
		`SELECT 'close', hex(pubkey), slot, write_version FROM asset_closes FINAL`,
		`SELECT 'pubkey', hex(pubkey), hex(asset_id), kind, slot, write_version FROM asset_pubkeys FINAL`,
		`SELECT 'checkpoint', max(slot) FROM indexer_checkpoints`,
	} {
		res, err := s.Query(context.Background(), q, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range res.Rows {
			var b bytes.Buffer
			for i, v := range row {
				if i > 0 {
					b.WriteByte('\t')
				}
				fmt.Fprint(&b, v)
			}
			out = append(out, b.String())
		}
	}
	slices.Sort(out)
	return out
}

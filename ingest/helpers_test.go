package ingest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

func TestMain(m *testing.M) {
	code := m.Run()
	storetest.Close()
	os.Exit(code)
}

// fixtures are the chain fixtures the decoders' tests share.
const fixtures = "../chain/testdata"

const (
	photonTxs   = "photon/transactions/e2e_mint_and_transfer_transactions"
	voteBlock   = "photon/blocks/get_lanon_voting_signatures/270893658.json"
	lookupBlock = "photon/blocks/index_compress_and_close_with_tlv/443787702.json"
	dasAccounts = "das/accounts"
	dasTxs      = "das/transactions"
	mintSig     = "64jFxW4xxife8UqpEQyYdA589rzFKWx8rT4vun6soCpWXmDermr588UKX2261YYZ8ZSzcu2NUJY2aCfee64FvTW4"
	rentMaxAcct = "wKocBVvHQoVaiwWoCs9JYSVye4YZRrv5Cucf7fDqnz1"
	dasLegacy   = "3Ct9n9hv5PWEYbsrgDdUDqegzsnX2n5jYRxkq5YafFAueup8mTYmN4nHhNCaEwVyVAVqNssr4fizdg9wRavT7ydE"
)

// inputDir copies testdata paths (files or directories) into a new temp
// dir, keeping their relative paths, and adds extra files by name.
func inputDir(t *testing.T, paths []string, extra map[string]string) string {
	t.Helper()
	dst := t.TempDir()
	for _, p := range paths {
		src := filepath.Join(fixtures, filepath.FromSlash(p))
		err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(fixtures, path)
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			out := filepath.Join(dst, rel)
			if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
				return err
			}
			return os.WriteFile(out, b, 0o644)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for name, content := range extra {
		if err := os.WriteFile(filepath.Join(dst, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

func testdata(t *testing.T, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtures, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// query runs sql and returns its rows.
func query(t *testing.T, s arrowstore.Writer, sql string, params store.Params) [][]any {
	t.Helper()
	res, err := s.Query(context.Background(), sql, params)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return res.Rows
}

// one runs sql expecting exactly one row.
func one(t *testing.T, s arrowstore.Writer, sql string, params store.Params) []any {
	t.Helper()
	rows := query(t, s, sql, params)
	if len(rows) != 1 {
		t.Fatalf("%s: %d rows, want 1", sql, len(rows))
	}
	return rows[0]
}

func indexedSlot(t *testing.T, s arrowstore.Writer) uint64 {
	t.Helper()
	return one(t, s, `SELECT max(slot) FROM indexer_checkpoints WHERE name = 'main'`, nil)[0].(uint64)
}

// ingest runs the pipeline over dir with cfg's store and source filled in.
func ingest(t *testing.T, s arrowstore.Writer, dir string, cfg Config) Stats {
	t.Helper()
	src, err := ParseSource("files:" + dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Store, cfg.Source = s, src
	st, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return st
}

func keysOf(v any) []string {
	var out []string
	for _, k := range v.([]any) {
		out = append(out, k.(string))
	}
	return out
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

package compressedstate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/ingest/source"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

func TestMain(m *testing.M) {
	code := m.Run()
	storetest.Close()
	os.Exit(code)
}

// The e2e_mint_and_transfer_transactions set (README section 6 of the
// Photon corpus): a mint of 1000 to Bob at slot 40, then three transfers.
const (
	setDir  = "../../chain/testdata/photon/transactions/e2e_mint_and_transfer_transactions"
	mint    = "2U35cKS3Cj2xs5EBdByXYU7LaKAitqjSZc1Jnvu4iPf4"
	bob     = "EU57rQxcmFhJ24ApVdUy3y4MxFXcTUN3uiVeWvGgtWXu"
	charles = "CHvwuTvTiwRSNBwAnrCG14V8YTJ6wwhHQrifxdFzHzsX"
	cToken  = "cTokenmWW8bLPjZEBAUgYy3zKxQZW6VKi7bqNFEVv3m"

	sigMint = "64jFxW4xxife8UqpEQyYdA589rzFKWx8rT4vun6soCpWXmDermr588UKX2261YYZ8ZSzcu2NUJY2aCfee64FvTW4" // slot 40
	sigT1   = "5UZuijpSnqBpgMpqnggxZ58bzZ8aJtqqVjtvzx2Pg2C58jXph1rdrXyHdTxJfsHawNJyr8syU4U1MEYccDUQeTSV" // 41
	sigT2   = "2J9pSeLvXnyawUPKdks98ZibQWU8v38AEhmZp9g9P3WzY9dJSMQ3RmoUaGN1zVCF3tTQy6q2YbD94jq8uzSZsay7" // 42
	sigT3   = "5oTNJvc5WWJacEdpZLimVjGu1uGkXoMth8dNKaAymVKA7arwhccxeJPRWDuYEvQHNkGnkRNJcwUbtV4KnwebCKj5" // 43
)

// listed is the set's index_order, which is also slot order.
var listed = []string{sigMint, sigT1, sigT2, sigT3}

func txPath(sig string) string { return filepath.Join(setDir, sig+".json") }

func paths(sigs ...string) []string {
	out := make([]string, len(sigs))
	for i, s := range sigs {
		out[i] = txPath(s)
	}
	return out
}

// index runs one pipeline over files, in order, with compressed indexing
// and the options cfg sets.
func index(t *testing.T, s arrowstore.Writer, files []string, cfg ingest.Config) ingest.Stats {
	t.Helper()
	ctx := context.Background()
	cfg.Store, cfg.Source = s, source.NewFileList(files)
	if err := Configure(ctx, s, &cfg); err != nil {
		t.Fatal(err)
	}
	st, err := ingest.Run(ctx, cfg)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return st
}

// stopMerges keeps the tables' parts apart until the test ends.
func stopMerges(t *testing.T, s arrowstore.Writer, tables ...string) {
	t.Helper()
	ctx := context.Background()
	for _, table := range tables {
		if err := s.Exec(ctx, "SYSTEM STOP MERGES "+table, nil); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Exec(ctx, "SYSTEM START MERGES "+table, nil) })
	}
}

func query(t *testing.T, s arrowstore.Writer, sql string, params store.Params) [][]any {
	t.Helper()
	res, err := s.Query(context.Background(), sql, params)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return res.Rows
}

// rows renders every row of sql as space-separated values.
func rows(t *testing.T, s arrowstore.Writer, sql string) []string {
	t.Helper()
	var out []string
	for _, r := range query(t, s, sql, nil) {
		parts := make([]string, len(r))
		for i, v := range r {
			parts[i] = fmt.Sprint(v)
		}
		out = append(out, strings.Join(parts, " "))
	}
	return out
}

// rawSig is the raw bytes of a base58 signature, for byte-order sorting.
func rawSig(s string) string {
	b, _ := base58.Decode(s)
	return string(b)
}

package compressedstate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/internal/storetest"
)

// TestUnknownTreeDoesNotStall indexes the set with only another tree
// known: every output is dropped and counted, and ingestion goes on.
func TestUnknownTreeDoesNotStall(t *testing.T) {
	s := storetest.Open(t)
	if err := SeedTrees(context.Background(), s, strings.NewReader(smt2Only)); err != nil {
		t.Fatal(err)
	}
	st := index(t, s, paths(listed...), ingest.Config{})
	if st.Slot != 43 || st.DeadLetters != 0 || st.Counts["compressed outputs in unknown trees dropped"] != 7 {
		t.Errorf("stats %+v", st)
	}
	if !strings.HasSuffix(st.Summary(), "; 7 compressed outputs in unknown trees dropped") {
		t.Errorf("summary %q", st.Summary())
	}
	got := rows(t, s, `SELECT (SELECT count() FROM compressed_accounts), (SELECT count() FROM compressed_spent),
		(SELECT count() FROM compression_signatures FINAL), (SELECT count() FROM token_accounts),
		(SELECT count() FROM token_balances), (SELECT count() FROM owner_txs), (SELECT count() FROM transactions FINAL)`)
	if got[0] != "0 3 4 0 0 0 4" {
		t.Errorf("rows %v, want no accounts, 3 spends, 4 signatures, 4 transactions", got)
	}
}

// TestFailedTransactionWritesNoState indexes a failed copy of a transfer.
func TestFailedTransactionWritesNoState(t *testing.T) {
	s := storetest.Open(t)
	file := filepath.Join(t.TempDir(), "failed.json")
	if err := os.WriteFile(file, failedCopy(t, sigT1), 0o644); err != nil {
		t.Fatal(err)
	}
	index(t, s, []string{txPath(sigMint), file}, ingest.Config{})
	got := rows(t, s, `SELECT (SELECT count() FROM compressed_accounts), (SELECT count() FROM compressed_spent),
		(SELECT count() FROM compression_signatures), (SELECT countIf(failed) FROM transactions FINAL)`)
	if got[0] != "1 0 1 1" {
		t.Errorf("rows %v, want only the mint's account and signature", got)
	}
	if got := rows(t, s, `SELECT base58Encode(owner), balance FROM token_balances FINAL`); len(got) != 1 || got[0] != bob+" 1000" {
		t.Errorf("balances %v, want Bob's minted 1000 only", got)
	}
}

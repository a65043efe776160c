package compressedstate

import (
	"github.com/dasch-labs/dasch/schema"
	"slices"
	"strings"
	"testing"

	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// answers are what readers of the compressed tables see: every
// deduplicated row, versions left out (they record when, not what).
func answers() map[string]string {
	return map[string]string{
		"compressed_accounts":        `SELECT * FROM compressed_accounts FINAL ORDER BY hash`,
		"compressed_spent":           `SELECT * FROM compressed_spent FINAL ORDER BY hash`,
		"compressed_by_owner":        `SELECT * FROM compressed_by_owner FINAL ORDER BY owner, hash`,
		"token_accounts":             `SELECT * FROM token_accounts FINAL ORDER BY token_owner, mint, hash`,
		"token_accounts_by_delegate": `SELECT * FROM token_accounts_by_delegate FINAL ORDER BY delegate_key, mint, hash`,
		"token_balances":             `SELECT owner, mint, balance FROM token_balances FINAL ORDER BY owner, mint`,
		"mint_holders":               `SELECT mint, balance, owner FROM mint_holders FINAL ORDER BY mint, balance, owner`,
		"compression_signatures":     `SELECT * FROM compression_signatures FINAL ORDER BY slot, signature`,
		"owner_txs":                  `SELECT * FROM owner_txs FINAL ORDER BY owner, slot, sig_prefix`,
		"token_owner_txs":            `SELECT * FROM token_owner_txs FINAL ORDER BY owner, slot, sig_prefix`,
	}
}

func snapshot(t *testing.T, s arrowstore.Writer) map[string]string {
	t.Helper()
	out := map[string]string{}
	for name, sql := range answers() {
		out[name] = strings.Join(rows(t, s, sql), "\n")
	}
	return out
}

func sameAnswers(t *testing.T, what string, want, got map[string]string) {
	t.Helper()
	for name := range answers() {
		if want[name] != got[name] {
			t.Errorf("%s: %s differs:\n%s\nwant:\n%s", what, name, got[name], want[name])
		}
	}
}

// rowCounts counts the stored rows of the versioned tables, before any
// deduplication: applying a range again must not add versions.
func rowCounts(t *testing.T, s arrowstore.Writer) string {
	t.Helper()
	return strings.Join(rows(t, s, `SELECT (SELECT count() FROM token_balances), (SELECT count() FROM mint_holders)`), "")
}

// checkLedger checks the final state of the set against README section 6
// and the signature snapshots; slot is the slot every row was forced to,
// or nil for the real slots 40..43.
func checkLedger(t *testing.T, s arrowstore.Writer, slot *uint64) {
	t.Helper()
	at := func(real string) string {
		if slot != nil {
			return "0"
		}
		return real
	}
	check := func(name, sql string, want []string) {
		t.Helper()
		if got := rows(t, s, sql); !slices.Equal(got, want) {
			t.Errorf("%s:\n%s\nwant:\n%s", name, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	check("unspent token accounts", `SELECT base58Encode(token_owner), base58Encode(mint), amount, base58Encode(hash), slot_created
		FROM token_accounts FINAL WHERE NOT spent ORDER BY token_owner, mint, hash`, []string{
		charles + " " + mint + " 200 2TxrLe9HDTRDpVXmbkXUgXNksCZ7RdU4Tc2Ea1B8ADs2 " + at("42"),
		charles + " " + mint + " 695 2o5puhnQbtqyyrcZrsow4DSs6kafmyUTYmgdwXfMMehS " + at("43"),
		bob + " " + mint + " 5 JReC6h68m3EdCKP7S35e7BE4pBPwQz1HfjUkboeQy9r " + at("43"),
		bob + " " + mint + " 100 2R46QL8CSripTWvEsESL39ccripkjs9MjGtwnbJMzJET " + at("42"),
	})
	check("spent token accounts", `SELECT base58Encode(token_owner), amount, spent_slot
		FROM token_accounts FINAL WHERE spent ORDER BY token_owner, amount`, []string{
		charles + " 700 " + at("43"),
		bob + " 300 " + at("42"),
		bob + " 1000 " + at("41"),
	})
	check("token balances", `SELECT base58Encode(owner), base58Encode(mint), balance FROM token_balances FINAL ORDER BY owner`,
		[]string{charles + " " + mint + " 895", bob + " " + mint + " 105"})
	check("mint holders", `SELECT base58Encode(mint), balance, base58Encode(owner), is_deleted FROM mint_holders FINAL
		ORDER BY mint, balance DESC, owner DESC`,
		[]string{mint + " 895 " + charles + " 0", mint + " 105 " + bob + " 0"})
	// Token accounts are listed by owner from compressed_accounts, not
	// compressed_by_owner (migration 7).
	check("accounts by owner", `SELECT base58Encode(owner), count(), countIf(hash NOT IN (SELECT hash FROM compressed_spent))
		FROM compressed_accounts FINAL GROUP BY owner`, []string{cToken + " 7 4"})
	check("no token rows by owner", `SELECT count() FROM compressed_by_owner`, []string{"0"})
	check("by delegate", `SELECT count() FROM token_accounts_by_delegate FINAL`, []string{"0"})
	check("compression signatures", `SELECT slot, base58Encode(signature), block_time FROM compression_signatures FINAL
		ORDER BY slot, signature`, ledgerSigs(slot, []string{sigMint, sigT1, sigT2, sigT3},
		[]string{"40 1724707606", "41 1724707606", "42 1724707607", "43 1724707607"}))
	// getCompressionSignaturesForTokenOwner: Bob 4, Charles 3 (snapshots).
	check("token owner signatures", `SELECT base58Encode(o.owner), o.slot, base58Encode(c.signature), c.block_time FROM token_owner_txs AS o FINAL
		INNER JOIN compression_signatures AS c FINAL ON c.slot = o.slot AND `+schema.SigPrefix("c.signature")+` = o.sig_prefix
		ORDER BY o.owner, o.slot, c.signature`, append(
		prefixed(charles, ledgerSigs(slot, []string{sigT1, sigT2, sigT3}, []string{"41 1724707606", "42 1724707607", "43 1724707607"})),
		prefixed(bob, ledgerSigs(slot, []string{sigMint, sigT1, sigT2, sigT3},
			[]string{"40 1724707606", "41 1724707606", "42 1724707607", "43 1724707607"}))...))
	check("owner signatures", `SELECT base58Encode(owner), count() FROM owner_txs FINAL GROUP BY owner`,
		[]string{cToken + " 4"})
}

// ledgerSigs renders "slot signature block_time" rows, in the order the
// forced slot sorts them (by signature bytes) when slot is set.
func ledgerSigs(slot *uint64, sigs, slotTimes []string) []string {
	out := make([]string, len(sigs))
	for i, sig := range sigs {
		st := strings.Fields(slotTimes[i])
		if slot != nil {
			st = []string{"0", "0"}
		}
		out[i] = st[0] + " " + sig + " " + st[1]
	}
	if slot != nil {
		slices.SortFunc(out, func(a, b string) int {
			return strings.Compare(rawSig(strings.Fields(a)[1]), rawSig(strings.Fields(b)[1]))
		})
	}
	return out
}

func prefixed(p string, rows []string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = p + " " + r
	}
	return out
}

func TestLedger(t *testing.T) {
	s := storetest.Open(t)
	// One item per batch, so that the steps run over several ranges.
	st := index(t, s, paths(listed...), ingest.Config{BatchRows: 1, Workers: 1})
	if st.Slot != 43 || st.Txs != 4 || st.DeadLetters != 0 {
		t.Fatalf("stats %+v", st)
	}
	checkLedger(t, s, nil)
	before, counts := snapshot(t, s), rowCounts(t, s)

	// Re-ingesting changes no answer and, the balances being unchanged,
	// writes no new balance or holder versions.
	index(t, s, paths(listed...), ingest.Config{})
	sameAnswers(t, "re-ingest", before, snapshot(t, s))
	if got := rowCounts(t, s); got != counts {
		t.Errorf("re-ingest wrote versions: %s rows, want %s", got, counts)
	}

	t.Run("one per run in reverse order", func(t *testing.T) {
		s := storetest.Open(t)
		for i := len(listed) - 1; i >= 0; i-- {
			index(t, s, paths(listed[i]), ingest.Config{})
		}
		checkLedger(t, s, nil)
		sameAnswers(t, "reverse", before, snapshot(t, s))
		if got := rows(t, s, `SELECT max(slot) FROM indexer_checkpoints`); got[0] != "43" {
			t.Errorf("checkpoint %v", got)
		}
	})
}

// TestForcedSlotOrders indexes the set as the conformance cases do: every
// transaction in slot 0, in the listed order and then in the listed order
// followed by all but the last again (index_order_variants).
func TestForcedSlotOrders(t *testing.T) {
	s := storetest.Open(t)
	zero := uint64(0)
	st := index(t, s, paths(listed...), ingest.Config{ForceSlot: &zero})
	if st.Slot != 0 || st.Txs != 4 {
		t.Fatalf("stats %+v", st)
	}
	checkLedger(t, s, &zero)
	if got := rows(t, s, `SELECT count(), max(slot) FROM indexer_checkpoints WHERE name = 'main'`); got[0] != "1 0" {
		t.Errorf("checkpoint rows %v, want one at slot 0", got)
	}
	if got := rows(t, s, `SELECT uniqExact(slot), any(slot), any(block_time) FROM transactions FINAL`); got[0] != "1 0 0" {
		t.Errorf("transactions slots %v", got)
	}
	before, counts := snapshot(t, s), rowCounts(t, s)
	for _, order := range [][]string{listed, append(slices.Clone(listed), listed[:len(listed)-1]...)} {
		index(t, s, paths(order...), ingest.Config{ForceSlot: &zero})
		sameAnswers(t, "variant", before, snapshot(t, s))
	}
	if got := rowCounts(t, s); got != counts {
		t.Errorf("variants wrote versions: %s rows, want %s", got, counts)
	}
}

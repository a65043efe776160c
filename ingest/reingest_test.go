package ingest

import (
	"fmt"
	"testing"

	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// answers fingerprints what readers see: every column but indexed_at of
// every deduplicated row, and the indexed slot.
func answers() map[string]string {
	return map[string]string{
		"transactions": `SELECT count(), sum(cityHash64(slot, signature, tx_index, block_time, failed, ifNull(err, ''), fee,
			fee_payer, is_vote, account_keys, program_ids, ifNull(compute_units, 0), raw)) FROM transactions FINAL`,
		"blocks": `SELECT count(), sum(cityHash64(slot, parent_slot, blockhash, previous_blockhash, ifNull(block_height, 0),
			block_time, tx_count)) FROM blocks FINAL`,
		"accounts": `SELECT count(), sum(cityHash64(pubkey, owner, lamports, data, executable, rent_epoch, slot,
			write_version, version)) FROM accounts FINAL`,
		"accounts_by_owner":   `SELECT count(), sum(cityHash64(owner, pubkey, lamports, slot, write_version, version)) FROM accounts_by_owner FINAL`,
		"indexer_checkpoints": `SELECT count(), max(slot) FROM indexer_checkpoints FINAL`,
		"dead_letters":        `SELECT count(), sum(cityHash64(source, kind, key, slot, error, payload)) FROM dead_letters FINAL`,
	}
}

func snapshot(t *testing.T, s arrowstore.Writer) map[string]string {
	t.Helper()
	out := map[string]string{}
	for name, sql := range answers() {
		out[name] = fmt.Sprint(one(t, s, sql, nil))
	}
	return out
}

func TestReingestChangesNoAnswer(t *testing.T) {
	s := storetest.Open(t)
	// Bad input too: its dead letters must not pile up either.
	dir := inputDir(t, fixtureSet, map[string]string{"malformed.json": malformed, "unknown.json": unknown})
	first := ingest(t, s, dir, Config{})
	before := snapshot(t, s)

	// Different parallelism and batch sizes must not matter either.
	second := ingest(t, s, dir, Config{Workers: 3, BatchRows: 7, BatchBytes: 64 << 10})
	// The second run did insert everything again; the engine deduplicates.
	if first.Items != second.Items || first.Slot != second.Slot || second.Rows["transactions"] != 83 || second.Rows["accounts"] != 2 {
		t.Errorf("runs differ: %+v vs %+v", first, second)
	}
	after := snapshot(t, s)
	for name := range answers() {
		if before[name] != after[name] {
			t.Errorf("%s changed: %s → %s", name, before[name], after[name])
		}
	}
}

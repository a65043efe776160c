package schema

import "fmt"

// MergeBaseTables are the tables whose merges migrations 17
// (fewer_merge_rewrites) and 25 (balance_merges) make wider: the
// compressed-state tables every output or transaction writes rows to,
// read by key lookups, key ranges of new parts, or whole (the token
// index's load), and the balances the state step writes a part of per
// step. owner_txs and token_owner_txs, which replaced the owner signature
// tables in migration 18, and token_ledger_applied (migration 22) are
// created with it.
func MergeBaseTables() []string {
	return []string{
		TableCompressed, TableCompressedSpent, TableCompressedByOwner, TableTokenAccounts, TableTokenByDelegate,
		TableTokenLedger, TableCompressionSigs, TableOwnerTxs, TableTokenOwnerTxs, TableTokenLedgerApplied,
		TableTokenBalances, TableMintHolders,
	}
}

// mergeBaseTables17 are the tables migration 17 changes. It changed
// owner_signatures and token_owner_signatures too until migration 18
// replaced them: migrations apply again after later ones (a store reset,
// a test re-running from a version), and migration 19 drops them.
func mergeBaseTables17() []string {
	return []string{
		TableCompressed, TableCompressedSpent, TableCompressedByOwner, TableTokenAccounts, TableTokenByDelegate,
		TableTokenLedger, TableCompressionSigs,
	}
}

// MergeBase is the merge_selector_base of MergeBaseTables.
const MergeBase = 10

// fewerMergeRewrites is migration 17: the merge selector of the tables
// the ingest writes most waits for about twice as many parts of a size
// before merging them (merge_selector_base 10 instead of 5), so each row
// is rewritten by fewer merges on its way to a large part.
//
// Merges were a large share of the ingest's CPU (perf, by thread, and a
// 4M-account bench ingest with every merge stopped; docs/performance.md).
// The price is more active parts between merges: a key lookup or a FINAL
// range reads one more index or granule per part.
func fewerMergeRewrites() []string { return widerMerges(mergeBaseTables17()...) }

// widerMerges sets MergeBase on each table.
func widerMerges(tables ...string) []string {
	var out []string
	for _, t := range tables {
		out = append(out, fmt.Sprintf(`ALTER TABLE %s MODIFY SETTING merge_selector_base = %d`, t, MergeBase))
	}
	return out
}

// balanceMerges is migration 25: token_balances and mint_holders, which the
// state step writes one part per step (ingest/compressedstate onePart), wait
// for as many parts as the tables above before merging them. Migration 17
// had left them at the default because the API's store paths read ranges
// of them with FINAL, which reads one more index per part; the API serves
// both from the serving index, and the store paths' pages are measured in
// the bench with the parts it leaves. Fewer merges make the ingest faster
// for a few more parts a table (stopped 20M bench runs, docs/performance.md).
func balanceMerges() []string { return widerMerges(TableTokenBalances, TableMintHolders) }

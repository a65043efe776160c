package schema

// Parsed transactions and the address index of their history.
const (
	TableParsedTxs  = "parsed_transactions"
	TableAddressTxs = "address_transactions"
)

// parsedEvents is migration 35: each indexed transaction, parsed once at
// ingest into its parsed-events answer, and an entry per address it
// concerns. parsed_transactions is keyed by signature, in small granules,
// so a batch of signatures is a set of keyed lookups that each read a
// few documents; address_transactions is ordered
// by (address, slot, tx_index), so a page of an address's history at any
// depth is one range of the key, read in either direction; the signature
// ends the key because transactions read outside a block all have index
// 0. Both replace identical rows, so re-ingesting a slot changes nothing.
func parsedEvents() []string {
	return []string{
		`CREATE TABLE IF NOT EXISTS parsed_transactions (
			signature FixedString(64),
			slot UInt64,
			tx_index UInt32,
			block_time Int64,
			failed Bool,
			parsed String CODEC(ZSTD(3))
		) ENGINE = ReplacingMergeTree
		ORDER BY signature
		SETTINGS index_granularity = 128`,
		`CREATE TABLE IF NOT EXISTS address_transactions (
			address FixedString(32),
			slot UInt64,
			tx_index UInt32,
			signature FixedString(64),
			block_time Int64
		) ENGINE = ReplacingMergeTree
		ORDER BY (address, slot, tx_index, signature)`,
	}
}

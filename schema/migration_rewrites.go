package schema

// TableRewrites logs the slot ranges an ingest derived again below the
// indexed slot (a backfill, a re-ingestion): readers that follow the
// store by slot, such as the API's token account index, re-read them.
const TableRewrites = "indexer_rewrites"

// rewrites is migration 16: the rewrite log.
//
// The API process's token account index follows token_accounts by the
// slot a row became true at, from the indexed slot on. A run over slots
// at or below the checkpoint writes rows there, and the checkpoint, which
// keeps its highest value, does not move for them: without the log the
// index never read them and served those owners' pages stale until a
// restart. A reader needs only the entries since it loaded: entries go
// after 30 days (TTL), so the log stays small.
func rewrites() []string {
	return []string{
		`CREATE TABLE IF NOT EXISTS indexer_rewrites (
			at DateTime64(6, 'UTC') DEFAULT now64(6),
			from_slot UInt64,
			to_slot UInt64
		) ENGINE = MergeTree
		ORDER BY at
		TTL toDateTime(at) + INTERVAL 30 DAY`,
	}
}

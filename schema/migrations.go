package schema

// Table names, for the code that writes and reads them.
const (
	TableMigrations  = "schema_migrations"
	TableBlocks      = "blocks"
	TableTxs         = "transactions"
	TableAccounts    = "accounts"
	TableAccByOwner  = "accounts_by_owner"
	TableProjects    = "api_projects"
	TableKeys        = "api_keys"
	TableDeadLetters = "dead_letters"
	TableCheckpoints = "indexer_checkpoints"

	// Compressed state (ZK compression).
	TableStateTrees        = "state_trees"
	TableCompressed        = "compressed_accounts"
	TableCompressedSpent   = "compressed_spent"
	TableCompressedByOwner = "compressed_by_owner"
	TableTokenAccounts     = "token_accounts"
	TableTokenByDelegate   = "token_accounts_by_delegate"
	TableTokenBalances     = "token_balances"
	TableMintHolders       = "mint_holders"
	TableCompressionSigs   = "compression_signatures"
	// Replaced by owner_txs and token_owner_txs (migration 18), dropped
	// by migration 19.
	TableOwnerSigs      = "owner_signatures"
	TableTokenOwnerSigs = "token_owner_signatures"
)

// CheckpointMain is the checkpoint row of the main ingestion pipeline.
const CheckpointMain = "main"

// Migration is one schema version. Every statement is idempotent on its own
// (IF NOT EXISTS), so a migration interrupted half way re-applies cleanly.
type Migration struct {
	Version    uint32
	Name       string
	Statements []string
}

// Migrations lists every schema version in order. Append only: a released
// migration never changes.
func Migrations() []Migration {
	return []Migration{
		{Version: 1, Name: "foundation", Statements: []string{
			// Immutable block headers; the replacing engine absorbs re-ingestion.
			`CREATE TABLE IF NOT EXISTS blocks (
				slot UInt64,
				parent_slot UInt64,
				blockhash String,
				previous_blockhash String,
				block_height Nullable(UInt64),
				block_time Int64,
				tx_count UInt32,
				indexed_at DateTime64(3, 'UTC') DEFAULT now64(3)
			) ENGINE = ReplacingMergeTree
			ORDER BY slot`,
			// Raw transactions, ordered for "latest first" scans by slot; the
			// bloom filter serves lookups by signature.
			`CREATE TABLE IF NOT EXISTS transactions (
				slot UInt64,
				signature FixedString(64),
				tx_index UInt32,
				block_time Int64,
				failed Bool,
				err Nullable(String),
				fee UInt64,
				fee_payer FixedString(32),
				is_vote Bool,
				account_keys Array(FixedString(32)),
				program_ids Array(FixedString(32)),
				compute_units Nullable(UInt64),
				raw String CODEC(ZSTD(3)),
				indexed_at DateTime64(3, 'UTC') DEFAULT now64(3),
				INDEX sig_bf signature TYPE bloom_filter(0.001) GRANULARITY 1
			) ENGINE = ReplacingMergeTree
			ORDER BY (slot, signature)`,
			// Account state: one row per write; the newest (slot, write_version)
			// wins on merge and with FINAL or argMax on read.
			`CREATE TABLE IF NOT EXISTS accounts (
				pubkey FixedString(32),
				owner FixedString(32),
				lamports UInt64,
				data String CODEC(ZSTD(3)),
				executable Bool,
				rent_epoch UInt64,
				slot UInt64,
				write_version UInt64,
				version UInt128 DEFAULT bitShiftLeft(toUInt128(slot), 64) + write_version,
				indexed_at DateTime64(3, 'UTC') DEFAULT now64(3)
			) ENGINE = ReplacingMergeTree(version)
			ORDER BY pubkey`,
			// Second ordered access path: accounts of one owner program.
			`CREATE TABLE IF NOT EXISTS accounts_by_owner (
				owner FixedString(32),
				pubkey FixedString(32),
				lamports UInt64,
				slot UInt64,
				write_version UInt64,
				version UInt128
			) ENGINE = ReplacingMergeTree(version)
			ORDER BY (owner, pubkey)`,
			`CREATE MATERIALIZED VIEW IF NOT EXISTS accounts_by_owner_mv TO accounts_by_owner AS
				SELECT owner, pubkey, lamports, slot, write_version, version FROM accounts`,
			`CREATE TABLE IF NOT EXISTS api_projects (
				id String,
				name String,
				created_at DateTime64(3, 'UTC') DEFAULT now64(3)
			) ENGINE = ReplacingMergeTree(created_at)
			ORDER BY id`,
			// Keys are stored as SHA-256 hashes; the plaintext is shown once.
			`CREATE TABLE IF NOT EXISTS api_keys (
				key_hash FixedString(32),
				key_prefix String,
				project_id String,
				revoked Bool DEFAULT false,
				created_at DateTime64(3, 'UTC') DEFAULT now64(3),
				updated_at DateTime64(3, 'UTC') DEFAULT now64(3)
			) ENGINE = ReplacingMergeTree(updated_at)
			ORDER BY key_hash`,
			// Keyed by what failed and why, so re-ingesting the same bad input
			// does not add the same dead letter again.
			`CREATE TABLE IF NOT EXISTS dead_letters (
				at DateTime64(3, 'UTC') DEFAULT now64(3),
				source String,
				kind LowCardinality(String),
				key String,
				slot UInt64,
				error String,
				payload String CODEC(ZSTD(3))
			) ENGINE = ReplacingMergeTree
			ORDER BY (kind, key, error)`,
			// The highest slot per pipeline wins, so the indexed slot never
			// moves backwards.
			`CREATE TABLE IF NOT EXISTS indexer_checkpoints (
				name String,
				slot UInt64,
				updated_at DateTime64(3, 'UTC') DEFAULT now64(3)
			) ENGINE = ReplacingMergeTree(slot)
			ORDER BY name`,
		}},
		{Version: 2, Name: "compressed_state", Statements: compressedState()},
		{Version: 3, Name: "digital_assets", Statements: digitalAssets()},
		{Version: 4, Name: "merkle_proofs", Statements: proofState()},
		{Version: 5, Name: "compressed_ingest", Statements: compressedIngest()},
		{Version: 6, Name: "compressed_ledger", Statements: compressedLedger()},
		{Version: 7, Name: "token_rows_not_by_owner", Statements: ownerTokens()},
		{Version: 8, Name: "spent_resolved_once", Statements: spentOnce()},
		{Version: 10, Name: "token_granules", Statements: tokenGranules()},
		{Version: 11, Name: "token_sync", Statements: tokenSync()},
		{Version: 12, Name: "raw_codecs", Statements: rawCodecs()},
		{Version: 13, Name: "spent_pending", Statements: spentPending()},
		{Version: 14, Name: "pending_slot", Statements: pendingSlot()},
		{Version: 15, Name: "read_paths_without_signature", Statements: readPathsNoSignature()},
		{Version: 16, Name: "rewrite_log", Statements: rewrites()},
		{Version: 17, Name: "fewer_merge_rewrites", Statements: fewerMergeRewrites()},
		{Version: 18, Name: "signature_prefixes", Statements: signaturePrefixes()},
		{Version: 19, Name: "drop_full_signatures", Statements: dropFullSignatures()},
		{Version: 20, Name: "stored_balances", Statements: storedBalances()},
		{Version: 21, Name: "account_granules", Statements: accountGranules()},
		{Version: 22, Name: "narrow_markers", Statements: narrowMarkers()},
		{Version: 23, Name: "change_pairs", Statements: changePairs()},
		{Version: 24, Name: "ledger_spends_only", Statements: ledgerSpendsOnly()},
		{Version: 25, Name: "balance_merges", Statements: balanceMerges()},
		{Version: 26, Name: "asset_state", Statements: assetState()},
		{Version: 27, Name: "asset_listing", Statements: assetListing()},
		{Version: 28, Name: "bubblegum_nodes", Statements: bubblegumNodes()},
		{Version: 29, Name: "asset_docs", Statements: assetDocs()},
		{Version: 30, Name: "usage", Statements: usage()},
		{Version: 31, Name: "sol_balances", Statements: solBalances()},
		{Version: 32, Name: "listing_keys", Statements: listingKeys()},
		{Version: 33, Name: "asset_closes", Statements: assetCloses()},
		{Version: 34, Name: "asset_metadata", Statements: assetMetadata()},
		{Version: 35, Name: "parsed_events", Statements: parsedEvents()},
		{Version: 36, Name: "token_swaps", Statements: tokenSwaps()},
		{Version: 37, Name: "token_prices", Statements: tokenPrices()},
		{Version: 38, Name: "asset_docs_prev", Statements: assetDocsPrev()},
		{Version: 39, Name: "search_keys", Statements: searchKeys()},
	}
}

// compressedAccountColumns are the columns of one compressed account as the
// event created it, shared by the raw table and the derived read tables.
const compressedAccountColumns = `
	hash FixedString(32),
	tree FixedString(32),
	queue FixedString(32),
	tree_type UInt8,
	leaf_index UInt64,
	seq Nullable(UInt64),
	in_output_queue Bool,
	slot_created UInt64,
	signature FixedString(64),
	owner FixedString(32),
	lamports UInt64,
	address Nullable(FixedString(32)),
	discriminator Nullable(UInt64),
	data Nullable(String),
	data_hash Nullable(FixedString(32)),
	is_token Bool,
	mint FixedString(32),
	token_owner FixedString(32),
	amount UInt64,
	delegate Nullable(FixedString(32)),
	token_state UInt8,
	tlv Nullable(String)`

func compressedState() []string {
	return []string{
		// Tree metadata is data: seeded from configuration, extended later.
		`CREATE TABLE IF NOT EXISTS state_trees (
			tree FixedString(32),
			queue FixedString(32),
			tree_type UInt8,
			height UInt32,
			root_history_capacity UInt64,
			updated_at DateTime64(3, 'UTC') DEFAULT now64(3)
		) ENGINE = ReplacingMergeTree(updated_at)
		ORDER BY tree`,
		// Every output account, written once by the decoder (immutable).
		// The state step finds a slot range's outputs through slot_mm: a
		// part starts as one insert's few slots, so other parts are skipped.
		`CREATE TABLE IF NOT EXISTS compressed_accounts (` + compressedAccountColumns + `,
			INDEX address_bf address TYPE bloom_filter(0.001) GRANULARITY 1,
			INDEX slot_mm slot_created TYPE minmax GRANULARITY 1
		) ENGINE = ReplacingMergeTree
		ORDER BY hash`,
		// Every input account (spent), by hash; written once by the decoder.
		// block_time lets the state step write the spend's signature rows
		// without a join.
		`CREATE TABLE IF NOT EXISTS compressed_spent (
			hash FixedString(32),
			slot UInt64,
			signature FixedString(64),
			block_time Int64,
			nullifier Nullable(FixedString(32)),
			tx_hash Nullable(FixedString(32)),
			queue_index Nullable(UInt64),
			INDEX slot_mm slot TYPE minmax GRANULARITY 1
		) ENGINE = ReplacingMergeTree
		ORDER BY hash`,
		// Read paths below are derived by the state step after each commit:
		// a spent row (spent = true) replaces the unspent one on merge/FINAL.
		`CREATE TABLE IF NOT EXISTS compressed_by_owner (` + compressedAccountColumns + `,
			spent Bool,
			spent_slot UInt64
		) ENGINE = ReplacingMergeTree(spent)
		ORDER BY (owner, hash)`,
		`CREATE TABLE IF NOT EXISTS token_accounts (` + compressedAccountColumns + `,
			spent Bool,
			spent_slot UInt64
		) ENGINE = ReplacingMergeTree(spent)
		ORDER BY (token_owner, mint, hash)`,
		`CREATE TABLE IF NOT EXISTS token_accounts_by_delegate (` + compressedAccountColumns + `,
			delegate_key FixedString(32),
			spent Bool,
			spent_slot UInt64
		) ENGINE = ReplacingMergeTree(spent)
		ORDER BY (delegate_key, mint, hash)`,
		// Current balance per (owner, mint); version grows with each state
		// step that changes it.
		`CREATE TABLE IF NOT EXISTS token_balances (
			owner FixedString(32),
			mint FixedString(32),
			balance UInt64,
			version UInt64,
			-- The serving index syncs by "version >= last seen".
			INDEX version_mm version TYPE minmax GRANULARITY 1
		) ENGINE = ReplacingMergeTree(version)
		ORDER BY (owner, mint)`,
		// Holders ordered for keyset pages; a balance change writes a
		// tombstone (is_deleted = 1) for the old (mint, balance, owner) key.
		`CREATE TABLE IF NOT EXISTS mint_holders (
			mint FixedString(32),
			balance UInt64,
			owner FixedString(32),
			version UInt64,
			is_deleted UInt8
		) ENGINE = ReplacingMergeTree(version, is_deleted)
		ORDER BY (mint, balance, owner)`,
		`CREATE TABLE IF NOT EXISTS compression_signatures (
			slot UInt64,
			signature FixedString(64),
			block_time Int64
		) ENGINE = ReplacingMergeTree
		ORDER BY (slot, signature)`,
		`CREATE TABLE IF NOT EXISTS owner_signatures (
			owner FixedString(32),
			slot UInt64,
			signature FixedString(64),
			block_time Int64
		) ENGINE = ReplacingMergeTree
		ORDER BY (owner, slot, signature)`,
		`CREATE TABLE IF NOT EXISTS token_owner_signatures (
			owner FixedString(32),
			slot UInt64,
			signature FixedString(64),
			block_time Int64
		) ENGINE = ReplacingMergeTree
		ORDER BY (owner, slot, signature)`,
	}
}

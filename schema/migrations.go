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
	}
}

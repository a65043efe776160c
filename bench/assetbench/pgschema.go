package assetbench

// pgSettings tune the reference for a bulk load and point reads on this
// machine the way an operator would, as the compressed suite's do.
func pgSettings() map[string]string {
	return map[string]string{
		"shared_buffers":                   "2GB",
		"effective_cache_size":             "8GB",
		"work_mem":                         "16MB",
		"maintenance_work_mem":             "1GB",
		"max_parallel_maintenance_workers": "2",
		"max_wal_size":                     "16GB",
		"checkpoint_timeout":               "30min",
		"fsync":                            "off",
		"synchronous_commit":               "off",
		"full_page_writes":                 "off",
		"wal_level":                        "minimal",
		"max_wal_senders":                  "0",
		"autovacuum":                       "off", // the load ends with an explicit VACUUM ANALYZE
		"random_page_cost":                 "1.1",
		"jit":                              "off", // JIT compiles per query: a latency cost on point reads
	}
}

// pgEnums are the reference's enum types the asset tables use, with the
// values its later migrations added.
var pgEnums = []string{"owner_type", "royalty_target_type", "chain_mutability", "mutability",
	"specification_versions", "specification_asset_class"}

// pgSchema is the Metaplex reference implementation's schema for the
// tables getAsset and getAssetBatch read, and the token tables beside
// them (metaplex-foundation/digital-asset-rpc-infrastructure: init.sql
// and the migrations after it, as of m20250327): the columns as its
// generated models have them, the fillfactors it sets. Keys and indexes
// come after the load (pgIndexes). Its trigger keeping asset.slot_updated
// fires on UPDATE only, which no step here runs; the foreign keys were
// dropped by its own migrations.
func pgSchema() []string {
	return []string{
		`CREATE TYPE owner_type AS ENUM ('unknown', 'token', 'single')`,
		`CREATE TYPE royalty_target_type AS ENUM ('unknown', 'creators', 'fanout', 'single')`,
		`CREATE TYPE chain_mutability AS ENUM ('unknown', 'mutable', 'immutable')`,
		`CREATE TYPE mutability AS ENUM ('unknown', 'mutable', 'immutable')`,
		`CREATE TYPE specification_versions AS ENUM ('unknown', 'v0', 'v1', 'v2')`,
		`CREATE TYPE specification_asset_class AS ENUM ('unknown', 'FUNGIBLE_TOKEN', 'FUNGIBLE_ASSET', 'NFT',
			'PRINTABLE_NFT', 'PRINT', 'TRANSFER_RESTRICTED_NFT', 'NON_TRANSFERABLE_NFT', 'IDENTITY_NFT',
			'PROGRAMMABLE_NFT', 'MPL_CORE_ASSET', 'MPL_CORE_COLLECTION')`,
		`CREATE TABLE tokens (
			mint bytea NOT NULL,
			supply numeric(20, 0) NOT NULL DEFAULT 0,
			decimals int NOT NULL DEFAULT 0,
			token_program bytea NOT NULL,
			mint_authority bytea,
			freeze_authority bytea,
			close_authority bytea,
			extension_data bytea,
			slot_updated bigint NOT NULL,
			extensions jsonb
		) WITH (fillfactor = 95)`,
		`CREATE TABLE token_accounts (
			pubkey bytea NOT NULL,
			mint bytea NOT NULL,
			amount bigint NOT NULL DEFAULT 0,
			owner bytea NOT NULL,
			frozen bool NOT NULL DEFAULT false,
			close_authority bytea,
			delegate bytea,
			delegated_amount bigint NOT NULL DEFAULT 0,
			slot_updated bigint NOT NULL,
			token_program bytea NOT NULL,
			extensions jsonb
		) WITH (fillfactor = 70)`,
		`CREATE TABLE asset_data (
			id bytea NOT NULL,
			chain_data_mutability chain_mutability NOT NULL DEFAULT 'mutable',
			chain_data jsonb NOT NULL,
			metadata_url varchar(200) NOT NULL,
			metadata_mutability mutability NOT NULL DEFAULT 'mutable',
			metadata jsonb NOT NULL,
			slot_updated bigint NOT NULL,
			reindex bool DEFAULT false,
			raw_name bytea,
			raw_symbol bytea,
			base_info_seq bigint
		)`,
		`CREATE TABLE asset (
			id bytea NOT NULL,
			alt_id bytea,
			specification_version specification_versions,
			specification_asset_class specification_asset_class,
			owner bytea,
			owner_type owner_type NOT NULL DEFAULT 'single',
			delegate bytea,
			frozen bool NOT NULL DEFAULT false,
			supply numeric(20, 0) NOT NULL DEFAULT 1,
			supply_mint bytea,
			compressed bool NOT NULL DEFAULT false,
			compressible bool NOT NULL DEFAULT false,
			seq bigint,
			tree_id bytea,
			leaf bytea,
			nonce bigint,
			royalty_target_type royalty_target_type NOT NULL DEFAULT 'creators',
			royalty_target bytea,
			royalty_amount int NOT NULL DEFAULT 0,
			asset_data bytea,
			created_at timestamp with time zone DEFAULT (now() at time zone 'utc'),
			burnt bool NOT NULL DEFAULT false,
			slot_updated bigint,
			data_hash varchar(50),
			creator_hash varchar(50),
			owner_delegate_seq bigint,
			leaf_seq bigint,
			base_info_seq bigint,
			slot_updated_metadata_account bigint,
			slot_updated_token_account bigint,
			slot_updated_mint_account bigint,
			slot_updated_cnft_transaction bigint,
			mint_extensions jsonb,
			mpl_core_plugins jsonb,
			mpl_core_unknown_plugins jsonb,
			mpl_core_collection_num_minted int,
			mpl_core_collection_current_size int,
			mpl_core_plugins_json_version int,
			mpl_core_external_plugins jsonb,
			mpl_core_unknown_external_plugins jsonb,
			collection_hash varchar(50),
			asset_data_hash varchar(50),
			bubblegum_flags smallint,
			non_transferable bool
		) WITH (fillfactor = 95)`,
		`CREATE TABLE asset_grouping (
			id bigserial NOT NULL,
			asset_id bytea NOT NULL,
			group_key text NOT NULL,
			group_value text,
			seq bigint,
			slot_updated bigint,
			verified bool NOT NULL DEFAULT false,
			group_info_seq bigint
		)`,
		`CREATE TABLE asset_authority (
			id bigserial NOT NULL,
			asset_id bytea NOT NULL,
			scopes text[],
			authority bytea NOT NULL,
			seq bigint NOT NULL,
			slot_updated bigint NOT NULL
		)`,
		`CREATE TABLE asset_creators (
			id bigserial NOT NULL,
			asset_id bytea NOT NULL,
			creator bytea NOT NULL,
			share int NOT NULL DEFAULT 0,
			verified bool NOT NULL DEFAULT false,
			seq bigint,
			slot_updated bigint,
			position smallint NOT NULL DEFAULT -1
		)`,
	}
}

// pgIndexes are the reference's keys and indexes on those tables, as its
// migrations leave them, then the statistics.
func pgIndexes() []string {
	return []string{
		`ALTER TABLE tokens ADD PRIMARY KEY (mint)`,
		`CREATE INDEX t_mint_auth ON tokens (mint_authority)`,
		`CREATE INDEX t_freeze_auth ON tokens (freeze_authority)`,
		`CREATE INDEX t_close_auth ON tokens (close_authority)`,
		`ALTER TABLE token_accounts ADD PRIMARY KEY (pubkey)`,
		`CREATE INDEX ta_owner_amount ON token_accounts (owner, amount)`,
		`CREATE INDEX ta_mint_amount ON token_accounts (mint, amount)`,
		`ALTER TABLE asset_data ADD PRIMARY KEY (id)`,
		`ALTER TABLE asset ADD PRIMARY KEY (id)`,
		`CREATE INDEX asset_tree ON asset (tree_id)`,
		`CREATE INDEX asset_leaf ON asset (leaf)`,
		`CREATE INDEX asset_owner ON asset (owner)`,
		`CREATE INDEX asset_delegate ON asset (delegate)`,
		`ALTER TABLE asset_grouping ADD PRIMARY KEY (id)`,
		`CREATE INDEX asset_grouping_key ON asset_grouping (group_key, group_value)`,
		`CREATE UNIQUE INDEX asset_grouping_key_unique ON asset_grouping (asset_id, group_key)`,
		`ALTER TABLE asset_authority ADD PRIMARY KEY (id)`,
		`CREATE UNIQUE INDEX asset_authority_asset_id ON asset_authority (asset_id)`,
		`CREATE INDEX asset_authority_idx ON asset_authority (asset_id, authority)`,
		`CREATE INDEX idx_asset_authority_authority ON asset_authority (authority)`,
		`ALTER TABLE asset_creators ADD PRIMARY KEY (id)`,
		`CREATE UNIQUE INDEX asset_creator_pos_unique ON asset_creators (asset_id, position)`,
		`CREATE INDEX idx_asset_creators_asset_id ON asset_creators (asset_id)`,
		`CREATE INDEX idx_asset_creators_creator ON asset_creators (creator)`,
		`CREATE INDEX asset_creator_verified ON asset_creators (asset_id, creator, verified)`,
		// The bigserial keys were given in the COPY: the sequences follow.
		`SELECT setval('asset_grouping_id_seq', (SELECT coalesce(max(id), 0) + 1 FROM asset_grouping), false)`,
		`SELECT setval('asset_authority_id_seq', (SELECT coalesce(max(id), 0) + 1 FROM asset_authority), false)`,
		`SELECT setval('asset_creators_id_seq', (SELECT coalesce(max(id), 0) + 1 FROM asset_creators), false)`,
		`VACUUM ANALYZE`,
	}
}

// pgTables are the tables whose size the run reports.
var pgTables = []string{"asset", "asset_data", "asset_grouping", "asset_authority", "asset_creators", "tokens", "token_accounts"}

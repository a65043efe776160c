package schema

import "fmt"

// Tables of migration 18.
const (
	// TableOwnerTxs lists the transactions that created or spent an
	// account of an owner program: (owner, slot, sig_prefix).
	TableOwnerTxs = "owner_txs"
	// TableTokenOwnerTxs lists the same for the token accounts of a token
	// owner.
	TableTokenOwnerTxs = "token_owner_txs"
)

// SigPrefix is the SQL of the sig_prefix of a FixedString(64) signature
// expression: its first 8 bytes. A transaction is named by (slot,
// sig_prefix) outside compression_signatures, which holds the whole
// signature once.
func SigPrefix(sig string) string {
	return fmt.Sprintf("toFixedString(substring(%s, 1, 8), 8)", sig)
}

// SigPrefixOfSignature is SigPrefix of a column named signature, as a
// constant for statements built from constants.
const SigPrefixOfSignature = "toFixedString(substring(signature, 1, 8), 8)"

// ownerTxsTable is the CREATE statement of owner_txs or token_owner_txs.
func ownerTxsTable(name string) string {
	return `CREATE TABLE IF NOT EXISTS ` + name + ` (
		owner FixedString(32),
		slot UInt64,
		sig_prefix FixedString(8) CODEC(NONE)
	) ENGINE = ReplacingMergeTree
	ORDER BY (owner, slot, sig_prefix)
	SETTINGS merge_selector_base = ` + fmt.Sprint(MergeBase)
}

// oldOwnerSigsTable is the CREATE statement of owner_signatures or
// token_owner_signatures as migration 5 made them.
func oldOwnerSigsTable(name string) string {
	return `CREATE TABLE IF NOT EXISTS ` + name + ` (
		owner FixedString(32),
		slot UInt64,
		signature FixedString(64),
		block_time Int64
	) ENGINE = ReplacingMergeTree
	ORDER BY (owner, slot, signature)`
}

// signaturePrefixes is migration 18: a transaction's 64-byte signature is
// stored once, in compression_signatures (slot, signature, block_time).
// compressed_accounts and the two owner tables name the transaction by
// its slot and the signature's first 8 bytes (sig_prefix) instead, and
// readers join compression_signatures on (slot, sig_prefix) for the
// signature and block time.
//
// The signature was the widest column of the three (64 random bytes that
// no codec shrinks): on a 4M-account bench store 257 of compressed_accounts'
// 773 compressed MB and 242 of token_owner_signatures' 352, written once
// at insert and again by every merge. Two transactions of one slot whose
// signatures share their first 8 bytes would be confused: signatures are
// Ed25519 signatures over distinct messages, so that takes about 2^32
// transactions in one slot to happen by chance.
//
// owner_signatures and token_owner_signatures were ordered by (owner,
// slot, signature): their successors owner_txs and token_owner_txs are
// new tables, filled here from them (block_time is read from
// compression_signatures). compressed_accounts gains sig_prefix, filled
// from signature by a mutation. Every statement applies again unchanged;
// migration 19 drops the old column and tables.
func signaturePrefixes() []string {
	return []string{
		`ALTER TABLE compressed_accounts ADD COLUMN IF NOT EXISTS sig_prefix FixedString(8) CODEC(NONE) AFTER slot_created`,
		// Migrations apply again over any later schema (the tests' store
		// reset runs them all on tables that exist): the column comes back
		// empty there, and rows without a signature keep their prefix.
		`ALTER TABLE compressed_accounts ADD COLUMN IF NOT EXISTS signature FixedString(64)`,
		`ALTER TABLE compressed_accounts UPDATE sig_prefix = ` + SigPrefixOfSignature + `
			WHERE signature != toFixedString('', 64) SETTINGS mutations_sync = 2`,
		ownerTxsTable(TableOwnerTxs),
		ownerTxsTable(TableTokenOwnerTxs),
		// The old tables come back empty where migration 19 dropped them.
		oldOwnerSigsTable(TableOwnerSigs),
		oldOwnerSigsTable(TableTokenOwnerSigs),
		`INSERT INTO ` + TableOwnerTxs + ` (owner, slot, sig_prefix)
			SELECT owner, slot, ` + SigPrefixOfSignature + ` FROM ` + TableOwnerSigs,
		`INSERT INTO ` + TableTokenOwnerTxs + ` (owner, slot, sig_prefix)
			SELECT owner, slot, ` + SigPrefixOfSignature + ` FROM ` + TableTokenOwnerSigs,
	}
}

// dropFullSignatures is migration 19: the columns and tables migration 18
// replaced go. It is a migration of its own so that an interrupted
// migration 18 can run again from its start.
func dropFullSignatures() []string {
	return []string{
		`ALTER TABLE compressed_accounts DROP COLUMN IF EXISTS signature`,
		`DROP TABLE IF EXISTS ` + TableOwnerSigs,
		`DROP TABLE IF EXISTS ` + TableTokenOwnerSigs,
	}
}

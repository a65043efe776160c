package schema

// rawColumns are the columns whose values are uniformly random bytes:
// hashes, signatures and keys in an order that does not group them. LZ4
// finds nothing to compress in them (compressed/uncompressed 1.00–1.03 on
// a 4M-account bench store, system.columns) and still costs CPU on every
// insert, on every merge that rewrites a part and on every read. Columns
// that repeat in their table's order (mints, owners in owner-ordered
// tables, trees) keep the default codec, and so do the account tables'
// signatures. Those compressed 12 to 20 times on that store only because
// its generator wrote them as zeros; real ones are random, but storing
// them uncompressed made no difference beyond this machine's noise on the
// 4M-account bench (three alternating pairs).
var rawColumns = []struct{ table, column string }{
	{TableCompressed, "hash"},
	{TableCompressed, "data_hash"},
	{TableCompressed, "token_owner"}, // ordered by hash
	{TableCompressedSpent, "hash"},
	{TableCompressedSpent, "signature"},
	{TableCompressedSpent, "nullifier"},
	{TableCompressedSpent, "tx_hash"},
	{TableCompressedByOwner, "hash"},
	{TableCompressedByOwner, "data_hash"},
	{TableTokenAccounts, "hash"},
	{TableTokenAccounts, "data_hash"},
	{TableTokenByDelegate, "hash"},
	{TableTokenByDelegate, "data_hash"},
	{TableTokenBalances, "pair"},
	{TableMintHolders, "owner"}, // ordered by (mint, balance, owner)
	{TableCompressionSigs, "signature"},
	{TableOwnerSigs, "signature"},
	{TableTokenOwnerSigs, "signature"},
	{TableTokenLedger, "hash"},
}

// rawCodecs is migration 12: the rawColumns are stored uncompressed.
//
// Changing a codec only changes the table's metadata: parts written
// before keep theirs until a merge rewrites them, and every part reads
// back the same values either way.
func rawCodecs() []string {
	out := make([]string, 0, len(rawColumns))
	for _, c := range rawColumns {
		out = append(out, "ALTER TABLE "+c.table+" MODIFY COLUMN "+c.column+" CODEC(NONE)")
	}
	return out
}

// RawColumns lists the columns stored without compression as
// "table.column", for tests: the rawColumns of tables that still exist
// and the signature prefixes of migration 18 and the hashes of migration
// 22's markers, random bytes too.
func RawColumns() []string {
	out := make([]string, 0, len(rawColumns)+4)
	for _, c := range rawColumns {
		if c.table != TableOwnerSigs && c.table != TableTokenOwnerSigs {
			out = append(out, c.table+"."+c.column)
		}
	}
	for _, t := range []string{TableCompressed, TableOwnerTxs, TableTokenOwnerTxs} {
		out = append(out, t+".sig_prefix")
	}
	return append(out, TableTokenLedgerApplied+".hash")
}

package compressedstate

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/schema"
)

// signatureRow is a row of compression_signatures: a transaction with at
// least one Light event.
type signatureRow struct {
	Slot      uint64
	Signature solana.Signature
	BlockTime int64
}

// Table implements arrowbatch.Row.
func (*signatureRow) Table() string { return schema.TableCompressionSigs }

// ownerSignatureRow is a row of owner_txs: a transaction that created or
// spent an account of Owner (the account's owner program), named by its
// slot and the first 8 bytes of its signature (compression_signatures
// holds the whole signature).
type ownerSignatureRow struct {
	Owner     solana.Pubkey
	Slot      uint64
	SigPrefix [8]byte
}

// Table implements arrowbatch.Row.
func (*ownerSignatureRow) Table() string { return schema.TableOwnerTxs }

// tokenOwnerSignatureRow is a row of token_owner_txs: the same for the
// owner inside a compressed token account's data.
type tokenOwnerSignatureRow ownerSignatureRow

// Table implements arrowbatch.Row.
func (*tokenOwnerSignatureRow) Table() string { return schema.TableTokenOwnerTxs }

func signaturesTable() arrowbatch.Table {
	// A transaction's row is the same whenever it is written.
	return arrowbatch.Table{Name: schema.TableCompressionSigs, AnyOrder: true, New: func(mem memory.Allocator) arrowbatch.Builder {
		return newSignaturesBuilder(mem)
	}}
}

// signaturesBuilder and ownerSigsBuilder write their columns straight
// into slices, as accountsBuilder does: a transaction takes a row of
// each.
type signaturesBuilder struct {
	arrowbatch.Base
	slot u64Col
	sig  fixedCol
	time i64Col
}

func newSignaturesBuilder(memory.Allocator) *signaturesBuilder {
	b := &signaturesBuilder{sig: fixedCol{width: 64}}
	b.Base = arrowbatch.NewBase(
		arrowbatch.FinishCol("slot", arrow.PrimitiveTypes.Uint64, b.slot.finish),
		arrowbatch.FinishCol("signature", arrowbatch.SignatureType(), b.sig.finish),
		arrowbatch.FinishCol("block_time", arrow.PrimitiveTypes.Int64, b.time.finish),
	)
	return b
}

func (b *signaturesBuilder) Append(r arrowbatch.Row) error {
	row, ok := r.(*signatureRow)
	if !ok {
		return fmt.Errorf("%s: cannot append %T", schema.TableCompressionSigs, r)
	}
	b.slot.add(row.Slot)
	b.sig.add(row.Signature[:])
	b.time.add(row.BlockTime)
	b.Added(8 + 64 + 8)
	return nil
}

// ownerSigsTable describes owner_txs or token_owner_txs, which share
// their columns.
func ownerSigsTable(table string) arrowbatch.Table {
	// Rows are keys only: duplicates are identical.
	return arrowbatch.Table{Name: table, AnyOrder: true, New: func(mem memory.Allocator) arrowbatch.Builder {
		return newOwnerSigsBuilder(mem, table)
	}}
}

type ownerSigsBuilder struct {
	arrowbatch.Base
	table string
	owner fixedCol
	slot  u64Col
	sig   fixedCol
}

func newOwnerSigsBuilder(_ memory.Allocator, table string) *ownerSigsBuilder {
	b := &ownerSigsBuilder{table: table, owner: fixedCol{width: 32}, sig: fixedCol{width: 8}}
	b.Base = arrowbatch.NewBase(
		arrowbatch.FinishCol("owner", arrowbatch.PubkeyType(), b.owner.finish),
		arrowbatch.FinishCol("slot", arrow.PrimitiveTypes.Uint64, b.slot.finish),
		arrowbatch.FinishCol("sig_prefix", arrowbatch.SigPrefixType(), b.sig.finish),
	)
	return b
}

func (b *ownerSigsBuilder) Append(r arrowbatch.Row) error {
	var row *ownerSignatureRow
	switch v := r.(type) {
	case *ownerSignatureRow:
		if b.table != schema.TableOwnerTxs {
			return fmt.Errorf("%s: cannot append a row of %s", b.table, r.Table())
		}
		row = v
	case *tokenOwnerSignatureRow:
		if b.table != schema.TableTokenOwnerTxs {
			return fmt.Errorf("%s: cannot append a row of %s", b.table, r.Table())
		}
		row = (*ownerSignatureRow)(v)
	default:
		return fmt.Errorf("%s: cannot append %T", b.table, r)
	}
	b.owner.addKey((*[32]byte)(&row.Owner))
	b.slot.add(row.Slot)
	b.sig.add(row.SigPrefix[:])
	b.Added(32 + 8 + 8)
	return nil
}

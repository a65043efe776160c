package compressed

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/ingest/solana"
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
	return arrowbatch.Table{Name: schema.TableCompressionSigs, New: func(mem memory.Allocator) arrowbatch.Builder {
		return newSignaturesBuilder(mem)
	}}
}

type signaturesBuilder struct {
	arrowbatch.Base
	slot *array.Uint64Builder
	sig  *array.FixedSizeBinaryBuilder
	time *array.Int64Builder
}

func newSignaturesBuilder(mem memory.Allocator) *signaturesBuilder {
	sc := arrow.NewSchema([]arrow.Field{
		field("slot", arrow.PrimitiveTypes.Uint64),
		field("signature", arrowbatch.SignatureType()),
		field("block_time", arrow.PrimitiveTypes.Int64),
	}, nil)
	b := &signaturesBuilder{Base: arrowbatch.NewBase(mem, sc)}
	f := b.Fields()
	b.slot = f[0].(*array.Uint64Builder)
	b.sig = f[1].(*array.FixedSizeBinaryBuilder)
	b.time = f[2].(*array.Int64Builder)
	return b
}

func (b *signaturesBuilder) Append(r arrowbatch.Row) error {
	row, ok := r.(*signatureRow)
	if !ok {
		return fmt.Errorf("%s: cannot append %T", schema.TableCompressionSigs, r)
	}
	b.slot.Append(row.Slot)
	b.sig.Append(row.Signature[:])
	b.time.Append(row.BlockTime)
	b.Added(8 + 64 + 8)
	return nil
}

// ownerSigsTable describes owner_txs or token_owner_txs, which share
// their columns.
func ownerSigsTable(table string) arrowbatch.Table {
	return arrowbatch.Table{Name: table, New: func(mem memory.Allocator) arrowbatch.Builder {
		return newOwnerSigsBuilder(mem, table)
	}}
}

type ownerSigsBuilder struct {
	arrowbatch.Base
	table      string
	owner, sig *array.FixedSizeBinaryBuilder
	slot       *array.Uint64Builder
}

func newOwnerSigsBuilder(mem memory.Allocator, table string) *ownerSigsBuilder {
	sc := arrow.NewSchema([]arrow.Field{
		field("owner", arrowbatch.PubkeyType()),
		field("slot", arrow.PrimitiveTypes.Uint64),
		field("sig_prefix", arrowbatch.SigPrefixType()),
	}, nil)
	b := &ownerSigsBuilder{Base: arrowbatch.NewBase(mem, sc), table: table}
	f := b.Fields()
	b.owner = f[0].(*array.FixedSizeBinaryBuilder)
	b.slot = f[1].(*array.Uint64Builder)
	b.sig = f[2].(*array.FixedSizeBinaryBuilder)
	return b
}

func (b *ownerSigsBuilder) Append(r arrowbatch.Row) error {
	if r.Table() != b.table {
		return fmt.Errorf("%s: cannot append a row of %s", b.table, r.Table())
	}
	var row *ownerSignatureRow
	switch v := r.(type) {
	case *ownerSignatureRow:
		row = v
	case *tokenOwnerSignatureRow:
		row = (*ownerSignatureRow)(v)
	default:
		return fmt.Errorf("%s: cannot append %T", b.table, r)
	}
	b.owner.Append(row.Owner[:])
	b.slot.Append(row.Slot)
	b.sig.Append(row.SigPrefix[:])
	b.Added(32 + 8 + 8)
	return nil
}

package arrowbatch

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/schema"
)

// TxRow is a row of the transactions table.
type TxRow struct {
	Slot         uint64
	Signature    solana.Signature
	TxIndex      uint32
	BlockTime    int64
	Err          []byte // JSON; nil on success, which also sets failed
	Fee          uint64
	FeePayer     solana.Pubkey
	IsVote       bool
	AccountKeys  []solana.Pubkey
	ProgramIDs   []solana.Pubkey
	ComputeUnits *uint64
	Raw          []byte
}

// Table implements Row.
func (*TxRow) Table() string { return schema.TableTxs }

// TxsTable describes the transactions table.
func TxsTable() Table {
	return Table{Name: schema.TableTxs, New: func(mem memory.Allocator) Builder { return newTxsBuilder(mem) }}
}

type txsBuilder struct {
	Base
	slot, fee, cu  *array.Uint64Builder
	sig, payer     *array.FixedSizeBinaryBuilder
	index          *array.Uint32Builder
	time           *array.Int64Builder
	failed, vote   *array.BooleanBuilder
	err, raw       *array.BinaryBuilder
	keys, programs keyList
}

func newTxsBuilder(mem memory.Allocator) *txsBuilder {
	sc := arrow.NewSchema([]arrow.Field{
		field("slot", arrow.PrimitiveTypes.Uint64),
		field("signature", SignatureType()),
		field("tx_index", arrow.PrimitiveTypes.Uint32),
		field("block_time", arrow.PrimitiveTypes.Int64),
		field("failed", arrow.FixedWidthTypes.Boolean),
		nullable("err", arrow.BinaryTypes.Binary),
		field("fee", arrow.PrimitiveTypes.Uint64),
		field("fee_payer", PubkeyType()),
		field("is_vote", arrow.FixedWidthTypes.Boolean),
		field("account_keys", PubkeyListType()),
		field("program_ids", PubkeyListType()),
		nullable("compute_units", arrow.PrimitiveTypes.Uint64),
		field("raw", arrow.BinaryTypes.Binary),
	}, nil)
	b := &txsBuilder{Base: NewBase(mem, sc)}
	f := b.Fields()
	b.slot = f[0].(*array.Uint64Builder)
	b.sig = f[1].(*array.FixedSizeBinaryBuilder)
	b.index = f[2].(*array.Uint32Builder)
	b.time = f[3].(*array.Int64Builder)
	b.failed = f[4].(*array.BooleanBuilder)
	b.err = f[5].(*array.BinaryBuilder)
	b.fee = f[6].(*array.Uint64Builder)
	b.payer = f[7].(*array.FixedSizeBinaryBuilder)
	b.vote = f[8].(*array.BooleanBuilder)
	b.keys = newKeyList(f[9])
	b.programs = newKeyList(f[10])
	b.cu = f[11].(*array.Uint64Builder)
	b.raw = f[12].(*array.BinaryBuilder)
	return b
}

func (b *txsBuilder) Append(r Row) error {
	row, ok := r.(*TxRow)
	if !ok {
		return fmt.Errorf("transactions: cannot append %T", r)
	}
	b.slot.Append(row.Slot)
	b.sig.Append(row.Signature[:])
	b.index.Append(row.TxIndex)
	b.time.Append(row.BlockTime)
	b.failed.Append(row.Err != nil)
	if row.Err != nil {
		b.err.Append(row.Err)
	} else {
		b.err.AppendNull()
	}
	b.fee.Append(row.Fee)
	b.payer.Append(row.FeePayer[:])
	b.vote.Append(row.IsVote)
	size := 8 + 64 + 4 + 8 + 1 + len(row.Err) + 8 + 32 + 1 + 8 + len(row.Raw)
	size += b.keys.append(row.AccountKeys)
	size += b.programs.append(row.ProgramIDs)
	appendOptU64(b.cu, row.ComputeUnits)
	b.raw.Append(row.Raw)
	b.Added(size)
	return nil
}

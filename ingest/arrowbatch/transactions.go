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
	u64, flag := arrow.PrimitiveTypes.Uint64, arrow.FixedWidthTypes.Boolean
	b := &txsBuilder{}
	var keys, programs *array.ListBuilder
	b.Base = NewBase(
		Col(mem, &b.slot, "slot", u64),
		Col(mem, &b.sig, "signature", SignatureType()),
		Col(mem, &b.index, "tx_index", arrow.PrimitiveTypes.Uint32),
		Col(mem, &b.time, "block_time", arrow.PrimitiveTypes.Int64),
		Col(mem, &b.failed, "failed", flag),
		NullableCol(mem, &b.err, "err", arrow.BinaryTypes.Binary),
		Col(mem, &b.fee, "fee", u64),
		Col(mem, &b.payer, "fee_payer", PubkeyType()),
		Col(mem, &b.vote, "is_vote", flag),
		Col(mem, &keys, "account_keys", PubkeyListType()),
		Col(mem, &programs, "program_ids", PubkeyListType()),
		NullableCol(mem, &b.cu, "compute_units", u64),
		Col(mem, &b.raw, "raw", arrow.BinaryTypes.Binary),
	)
	b.keys, b.programs = newKeyList(keys), newKeyList(programs)
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

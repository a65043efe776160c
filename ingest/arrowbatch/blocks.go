package arrowbatch

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/schema"
)

// BlockRow is a row of the blocks table.
type BlockRow struct {
	Slot              uint64
	ParentSlot        uint64
	Blockhash         string
	PreviousBlockhash string
	BlockHeight       *uint64
	BlockTime         int64
	TxCount           uint32
}

// Table implements Row.
func (*BlockRow) Table() string { return schema.TableBlocks }

// BlocksTable describes the blocks table.
func BlocksTable() Table {
	return Table{Name: schema.TableBlocks, New: func(mem memory.Allocator) Builder { return newBlocksBuilder(mem) }}
}

type blocksBuilder struct {
	Base
	slot, parent, height *array.Uint64Builder
	hash, prev           *array.StringBuilder
	time                 *array.Int64Builder
	txCount              *array.Uint32Builder
}

func newBlocksBuilder(mem memory.Allocator) *blocksBuilder {
	u64 := arrow.PrimitiveTypes.Uint64
	b := &blocksBuilder{}
	b.Base = NewBase(
		Col(mem, &b.slot, "slot", u64),
		Col(mem, &b.parent, "parent_slot", u64),
		Col(mem, &b.hash, "blockhash", arrow.BinaryTypes.String),
		Col(mem, &b.prev, "previous_blockhash", arrow.BinaryTypes.String),
		NullableCol(mem, &b.height, "block_height", u64),
		Col(mem, &b.time, "block_time", arrow.PrimitiveTypes.Int64),
		Col(mem, &b.txCount, "tx_count", arrow.PrimitiveTypes.Uint32),
	)
	return b
}

func (b *blocksBuilder) Append(r Row) error {
	row, ok := r.(*BlockRow)
	if !ok {
		return fmt.Errorf("blocks: cannot append %T", r)
	}
	b.slot.Append(row.Slot)
	b.parent.Append(row.ParentSlot)
	b.hash.Append(row.Blockhash)
	b.prev.Append(row.PreviousBlockhash)
	appendOptU64(b.height, row.BlockHeight)
	b.time.Append(row.BlockTime)
	b.txCount.Append(row.TxCount)
	b.Added(44 + len(row.Blockhash) + len(row.PreviousBlockhash))
	return nil
}

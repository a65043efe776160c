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
	sc := arrow.NewSchema([]arrow.Field{
		field("slot", arrow.PrimitiveTypes.Uint64),
		field("parent_slot", arrow.PrimitiveTypes.Uint64),
		field("blockhash", arrow.BinaryTypes.String),
		field("previous_blockhash", arrow.BinaryTypes.String),
		nullable("block_height", arrow.PrimitiveTypes.Uint64),
		field("block_time", arrow.PrimitiveTypes.Int64),
		field("tx_count", arrow.PrimitiveTypes.Uint32),
	}, nil)
	b := &blocksBuilder{Base: NewBase(mem, sc)}
	f := b.Fields()
	b.slot = f[0].(*array.Uint64Builder)
	b.parent = f[1].(*array.Uint64Builder)
	b.hash = f[2].(*array.StringBuilder)
	b.prev = f[3].(*array.StringBuilder)
	b.height = f[4].(*array.Uint64Builder)
	b.time = f[5].(*array.Int64Builder)
	b.txCount = f[6].(*array.Uint32Builder)
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

package compressedstate

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/chain/light"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/schema"
)

// spentRow is a row of compressed_spent: an account hash a transaction
// spent. V2 is set for batched-tree inputs, which carry their nullifier.
type spentRow struct {
	Hash      light.Hash
	Slot      uint64
	Signature solana.Signature
	BlockTime int64
	V2        *light.BatchedInput
}

// Table implements arrowbatch.Row.
func (*spentRow) Table() string { return schema.TableCompressedSpent }

func spentTable() arrowbatch.Table {
	return arrowbatch.Table{Name: schema.TableCompressedSpent, New: func(mem memory.Allocator) arrowbatch.Builder { return newSpentBuilder(mem) }}
}

type spentBuilder struct {
	arrowbatch.Base
	hash, sig, nullifier, txHash *array.FixedSizeBinaryBuilder
	slot, queueIndex             *array.Uint64Builder
	blockTime                    *array.Int64Builder
}

func newSpentBuilder(mem memory.Allocator) *spentBuilder {
	key := arrowbatch.PubkeyType()
	b := &spentBuilder{}
	b.Base = arrowbatch.NewBase(
		arrowbatch.Col(mem, &b.hash, "hash", key),
		arrowbatch.Col(mem, &b.slot, "slot", arrow.PrimitiveTypes.Uint64),
		arrowbatch.Col(mem, &b.sig, "signature", arrowbatch.SignatureType()),
		arrowbatch.Col(mem, &b.blockTime, "block_time", arrow.PrimitiveTypes.Int64),
		arrowbatch.NullableCol(mem, &b.nullifier, "nullifier", key),
		arrowbatch.NullableCol(mem, &b.txHash, "tx_hash", key),
		arrowbatch.NullableCol(mem, &b.queueIndex, "queue_index", arrow.PrimitiveTypes.Uint64),
	)
	return b
}

func (b *spentBuilder) Append(r arrowbatch.Row) error {
	row, ok := r.(*spentRow)
	if !ok {
		return fmt.Errorf("%s: cannot append %T", schema.TableCompressedSpent, r)
	}
	b.hash.Append(row.Hash[:])
	b.slot.Append(row.Slot)
	b.sig.Append(row.Signature[:])
	b.blockTime.Append(row.BlockTime)
	if v2 := row.V2; v2 != nil {
		b.nullifier.Append(v2.Nullifier[:])
		b.txHash.Append(v2.TxHash[:])
		b.queueIndex.Append(v2.QueueIndex)
	} else {
		b.nullifier.AppendNull()
		b.txHash.AppendNull()
		b.queueIndex.AppendNull()
	}
	b.Added(32 + 8 + 64 + 8 + 32 + 32 + 8)
	return nil
}

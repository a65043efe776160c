package assetstate

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/schema"
)

// StateRow is one asset_state row: an asset as FoldStep folds it.
type StateRow struct {
	ID, Edition   solana.Pubkey
	Collection    *solana.Pubkey
	Version, Slot uint64
	Status, Error string
	Doc           []byte
}

// Table implements arrowbatch.Row.
func (*StateRow) Table() string { return schema.TableAssetState }

// StateTable is asset_state, which the fold step writes.
func StateTable() arrowbatch.Table {
	return arrowbatch.Table{Name: schema.TableAssetState, New: func(mem memory.Allocator) arrowbatch.Builder {
		return newStateBuilder(mem)
	}}
}

type stateBuilder struct {
	arrowbatch.Base
	id, edition, collection *array.FixedSizeBinaryBuilder
	version, slot           *array.Uint64Builder
	status, msg             *array.StringBuilder
	doc                     *array.BinaryBuilder
}

func newStateBuilder(mem memory.Allocator) *stateBuilder {
	key, u64 := arrowbatch.PubkeyType(), arrow.PrimitiveTypes.Uint64
	b := &stateBuilder{}
	b.Base = arrowbatch.NewBase(
		arrowbatch.Col(mem, &b.id, "id", key),
		arrowbatch.Col(mem, &b.version, "version", u64),
		arrowbatch.Col(mem, &b.slot, "slot", u64),
		arrowbatch.Col(mem, &b.status, "status", arrow.BinaryTypes.String),
		arrowbatch.Col(mem, &b.msg, "error", arrow.BinaryTypes.String),
		arrowbatch.Col(mem, &b.doc, "doc", arrow.BinaryTypes.Binary),
		arrowbatch.Col(mem, &b.edition, "edition", key),
		arrowbatch.NullableCol(mem, &b.collection, "collection", key),
	)
	return b
}

func (b *stateBuilder) Append(r arrowbatch.Row) error {
	row, ok := r.(*StateRow)
	if !ok {
		return fmt.Errorf("%s: cannot append %T", schema.TableAssetState, r)
	}
	b.id.Append(row.ID[:])
	b.version.Append(row.Version)
	b.slot.Append(row.Slot)
	b.status.Append(row.Status)
	b.msg.Append(row.Error)
	b.doc.Append(row.Doc)
	b.edition.Append(row.Edition[:])
	if row.Collection != nil {
		b.collection.Append(row.Collection[:])
	} else {
		b.collection.AppendNull()
	}
	b.Added(32*3 + 16 + len(row.Status) + len(row.Error) + len(row.Doc))
	return nil
}

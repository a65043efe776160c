package assetstate

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/schema"
)

func field(name string, t arrow.DataType, nullable bool) arrow.Field {
	return arrow.Field{Name: name, Type: t, Nullable: nullable}
}

func accountsTable() arrowbatch.Table {
	return arrowbatch.Table{Name: schema.TableAssetAccounts, New: func(mem memory.Allocator) arrowbatch.Builder {
		return newAccountsBuilder(mem)
	}}
}

type accountsBuilder struct {
	arrowbatch.Base
	assetID, pubkey, program, holder *array.FixedSizeBinaryBuilder
	kind                             *array.StringBuilder
	data                             *array.BinaryBuilder
	slot, writeVersion, amount       *array.Uint64Builder
}

func newAccountsBuilder(mem memory.Allocator) *accountsBuilder {
	sc := arrow.NewSchema([]arrow.Field{
		field("asset_id", arrowbatch.PubkeyType(), false),
		field("kind", arrow.BinaryTypes.String, false),
		field("pubkey", arrowbatch.PubkeyType(), false),
		field("program", arrowbatch.PubkeyType(), false),
		field("data", arrow.BinaryTypes.Binary, false),
		field("slot", arrow.PrimitiveTypes.Uint64, false),
		field("write_version", arrow.PrimitiveTypes.Uint64, false),
		field("holder", arrowbatch.PubkeyType(), true),
		field("amount", arrow.PrimitiveTypes.Uint64, false),
	}, nil)
	b := &accountsBuilder{Base: arrowbatch.NewBase(mem, sc)}
	f := b.Fields()
	b.assetID = f[0].(*array.FixedSizeBinaryBuilder)
	b.kind = f[1].(*array.StringBuilder)
	b.pubkey = f[2].(*array.FixedSizeBinaryBuilder)
	b.program = f[3].(*array.FixedSizeBinaryBuilder)
	b.data = f[4].(*array.BinaryBuilder)
	b.slot = f[5].(*array.Uint64Builder)
	b.writeVersion = f[6].(*array.Uint64Builder)
	b.holder = f[7].(*array.FixedSizeBinaryBuilder)
	b.amount = f[8].(*array.Uint64Builder)
	return b
}

func (b *accountsBuilder) Append(r arrowbatch.Row) error {
	row, ok := r.(*accountRow)
	if !ok {
		return fmt.Errorf("%s: cannot append %T", schema.TableAssetAccounts, r)
	}
	b.assetID.Append(row.AssetID[:])
	b.kind.Append(row.Kind)
	b.pubkey.Append(row.Pubkey[:])
	b.program.Append(row.Program[:])
	b.data.Append(row.Data)
	b.slot.Append(row.Slot)
	b.writeVersion.Append(row.WriteVersion)
	if row.Holder != nil {
		b.holder.Append(row.Holder[:])
	} else {
		b.holder.AppendNull()
	}
	b.amount.Append(row.Amount)
	b.Added(32*4 + len(row.Kind) + len(row.Data) + 24)
	return nil
}

package assetstate

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/schema"
)

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
	key, u64 := arrowbatch.PubkeyType(), arrow.PrimitiveTypes.Uint64
	b := &accountsBuilder{}
	b.Base = arrowbatch.NewBase(
		arrowbatch.Col(mem, &b.assetID, "asset_id", key),
		arrowbatch.Col(mem, &b.kind, "kind", arrow.BinaryTypes.String),
		arrowbatch.Col(mem, &b.pubkey, "pubkey", key),
		arrowbatch.Col(mem, &b.program, "program", key),
		arrowbatch.Col(mem, &b.data, "data", arrow.BinaryTypes.Binary),
		arrowbatch.Col(mem, &b.slot, "slot", u64),
		arrowbatch.Col(mem, &b.writeVersion, "write_version", u64),
		arrowbatch.NullableCol(mem, &b.holder, "holder", key),
		arrowbatch.Col(mem, &b.amount, "amount", u64),
	)
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

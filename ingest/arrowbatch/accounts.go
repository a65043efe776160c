package arrowbatch

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/schema"
)

// AccountRow is a row of the accounts table; version is computed by the
// table from slot and write_version.
type AccountRow struct {
	Pubkey       solana.Pubkey
	Owner        solana.Pubkey
	Lamports     uint64
	Data         []byte
	Executable   bool
	RentEpoch    uint64
	Slot         uint64
	WriteVersion uint64
}

// Table implements Row.
func (*AccountRow) Table() string { return schema.TableAccounts }

// AccountsTable describes the accounts table.
func AccountsTable() Table {
	return Table{Name: schema.TableAccounts, New: func(mem memory.Allocator) Builder { return newAccountsBuilder(mem) }}
}

type accountsBuilder struct {
	Base
	pubkey, owner                      *array.FixedSizeBinaryBuilder
	lamports, rent, slot, writeVersion *array.Uint64Builder
	data                               *array.BinaryBuilder
	executable                         *array.BooleanBuilder
}

func newAccountsBuilder(mem memory.Allocator) *accountsBuilder {
	u64 := arrow.PrimitiveTypes.Uint64
	b := &accountsBuilder{}
	b.Base = NewBase(
		Col(mem, &b.pubkey, "pubkey", PubkeyType()),
		Col(mem, &b.owner, "owner", PubkeyType()),
		Col(mem, &b.lamports, "lamports", u64),
		Col(mem, &b.data, "data", arrow.BinaryTypes.Binary),
		Col(mem, &b.executable, "executable", arrow.FixedWidthTypes.Boolean),
		Col(mem, &b.rent, "rent_epoch", u64),
		Col(mem, &b.slot, "slot", u64),
		Col(mem, &b.writeVersion, "write_version", u64),
	)
	return b
}

func (b *accountsBuilder) Append(r Row) error {
	row, ok := r.(*AccountRow)
	if !ok {
		return fmt.Errorf("accounts: cannot append %T", r)
	}
	b.pubkey.Append(row.Pubkey[:])
	b.owner.Append(row.Owner[:])
	b.lamports.Append(row.Lamports)
	b.data.Append(row.Data)
	b.executable.Append(row.Executable)
	b.rent.Append(row.RentEpoch)
	b.slot.Append(row.Slot)
	b.writeVersion.Append(row.WriteVersion)
	b.Added(32 + 32 + 8 + len(row.Data) + 1 + 8 + 8 + 8)
	return nil
}

// Package solbalances files the lamports each indexed transaction leaves
// in the accounts it names (sol_balances), the native balance DAS listings
// show with showNativeBalance.
package solbalances

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/ingest/decode"
	"github.com/dasch-labs/dasch/schema"
)

// Decoder writes a sol_balances row per account key of every transaction
// with post-balances, failed ones too (they pay fees). The programs a
// transaction invokes are left out: their balances are no one's wallet.
type Decoder struct{}

var _ decode.Decoder = Decoder{}

// Name implements decode.Decoder.
func (Decoder) Name() string { return "sol_balances" }

// Tables implements decode.Decoder.
func (Decoder) Tables() []arrowbatch.Table { return []arrowbatch.Table{Table()} }

// DecodeAccount implements decode.Decoder: balances come from
// transactions only.
func (Decoder) DecodeAccount(*solana.Account, *decode.Batch) error { return nil }

// DecodeTx implements decode.Decoder.
func (Decoder) DecodeTx(tx *solana.Tx, out *decode.Batch) error {
	if len(tx.PostBalances) != len(tx.AccountKeys) {
		return nil
	}
	invoked := make(map[solana.Pubkey]bool, len(tx.Instructions))
	for _, in := range tx.Instructions {
		invoked[in.ProgramID] = true
	}
	for _, in := range tx.Inner {
		invoked[in.ProgramID] = true
	}
	for i, k := range tx.AccountKeys {
		if !invoked[k] {
			out.Add(&Row{Address: k, Slot: tx.Slot, TxIndex: tx.TxIndex, Lamports: tx.PostBalances[i]})
		}
	}
	return nil
}

// Row is one sol_balances row.
type Row struct {
	Address  solana.Pubkey
	Slot     uint64
	TxIndex  uint32
	Lamports uint64
}

// Table implements arrowbatch.Row.
func (*Row) Table() string { return schema.TableSolBalances }

// Table is sol_balances. Rows of an address are replaced by version, so
// parts commit in any order.
func Table() arrowbatch.Table {
	return arrowbatch.Table{Name: schema.TableSolBalances, AnyOrder: true, New: func(mem memory.Allocator) arrowbatch.Builder {
		return newBuilder(mem)
	}}
}

type builder struct {
	arrowbatch.Base
	address        *array.FixedSizeBinaryBuilder
	slot, lamports *array.Uint64Builder
	txIndex        *array.Uint32Builder
}

func newBuilder(mem memory.Allocator) *builder {
	b := &builder{}
	b.Base = arrowbatch.NewBase(
		arrowbatch.Col(mem, &b.address, "address", arrowbatch.PubkeyType()),
		arrowbatch.Col(mem, &b.slot, "slot", arrow.PrimitiveTypes.Uint64),
		arrowbatch.Col(mem, &b.txIndex, "tx_index", arrow.PrimitiveTypes.Uint32),
		arrowbatch.Col(mem, &b.lamports, "lamports", arrow.PrimitiveTypes.Uint64),
	)
	return b
}

func (b *builder) Append(r arrowbatch.Row) error {
	row, ok := r.(*Row)
	if !ok {
		return fmt.Errorf("%s: cannot append %T", schema.TableSolBalances, r)
	}
	b.address.Append(row.Address[:])
	b.slot.Append(row.Slot)
	b.txIndex.Append(row.TxIndex)
	b.lamports.Append(row.Lamports)
	b.Added(32 + 8 + 4 + 8)
	return nil
}

package parsedtx

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/chain/parsed"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/schema"
)

// SwapRow is one token_swaps row: a leg of the swap a transaction made,
// leg 0 the whole swap as its user saw it, the others the pool swaps of a
// route, amounts raw with the decimals of their mints.
type SwapRow struct {
	Slot           uint64
	TxIndex        uint32
	Signature      solana.Signature
	Leg            uint16
	BlockTime      int64
	Protocol       string
	ProgramID      solana.Pubkey
	User           solana.Pubkey
	InputMint      solana.Pubkey
	OutputMint     solana.Pubkey
	InAmount       uint64
	OutAmount      uint64
	InputDecimals  uint8
	OutputDecimals uint8
}

// Table implements arrowbatch.Row.
func (*SwapRow) Table() string { return schema.TableTokenSwaps }

// swapRows are the token_swaps rows of a parsed transaction, one per leg.
func swapRows(tx *solana.Tx, sig solana.Signature, p *parsed.Transaction, blockTime int64) []*SwapRow {
	out := make([]*SwapRow, 0, len(p.Swaps))
	for i, l := range p.Swaps {
		if i > 0xffff {
			break
		}
		out = append(out, &SwapRow{
			Slot: tx.Slot, TxIndex: tx.TxIndex, Signature: sig, Leg: uint16(i), BlockTime: blockTime,
			Protocol: l.Protocol, ProgramID: l.ProgramID, User: l.User, InputMint: l.InputMint, OutputMint: l.OutputMint,
			InAmount: l.InAmount, OutAmount: l.OutAmount, InputDecimals: l.InputDecimals, OutputDecimals: l.OutputDecimals,
		})
	}
	return out
}

// SwapTable is token_swaps; a leg's rows are identical, so parts commit
// in any order.
func SwapTable() arrowbatch.Table {
	return arrowbatch.Table{Name: schema.TableTokenSwaps, AnyOrder: true, New: func(mem memory.Allocator) arrowbatch.Builder {
		return newSwapBuilder(mem)
	}}
}

type swapBuilder struct {
	arrowbatch.Base
	slot, in, out               *array.Uint64Builder
	txIndex                     *array.Uint32Builder
	sig                         *array.FixedSizeBinaryBuilder
	program, user, inMint, outM *array.FixedSizeBinaryBuilder
	leg                         *array.Uint16Builder
	time                        *array.Int64Builder
	protocol                    *array.StringBuilder
	inDec, outDec               *array.Uint8Builder
}

func newSwapBuilder(mem memory.Allocator) *swapBuilder {
	b := &swapBuilder{}
	b.Base = arrowbatch.NewBase(
		arrowbatch.Col(mem, &b.slot, "slot", arrow.PrimitiveTypes.Uint64),
		arrowbatch.Col(mem, &b.txIndex, "tx_index", arrow.PrimitiveTypes.Uint32),
		arrowbatch.Col(mem, &b.sig, "signature", arrowbatch.SignatureType()),
		arrowbatch.Col(mem, &b.leg, "leg", arrow.PrimitiveTypes.Uint16),
		arrowbatch.Col(mem, &b.time, "block_time", arrow.PrimitiveTypes.Int64),
		arrowbatch.Col(mem, &b.protocol, "protocol", arrow.BinaryTypes.String),
		arrowbatch.Col(mem, &b.program, "program_id", arrowbatch.PubkeyType()),
		arrowbatch.Col(mem, &b.user, "user", arrowbatch.PubkeyType()),
		arrowbatch.Col(mem, &b.inMint, "input_mint", arrowbatch.PubkeyType()),
		arrowbatch.Col(mem, &b.outM, "output_mint", arrowbatch.PubkeyType()),
		arrowbatch.Col(mem, &b.in, "in_amount", arrow.PrimitiveTypes.Uint64),
		arrowbatch.Col(mem, &b.out, "out_amount", arrow.PrimitiveTypes.Uint64),
		arrowbatch.Col(mem, &b.inDec, "input_decimals", arrow.PrimitiveTypes.Uint8),
		arrowbatch.Col(mem, &b.outDec, "output_decimals", arrow.PrimitiveTypes.Uint8),
	)
	return b
}

func (b *swapBuilder) Append(r arrowbatch.Row) error {
	row, ok := r.(*SwapRow)
	if !ok {
		return fmt.Errorf("%s: cannot append %T", schema.TableTokenSwaps, r)
	}
	b.slot.Append(row.Slot)
	b.txIndex.Append(row.TxIndex)
	b.sig.Append(row.Signature[:])
	b.leg.Append(row.Leg)
	b.time.Append(row.BlockTime)
	b.protocol.Append(row.Protocol)
	b.program.Append(row.ProgramID[:])
	b.user.Append(row.User[:])
	b.inMint.Append(row.InputMint[:])
	b.outM.Append(row.OutputMint[:])
	b.in.Append(row.InAmount)
	b.out.Append(row.OutAmount)
	b.inDec.Append(row.InputDecimals)
	b.outDec.Append(row.OutputDecimals)
	b.Added(8 + 4 + 64 + 2 + 8 + len(row.Protocol) + 4*32 + 8 + 8 + 1 + 1)
	return nil
}

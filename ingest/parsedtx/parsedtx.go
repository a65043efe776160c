// Package parsedtx files every indexed transaction's parsed-events answer
// (parsed_transactions), parsed once at ingest, an entry per address it
// concerns (address_transactions), the history the parsed-events API
// pages through, and the legs of the swap it made (token_swaps). Vote transactions are left out: they are most of the
// chain and no one's activity.
package parsedtx

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/chain/parsed"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/ingest/decode"
	"github.com/dasch-labs/dasch/schema"
)

// Decoder writes parsed_transactions, address_transactions and
// token_swaps.
type Decoder struct{}

var _ decode.Decoder = Decoder{}

// Name implements decode.Decoder.
func (Decoder) Name() string { return "parsed_events" }

// Tables implements decode.Decoder.
func (Decoder) Tables() []arrowbatch.Table {
	return []arrowbatch.Table{ParsedTable(), AddressTable(), SwapTable()}
}

// Interest implements decode.Interested: a filtered source (a gRPC
// stream) carries the transactions of the other decoders' programs, and
// of the swap programs, so that swaps and the prices made from them
// follow a stream as they follow files.
func (Decoder) Interest() decode.Interest {
	return decode.Interest{TxPrograms: parsed.SwapPrograms()}
}

// DecodeAccount implements decode.Decoder: parsed events come from
// transactions only.
func (Decoder) DecodeAccount(*solana.Account, *decode.Batch) error { return nil }

// DecodeTx implements decode.Decoder.
func (Decoder) DecodeTx(tx *solana.Tx, out *decode.Batch) error {
	if tx.IsVote || len(tx.Signatures) == 0 || len(tx.AccountKeys) == 0 {
		return nil
	}
	p := parsed.Parse(tx)
	doc, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("parsed transaction: %w", err)
	}
	var bt int64
	if tx.BlockTime != nil {
		bt = *tx.BlockTime
	}
	sig := tx.Signature()
	out.Add(&ParsedRow{Signature: sig, Slot: tx.Slot, TxIndex: tx.TxIndex, BlockTime: bt, Failed: tx.Failed(), Parsed: doc})
	for _, a := range Addresses(tx, p) {
		out.Add(&AddressRow{Address: a, Slot: tx.Slot, TxIndex: tx.TxIndex, Signature: sig, BlockTime: bt})
	}
	for _, r := range swapRows(tx, sig, p, bt) {
		out.Add(r)
	}
	return nil
}

// Addresses are what the history of a transaction is filed under: every
// account key, then the owners of the token accounts its balances show,
// so an owner's history includes its token accounts' activity; each once.
func Addresses(tx *solana.Tx, p *parsed.Transaction) []solana.Pubkey {
	out := make([]solana.Pubkey, 0, len(tx.AccountKeys)+len(p.TokenOwners))
	seen := make(map[solana.Pubkey]bool, len(tx.AccountKeys)+len(p.TokenOwners))
	for _, list := range [][]solana.Pubkey{tx.AccountKeys, p.TokenOwners} {
		for _, k := range list {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out
}

// ParsedRow is one parsed_transactions row.
type ParsedRow struct {
	Signature solana.Signature
	Slot      uint64
	TxIndex   uint32
	BlockTime int64
	Failed    bool
	Parsed    []byte
}

// Table implements arrowbatch.Row.
func (*ParsedRow) Table() string { return schema.TableParsedTxs }

// AddressRow is one address_transactions row.
type AddressRow struct {
	Address   solana.Pubkey
	Slot      uint64
	TxIndex   uint32
	Signature solana.Signature
	BlockTime int64
}

// Table implements arrowbatch.Row.
func (*AddressRow) Table() string { return schema.TableAddressTxs }

// ParsedTable is parsed_transactions; a signature's rows are identical,
// so parts commit in any order.
func ParsedTable() arrowbatch.Table {
	return arrowbatch.Table{Name: schema.TableParsedTxs, AnyOrder: true, New: func(mem memory.Allocator) arrowbatch.Builder {
		return newParsedBuilder(mem)
	}}
}

// AddressTable is address_transactions, whose rows of a key are
// identical too.
func AddressTable() arrowbatch.Table {
	return arrowbatch.Table{Name: schema.TableAddressTxs, AnyOrder: true, New: func(mem memory.Allocator) arrowbatch.Builder {
		return newAddressBuilder(mem)
	}}
}

type parsedBuilder struct {
	arrowbatch.Base
	sig     *array.FixedSizeBinaryBuilder
	slot    *array.Uint64Builder
	txIndex *array.Uint32Builder
	time    *array.Int64Builder
	failed  *array.BooleanBuilder
	doc     *array.BinaryBuilder
}

func newParsedBuilder(mem memory.Allocator) *parsedBuilder {
	b := &parsedBuilder{}
	b.Base = arrowbatch.NewBase(
		arrowbatch.Col(mem, &b.sig, "signature", arrowbatch.SignatureType()),
		arrowbatch.Col(mem, &b.slot, "slot", arrow.PrimitiveTypes.Uint64),
		arrowbatch.Col(mem, &b.txIndex, "tx_index", arrow.PrimitiveTypes.Uint32),
		arrowbatch.Col(mem, &b.time, "block_time", arrow.PrimitiveTypes.Int64),
		arrowbatch.Col(mem, &b.failed, "failed", arrow.FixedWidthTypes.Boolean),
		arrowbatch.Col(mem, &b.doc, "parsed", arrow.BinaryTypes.Binary),
	)
	return b
}

func (b *parsedBuilder) Append(r arrowbatch.Row) error {
	row, ok := r.(*ParsedRow)
	if !ok {
		return fmt.Errorf("%s: cannot append %T", schema.TableParsedTxs, r)
	}
	b.sig.Append(row.Signature[:])
	b.slot.Append(row.Slot)
	b.txIndex.Append(row.TxIndex)
	b.time.Append(row.BlockTime)
	b.failed.Append(row.Failed)
	b.doc.Append(row.Parsed)
	b.Added(64 + 8 + 4 + 8 + 1 + len(row.Parsed))
	return nil
}

type addressBuilder struct {
	arrowbatch.Base
	address, sig *array.FixedSizeBinaryBuilder
	slot         *array.Uint64Builder
	txIndex      *array.Uint32Builder
	time         *array.Int64Builder
}

func newAddressBuilder(mem memory.Allocator) *addressBuilder {
	b := &addressBuilder{}
	b.Base = arrowbatch.NewBase(
		arrowbatch.Col(mem, &b.address, "address", arrowbatch.PubkeyType()),
		arrowbatch.Col(mem, &b.slot, "slot", arrow.PrimitiveTypes.Uint64),
		arrowbatch.Col(mem, &b.txIndex, "tx_index", arrow.PrimitiveTypes.Uint32),
		arrowbatch.Col(mem, &b.sig, "signature", arrowbatch.SignatureType()),
		arrowbatch.Col(mem, &b.time, "block_time", arrow.PrimitiveTypes.Int64),
	)
	return b
}

func (b *addressBuilder) Append(r arrowbatch.Row) error {
	row, ok := r.(*AddressRow)
	if !ok {
		return fmt.Errorf("%s: cannot append %T", schema.TableAddressTxs, r)
	}
	b.address.Append(row.Address[:])
	b.slot.Append(row.Slot)
	b.txIndex.Append(row.TxIndex)
	b.sig.Append(row.Signature[:])
	b.time.Append(row.BlockTime)
	b.Added(32 + 8 + 4 + 64 + 8)
	return nil
}

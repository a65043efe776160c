package assetstate

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/chain/bubblegum"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/schema"
)

// eventRow is a row of bubblegum_events: one Bubblegum instruction applied
// to one compressed NFT, its whole decoded event in Payload.
type eventRow struct {
	AssetID     bubblegum.Key
	Seq         uint64
	Signature   solana.Signature
	Tree        bubblegum.Key
	LeafID      uint64
	Slot        uint64
	Instruction string
	Outer       uint16
	Inner       int16
	Owner       *bubblegum.Key
	Delegate    *bubblegum.Key
	Payload     []byte
}

// Table implements arrowbatch.Row.
func (*eventRow) Table() string { return schema.TableBubblegumEvents }

// eventRows turns the Bubblegum events of tx into rows.
func eventRows(tx *solana.Tx) ([]*eventRow, error) {
	evs, err := bubblegum.Parse(tx)
	if err != nil || len(evs) == 0 {
		return nil, err
	}
	rows := make([]*eventRow, 0, len(evs))
	for i := range evs {
		r, err := newEventRow(&evs[i], tx.Signature(), tx.Slot)
		if err != nil {
			return nil, err
		}
		if r != nil {
			rows = append(rows, r)
		}
	}
	return rows, nil
}

// EventRow is the bubblegum_events row of e, applied by transaction sig
// in slot; nil for an instruction that names no leaf (tree creation).
func EventRow(e *bubblegum.Event, sig solana.Signature, slot uint64) (arrowbatch.Row, error) {
	r, err := newEventRow(e, sig, slot)
	if r == nil {
		return nil, err
	}
	return r, err
}

func newEventRow(e *bubblegum.Event, sig solana.Signature, slot uint64) (*eventRow, error) {
	if e.AssetID.IsZero() {
		return nil, nil
	}
	payload, err := e.MarshalPayload()
	if err != nil {
		return nil, err
	}
	if e.Outer < 0 || e.Outer > 0xffff || e.Inner < -1 || e.Inner > 0x7fff {
		return nil, fmt.Errorf("bubblegum event %s: instruction position %d/%d out of range", e.Signature, e.Outer, e.Inner)
	}
	r := &eventRow{
		AssetID: e.AssetID, Seq: e.Seq, Signature: sig, Tree: e.Tree, LeafID: e.LeafID,
		Slot: slot, Instruction: e.Instruction, Outer: uint16(e.Outer), Inner: int16(e.Inner),
		Payload: payload,
	}
	if e.Leaf != nil {
		owner, delegate := e.Leaf.Owner, e.Leaf.Delegate
		r.Owner, r.Delegate = &owner, &delegate
	}
	return r, nil
}

// EventsTable describes bubblegum_events.
func EventsTable() arrowbatch.Table {
	return arrowbatch.Table{Name: schema.TableBubblegumEvents, New: func(mem memory.Allocator) arrowbatch.Builder {
		return newEventsBuilder(mem)
	}}
}

type eventsBuilder struct {
	arrowbatch.Base
	assetID, tree, owner, delegate *array.FixedSizeBinaryBuilder
	sig                            *array.FixedSizeBinaryBuilder
	seq, leafID, slot              *array.Uint64Builder
	instruction                    *array.StringBuilder
	outer                          *array.Uint16Builder
	inner                          *array.Int16Builder
	payload                        *array.BinaryBuilder
}

func newEventsBuilder(mem memory.Allocator) *eventsBuilder {
	key, u64 := arrowbatch.PubkeyType(), arrow.PrimitiveTypes.Uint64
	b := &eventsBuilder{}
	b.Base = arrowbatch.NewBase(
		arrowbatch.Col(mem, &b.assetID, "asset_id", key),
		arrowbatch.Col(mem, &b.seq, "seq", u64),
		arrowbatch.Col(mem, &b.sig, "signature", arrowbatch.SignatureType()),
		arrowbatch.Col(mem, &b.tree, "tree", key),
		arrowbatch.Col(mem, &b.leafID, "leaf_id", u64),
		arrowbatch.Col(mem, &b.slot, "slot", u64),
		arrowbatch.Col(mem, &b.instruction, "instruction", arrow.BinaryTypes.String),
		arrowbatch.Col(mem, &b.outer, "ix_outer", arrow.PrimitiveTypes.Uint16),
		arrowbatch.Col(mem, &b.inner, "ix_inner", arrow.PrimitiveTypes.Int16),
		arrowbatch.NullableCol(mem, &b.owner, "owner", key),
		arrowbatch.NullableCol(mem, &b.delegate, "delegate", key),
		arrowbatch.Col(mem, &b.payload, "payload", arrow.BinaryTypes.Binary),
	)
	return b
}

func appendOptKey(b *array.FixedSizeBinaryBuilder, k *bubblegum.Key) {
	if k == nil {
		b.AppendNull()
		return
	}
	b.Append(k[:])
}

func (b *eventsBuilder) Append(r arrowbatch.Row) error {
	row, ok := r.(*eventRow)
	if !ok {
		return fmt.Errorf("%s: cannot append %T", schema.TableBubblegumEvents, r)
	}
	b.assetID.Append(row.AssetID[:])
	b.seq.Append(row.Seq)
	b.sig.Append(row.Signature[:])
	b.tree.Append(row.Tree[:])
	b.leafID.Append(row.LeafID)
	b.slot.Append(row.Slot)
	b.instruction.Append(row.Instruction)
	b.outer.Append(row.Outer)
	b.inner.Append(row.Inner)
	appendOptKey(b.owner, row.Owner)
	appendOptKey(b.delegate, row.Delegate)
	b.payload.Append(row.Payload)
	b.Added(32*5 + 64 + 32 + len(row.Instruction) + len(row.Payload))
	return nil
}

package ingest

import (
	"errors"
	"fmt"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/ingest/decode"
	"github.com/dasch-labs/dasch/ingest/source"
)

// output is what decoding one item produced.
type output struct {
	seq     uint64
	kind    source.Kind
	decoded bool // the item decoded into its canonical struct
	rows    []arrowbatch.Row
	dead    int // dead letters among rows
	bytes   int
}

// worker decodes items; it holds no state between items, so any number of
// goroutines can share one.
type worker struct {
	spec     string
	decoders []decode.Decoder
	force    *uint64 // Config.ForceSlot
}

func (w *worker) decode(it source.Item) output {
	o := output{seq: it.Seq, kind: it.Kind, bytes: len(it.Raw)}
	raw := func() []byte { return it.Raw }
	switch it.Kind {
	case source.KindTx:
		tx := it.Tx
		if tx == nil {
			var err error
			if tx, err = solana.ParseTx(it.Raw); err != nil {
				w.deadLetter(&o, "transaction", it.Key, it.Slot, err, it.Raw)
				return o
			}
		}
		tx.TxIndex = it.TxIndex
		if w.force != nil {
			tx.Slot, tx.BlockTime = *w.force, nil
		}
		o.decoded = true
		w.each(&o, "transaction", func() string { return tx.Signature().String() }, tx.Slot, raw,
			func(d decode.Decoder, b *decode.Batch) error { return d.DecodeTx(tx, b) })
	case source.KindAccount:
		acc := it.Account
		if acc == nil {
			var err error
			if acc, err = solana.ParseAccount(it.Raw); err != nil {
				w.deadLetter(&o, "account", it.Key, it.Slot, err, it.Raw)
				return o
			}
		}
		if w.force != nil {
			acc.Slot = *w.force
		}
		o.decoded = true
		w.each(&o, "account", func() string { return acc.Pubkey.String() }, acc.Slot, raw,
			func(d decode.Decoder, b *decode.Batch) error { return d.DecodeAccount(acc, b) })
	case source.KindBlock:
		blk := it.Block
		if blk == nil {
			w.deadLetter(&o, "block", it.Key, it.Slot, errors.New("block item without a header"), nil)
			return o
		}
		if w.force != nil {
			// The header may be shared with the source; change a copy.
			forced := *blk
			forced.Slot = *w.force
			blk = &forced
		}
		o.decoded = true
		// The source parsed the header out of the file; its JSON form is
		// the payload to keep.
		header := func() []byte { b, _ := json.Marshal(blk); return b }
		w.each(&o, "block", func() string { return it.Key }, blk.Slot, header,
			func(d decode.Decoder, b *decode.Batch) error {
				if bd, ok := d.(decode.BlockDecoder); ok {
					return bd.DecodeBlock(blk, b)
				}
				return nil
			})
	default:
		kind, err := it.Fail, it.Err
		if kind == "" {
			kind = "file"
		}
		if err == nil {
			err = fmt.Errorf("unusable item of kind %s", it.Kind)
		}
		w.deadLetter(&o, kind, it.Key, it.Slot, err, it.Raw)
	}
	return o
}

// each runs every decoder; a failing decoder loses its own rows only.
func (w *worker) each(o *output, kind string, key func() string, slot uint64, payload func() []byte, run func(decode.Decoder, *decode.Batch) error) {
	for _, d := range w.decoders {
		var b decode.Batch
		if err := guard(d, &b, run); err != nil {
			w.deadLetter(o, kind, key(), slot, fmt.Errorf("decoder %s: %w", d.Name(), err), payload())
			continue
		}
		o.rows = append(o.rows, b.Rows()...)
	}
}

// guard turns a decoder panic into an error: one bad record must not stop
// ingestion.
func guard(d decode.Decoder, b *decode.Batch, run func(decode.Decoder, *decode.Batch) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return run(d, b)
}

func (w *worker) deadLetter(o *output, kind, key string, slot uint64, err error, payload []byte) {
	o.dead++
	o.rows = append(o.rows, &arrowbatch.DeadLetterRow{
		Source: w.spec, Kind: kind, Key: key, Slot: slot, Error: err.Error(), Payload: payload,
	})
}

package compressedstate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/dasch-labs/dasch/chain/light"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/ingest/decode"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// Decoder writes what each transaction did to compressed state: its output
// accounts, the hashes it spent and its signature rows. It is safe for
// concurrent use; the trees it resolves are fixed when it is made.
type Decoder struct {
	trees light.TreeLookup
	// dropped counts outputs in trees missing from state_trees.
	dropped atomic.Uint64
}

var (
	_ decode.Decoder = (*Decoder)(nil)
	_ decode.Counter = (*Decoder)(nil)
)

// NewDecoder returns a decoder resolving trees through state_trees as it is
// now.
func NewDecoder(ctx context.Context, s arrowstore.Writer) (*Decoder, error) {
	trees, err := LoadTrees(ctx, s)
	if err != nil {
		return nil, fmt.Errorf("compressed decoder: %w", err)
	}
	return newDecoder(trees)
}

// NewDecoderWithTrees returns a decoder resolving trees through trees,
// for callers that hold the tree list themselves (the ingest benchmark).
func NewDecoderWithTrees(trees light.TreeLookup) *Decoder { return &Decoder{trees: trees} }

func newDecoder(trees light.TreeLookup) (*Decoder, error) {
	if trees == nil {
		return nil, errors.New("compressed decoder: no trees")
	}
	return &Decoder{trees: trees}, nil
}

// Name implements decode.Decoder.
func (*Decoder) Name() string { return "compressed" }

// Tables implements decode.Decoder.
func (*Decoder) Tables() []arrowbatch.Table {
	return []arrowbatch.Table{
		accountsTable(), spentTable(), signaturesTable(),
		ownerSigsTable(schema.TableOwnerTxs), ownerSigsTable(schema.TableTokenOwnerTxs),
		treeNodesTable(), addressElementsTable(),
	}
}

// Counts implements decode.Counter.
func (d *Decoder) Counts() map[string]uint64 {
	return map[string]uint64{"compressed outputs in unknown trees dropped": d.dropped.Load()}
}

// DecodeAccount implements decode.Decoder; compressed state lives in
// transactions only.
func (*Decoder) DecodeAccount(*solana.Account, *decode.Batch) error { return nil }

// DecodeTx implements decode.Decoder. A failed transaction, or one without
// Light events, writes nothing. Outputs in unknown trees are dropped, as
// Photon drops them, and counted; the transaction still counts as a
// compression transaction.
func (d *Decoder) DecodeTx(tx *solana.Tx, out *decode.Batch) error {
	ev, err := light.Parse(tx, d.trees)
	if err != nil {
		return err
	}
	if !ev.Compression {
		return nil
	}
	var blockTime int64
	if tx.BlockTime != nil {
		blockTime = *tx.BlockTime
	}
	d.DecodeEvents(ev, blockTime, out)
	return nil
}

// DecodeEvents adds the rows of a transaction's parsed Light events, as
// DecodeTx does after parsing: callers holding events already parsed (the
// ingest benchmark) write exactly what the pipeline writes. ev must be a
// compression transaction (ev.Compression).
func (d *Decoder) DecodeEvents(ev *light.Events, blockTime int64, out *decode.Batch) {
	sig := ev.Signature
	out.Add(&signatureRow{Slot: ev.Slot, Signature: sig, BlockTime: blockTime})
	prefix := [8]byte(sig[:8])

	// Each owner once per transaction: the signature tables are sets. A
	// transaction has a handful of outputs: a scan of the owners seen
	// needs no map (TestSignatureRowsOncePerOwner).
	var ownersBuf, tokenOwnersBuf [8]solana.Pubkey
	owners, tokenOwners := ownersBuf[:0], tokenOwnersBuf[:0]
	for i := range ev.Outputs {
		o := &ev.Outputs[i]
		if o.UnknownTree {
			d.dropped.Add(1)
			continue
		}
		out.Add((*accountRow)(o))
		if !slices.Contains(owners, o.Owner) {
			owners = append(owners, o.Owner)
			out.Add(&ownerSignatureRow{Owner: o.Owner, Slot: ev.Slot, SigPrefix: prefix})
		}
		if o.Token != nil && !slices.Contains(tokenOwners, o.Token.Owner) {
			tokenOwners = append(tokenOwners, o.Token.Owner)
			out.Add(&tokenOwnerSignatureRow{Owner: o.Token.Owner, Slot: ev.Slot, SigPrefix: prefix})
		}
	}
	// Owners of spent accounts are known only once their outputs are; the
	// state step writes those signature rows.
	for _, in := range ev.Inputs {
		out.Add(&spentRow{Hash: in.Hash, Slot: ev.Slot, Signature: sig, BlockTime: blockTime, V2: in.V2})
	}
	d.treeRows(ev, out)
}

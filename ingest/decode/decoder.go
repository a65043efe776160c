// Package decode is the plug-in point of ingestion: decoders turn canonical
// transactions, accounts and blocks into rows of any tables. The raw
// decoder writes the core tables; decoders of higher-level state
// (compressed accounts, digital assets) are added beside it.
package decode

import (
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest/arrowbatch"
)

// Decoder turns one item into rows. The pipeline calls it from several
// goroutines at once, so implementations must be safe for concurrent use;
// the structs it receives are shared with other decoders and must not be
// modified. A returned error sends the item to dead_letters for this
// decoder only: its rows are dropped, other decoders' rows are kept.
type Decoder interface {
	// Name identifies the decoder in dead letters and errors.
	Name() string
	// Tables lists every table the decoder writes.
	Tables() []arrowbatch.Table
	DecodeTx(tx *solana.Tx, out *Batch) error
	DecodeAccount(acc *solana.Account, out *Batch) error
}

// BlockDecoder is implemented by decoders that also consume block headers.
type BlockDecoder interface {
	DecodeBlock(b *solana.Block, out *Batch) error
}

// Counter is implemented by decoders that count notable input they
// accept but do not store, such as data Photon also ignores. The run
// reports the counts in its summary.
type Counter interface {
	// Counts maps a plural description ("outputs in unknown trees") to how
	// many were seen since the decoder was made.
	Counts() map[string]uint64
}

// Batch collects the rows one decoder produces for one item.
type Batch struct {
	rows []arrowbatch.Row
}

// Add appends a row.
func (b *Batch) Add(r arrowbatch.Row) { b.rows = append(b.rows, r) }

// Rows returns the rows added so far.
func (b *Batch) Rows() []arrowbatch.Row { return b.rows }

// Interest says which chain data a decoder reads, so a source that can
// filter at the node (a Geyser subscription, getProgramAccounts) asks for
// just that: accounts owned by AccountOwners, and transactions whose
// account keys include one of TxPrograms (top level or through CPI).
type Interest struct {
	AccountOwners []solana.Pubkey
	TxPrograms    []solana.Pubkey
}

// Interested is implemented by decoders that read only some programs'
// data. A decoder that does not implement it reads nothing a filtered
// source needs to ask for.
type Interested interface {
	Interest() Interest
}

// Merge returns the union of interests, each key once, in first-seen order.
func Merge(in ...Interest) Interest {
	var out Interest
	seen := map[[2]any]bool{}
	add := func(dst *[]solana.Pubkey, kind string, keys []solana.Pubkey) {
		for _, k := range keys {
			if !seen[[2]any{kind, k}] {
				seen[[2]any{kind, k}] = true
				*dst = append(*dst, k)
			}
		}
	}
	for _, i := range in {
		add(&out.AccountOwners, "account", i.AccountOwners)
		add(&out.TxPrograms, "tx", i.TxPrograms)
	}
	return out
}

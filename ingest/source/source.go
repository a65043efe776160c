// Package source reads Solana data to ingest and hands it out as items in
// slot order. Sources differ in where data comes from (files, a Solana RPC
// node, or a Yellowstone gRPC stream); the pipeline only sees Items.
package source

import (
	"context"
	"fmt"
	"strings"

	"github.com/dasch-labs/dasch/chain/solana"
)

// Kind is what an item holds.
type Kind uint8

const (
	KindTx      Kind = iota + 1 // a transaction JSON
	KindAccount                 // an account JSON
	KindBlock                   // a block header; its transactions follow as KindTx items
	KindBad                     // input that could not be read or classified
	// KindSeal is no data: it says every item of slots up to its Slot has
	// been emitted, so that slot is complete without waiting for a later
	// one. A source following a chain sends it after each block; it takes
	// no sequence number.
	KindSeal
)

func (k Kind) String() string {
	switch k {
	case KindTx:
		return "transaction"
	case KindAccount:
		return "account"
	case KindBlock:
		return "block"
	case KindBad:
		return "bad"
	case KindSeal:
		return "seal"
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Item is one unit of work. Items are emitted with increasing Seq and
// non-decreasing Slot: the pipeline relies on that order to know when a
// slot is complete.
type Item struct {
	Seq  uint64
	Kind Kind
	Slot uint64
	// Key says where the item came from: a file path, or path#i for the
	// i-th transaction of a block file.
	Key string
	// Raw is the JSON: a transaction (for block entries with the block's
	// slot and blockTime added), an account, or the bad input.
	Raw []byte
	// TxIndex is the position of a KindTx item in its block.
	TxIndex uint32
	// Block is the header of a KindBlock item.
	Block *solana.Block
	// Tx and Account, when set, are a KindTx or KindAccount item already
	// decoded, as a source converting protobufs has it: the pipeline
	// takes them instead of parsing Raw, which holds the same as JSON.
	Tx      *solana.Tx
	Account *solana.Account
	// Fail is the dead-letter kind of a KindBad item ("file", "block",
	// "transaction", "account") and Err why it is bad.
	Fail string
	Err  error
}

// Source produces items.
type Source interface {
	// Spec is the source as the user wrote it, e.g. "files:testdata".
	Spec() string
	// Read calls emit for every item in order. It stops at the first error
	// emit returns, or when ctx ends.
	Read(ctx context.Context, emit func(Item) error) error
}

// Progresser is implemented by sources that know how much input remains.
type Progresser interface {
	// Progress returns input consumed and total, in bytes; total is 0
	// while unknown.
	Progress() (done, total int64)
}

// Supported lists the source specs Parse accepts.
const Supported = "files:DIR, rpc:URL, grpc:URL"

// Parse returns the source a spec names.
func Parse(spec string) (Source, error) {
	scheme, arg, ok := strings.Cut(spec, ":")
	if !ok {
		return nil, fmt.Errorf("source %q: want SCHEME:ARGUMENT (supported: %s)", spec, Supported)
	}
	switch scheme {
	case "files":
		return NewFiles(arg)
	case "rpc":
		return NewRPC(arg)
	case "grpc":
		return NewGRPC(arg)
	}
	return nil, fmt.Errorf("source %q: unknown scheme %q (supported: %s)", spec, scheme, Supported)
}

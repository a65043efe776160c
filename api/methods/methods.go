// Package methods builds the JSON-RPC method registry dasch serves: the
// indexer method (api), Photon's compressed-state methods (api/photon) and
// the DAS methods (api/das), over one store and one slot cache. dasch
// serve, the conformance harness and the benches build theirs here, so
// each serves the methods as serve wires them.
package methods

import (
	"context"
	"log/slog"

	"github.com/dasch-labs/dasch/api"
	"github.com/dasch-labs/dasch/api/das"
	"github.com/dasch-labs/dasch/api/photon"
	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/query/assetcache"
	"github.com/dasch-labs/dasch/server/jsonrpc"
	"github.com/dasch-labs/dasch/store"
)

// Set picks families of methods.
type Set uint8

const (
	// Indexer is getIndexerSlot.
	Indexer Set = 1 << iota
	// Photon is the compressed-state methods.
	Photon
	// DAS is the digital-asset methods.
	DAS
	// All is every method dasch serves.
	All = Indexer | Photon | DAS
)

// Options are the methods to serve and what they read from. Store and
// Slots are required; the indexes are optional, and without one (or until
// it is loaded) its methods read the store.
type Options struct {
	Methods Set
	Store   store.Querier
	// Slots is the process's one cache of the indexed slot, which every
	// method stamps its answers with.
	Slots *checkpoint.SlotCache
	// Logger receives the details of internal errors. Default
	// slog.Default().
	Logger *slog.Logger
	// Tip, when set, answers the newest slot of the node the process
	// ingests from (photon.Deps.Tip).
	Tip func(context.Context) (uint64, error)
	// NodeBalance, when set, answers a wallet's lamports from that node
	// (das.Deps.NodeBalance).
	NodeBalance func(context.Context, solana.Pubkey) (uint64, error)
	// Prover, when set, proves validity proofs (photon.Deps.Prover).
	Prover photon.Prover
	// Hot and HotTokens serve Photon's holders, balances and token
	// accounts from memory; Assets serves DAS asset states.
	Hot       photon.HotIndex
	HotTokens photon.HotTokens
	Assets    das.AssetIndex
	// AssetCache holds folded documents for getAsset and getAssetBatch
	// (das.Deps.Cache).
	AssetCache *assetcache.Cache
	// Content shapes content rendered from off-chain documents
	// (das.Deps.Content).
	Content asset.ContentOptions
	// Prices, when set, prices token_info (das.Deps.Prices).
	Prices das.PriceSource
}

// New returns a registry of the methods o picks. A missing dependency is
// a wiring bug and panics at startup, as each family's Register does.
func New(o Options) *jsonrpc.Registry {
	// A nil *SlotCache would pass the families' nil checks inside an
	// interface and fail at the first request instead.
	if o.Slots == nil {
		panic("methods: Options.Slots is nil")
	}
	reg := jsonrpc.NewRegistry()
	if o.Methods&Indexer != 0 {
		api.Register(reg, api.Deps{Slots: o.Slots})
	}
	if o.Methods&Photon != 0 {
		photon.Register(reg, photon.Deps{Store: o.Store, Slots: o.Slots, Hot: o.Hot, HotTokens: o.HotTokens, Logger: o.Logger, Tip: o.Tip, Prover: o.Prover})
	}
	if o.Methods&DAS != 0 {
		das.Register(reg, das.Deps{Store: o.Store, Slots: o.Slots, Index: o.Assets, Logger: o.Logger, NodeBalance: o.NodeBalance, Cache: o.AssetCache, Content: o.Content, Prices: o.Prices})
	}
	return reg
}

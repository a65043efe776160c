package assetbench

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/chain/solana"
)

// Kind is a kind of generated asset.
type Kind uint8

// Generated asset kinds.
const (
	KindNFT          Kind = iota // Token Metadata NonFungible: mint, metadata, holder, master edition
	KindPNFT                     // ProgrammableNonFungible: the same, frozen and delegated, with a rule set
	KindFungible                 // SPL Token mint with Token Metadata, a few holders
	KindFungible2022             // Token-2022 mint with metadata pointer and token metadata
	KindCore                     // MPL Core asset, some in Core collections, with plugins
	KindCNFT                     // compressed NFT: Bubblegum events
	NumKinds
)

var kindNames = [NumKinds]string{"NFT", "pNFT", "fungible", "fungible (Token-2022)", "MPL Core", "compressed NFT"}

func (k Kind) String() string {
	if k < NumKinds {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// DefaultWeights is the mix of kinds, in parts per thousand.
var DefaultWeights = [NumKinds]int{KindNFT: 350, KindPNFT: 150, KindFungible: 100, KindFungible2022: 50, KindCore: 200, KindCNFT: 150}

// GenConfig sizes the synthetic asset state.
type GenConfig struct {
	// Assets is the number of assets; default 1,000,000.
	Assets int
	// Seed makes the state reproducible: the same config gives the same bytes.
	Seed uint64
	// Weights is the mix of kinds; zero means DefaultWeights. Kinds the
	// generator cannot produce in this build (see Available) get none.
	Weights [NumKinds]int
	// Skew concentrates ownership, collection membership, creators and
	// authorities for the listing series (skew.go): one owner of ~1% of
	// the assets, one collection of ~10%, heavy-tailed others. Without it
	// each is drawn uniformly.
	Skew bool
}

// DefaultAssets is the default size.
const DefaultAssets = 1_000_000

func (c *GenConfig) applyDefaults() {
	if c.Assets <= 0 {
		c.Assets = DefaultAssets
	}
	if c.Weights == ([NumKinds]int{}) {
		c.Weights = DefaultWeights
	}
	for k := range NumKinds {
		if !Available(k) {
			c.Weights[k] = 0
		}
	}
}

// Key domains: each kind of synthetic key is derived in its own space.
const (
	domAsset uint64 = iota + 1
	domOwner
	domCreator
	domAuthority
	domCollection
	domCoreCollection
	domTokenAccount
	domRuleSet
	domDelegate
	domURI
	domKind
	domTree
	domSignature
)

const (
	// assetsPerSlot and baseSlot place the writes on a plausible slot range.
	assetsPerSlot = 200
	baseSlot      = 300_000_000
	// fungibleHolders is the number of token accounts of each fungible mint:
	// the loader must skip them (only NFT holders are part of an answer).
	fungibleHolders = 3
	creators        = 1_000
	authorities     = 200
)

// Plan is the layout derived from a GenConfig: each asset's kind, and the
// ids of each kind. The accounts themselves are generated on demand.
type Plan struct {
	Cfg   GenConfig
	kinds []Kind
	// ByKind lists the asset indexes of each kind, ascending.
	ByKind [NumKinds][]int32
	// Token Metadata collections, Core collections and wallets.
	collections, coreCollections, owners int
	// The skewed draws (GenConfig.Skew); bigCollection is the big
	// collection's chance, out of MaxUint32.
	ownerDraw, creatorDraw, authorityDraw weighted
	bigCollection                         uint64
}

// NewPlan lays out cfg.
func NewPlan(cfg GenConfig) (*Plan, error) {
	cfg.applyDefaults()
	total := 0
	for _, w := range cfg.Weights {
		if w < 0 {
			return nil, fmt.Errorf("asset generator: negative weight in %v", cfg.Weights)
		}
		total += w
	}
	if total == 0 {
		return nil, fmt.Errorf("asset generator: no kind to generate (weights %v)", cfg.Weights)
	}
	if cfg.Assets > 1<<31-1 {
		return nil, fmt.Errorf("asset generator: %d assets is too many", cfg.Assets)
	}
	p := &Plan{Cfg: cfg, kinds: make([]Kind, cfg.Assets),
		collections:     max(1, cfg.Assets/2_000),
		coreCollections: max(1, cfg.Assets/5_000),
		owners:          max(1, cfg.Assets/4),
	}
	for i := range p.kinds {
		x := int(mix(cfg.Seed, domKind, uint64(i)) % uint64(total))
		k := Kind(0)
		for ; x >= cfg.Weights[k]; k++ {
			x -= cfg.Weights[k]
		}
		p.kinds[i] = k
		p.ByKind[k] = append(p.ByKind[k], int32(i))
	}
	if cfg.Skew {
		p.skew()
	}
	return p, nil
}

// Assets is the number of assets.
func (p *Plan) Assets() int { return len(p.kinds) }

// Kind is the kind of asset i.
func (p *Plan) Kind(i int) Kind { return p.kinds[i] }

// ID is the asset id of asset i: the mint for token kinds, the asset
// account for Core, the Bubblegum asset id for compressed NFTs.
func (p *Plan) ID(i int) solana.Pubkey { return p.key(domAsset, uint64(i)) }

// CoreCollections is the number of Core collections.
func (p *Plan) CoreCollections() int { return p.coreCollections }

// CoreCollectionID is Core collection j.
func (p *Plan) CoreCollectionID(j int) solana.Pubkey { return p.key(domCoreCollection, uint64(j)) }

func (p *Plan) key(dom, i uint64) solana.Pubkey {
	var k solana.Pubkey
	for w := range 4 {
		binary.LittleEndian.PutUint64(k[8*w:], mix(p.Cfg.Seed, dom<<56|uint64(w)<<48, i))
	}
	return k
}

// rng is asset i's own random stream: asset content does not depend on
// which other assets are generated, or in which order.
func (p *Plan) rng(dom, i uint64) *rand.Rand {
	return rand.New(rand.NewPCG(mix(p.Cfg.Seed, dom, i), i))
}

// uri is an Arweave-style metadata URI.
func (p *Plan) uri(i uint64) string {
	k := p.key(domURI, i)
	return "https://arweave.net/" + base58.Encode(k[:])
}

// slot is the slot asset i was written in.
func slot(i int) uint64 { return baseSlot + uint64(i/assetsPerSlot) }

// mix is SplitMix64 over the seed, a domain and an index.
func mix(seed, dom, i uint64) uint64 {
	z := seed*0x9e3779b97f4a7c15 ^ dom*0xbf58476d1ce4e5b9 ^ i*0x94d049bb133111eb
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

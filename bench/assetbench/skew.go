package assetbench

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/dasch-labs/dasch/chain/solana"
)

// The skew of the listing series (GenConfig.Skew), as shares of all
// assets.
const (
	// BigOwnerShare is the owner of about 1% of the assets (100,000 at 10M).
	BigOwnerShare = 0.01
	// BigCollectionShare is the Token Metadata collection about 10% of the
	// assets are verified members of (1,000,000 at 10M).
	BigCollectionShare = 0.10
	// BigKeyShare is the largest creator's and authority's share; the
	// others have 10 assets or more, log-uniformly up to it.
	BigKeyShare = 0.01
	// maxOwnerAssets bounds the other owners, drawn from a Pareto law.
	maxOwnerAssets = 1_000
	minKeyAssets   = 10
	ownerAlpha     = 1.2
)

// weighted picks key j with probability w_j / total: cum holds the
// running sums of the weights, key 0 first.
type weighted struct{ cum []uint64 }

func (w weighted) pick(r *rand.Rand) uint64 {
	x := r.Uint64N(w.cum[len(w.cum)-1])
	j, _ := slices.BinarySearchFunc(w.cum, x, func(c, x uint64) int {
		if c <= x {
			return -1
		}
		return 1
	})
	return uint64(j)
}

// fill draws key sizes after big until they add up to total: the keys a
// listing of one of them reads, in the units of draws.
func fill(total, big uint64, r *rand.Rand, size func() uint64) weighted {
	w := weighted{cum: []uint64{max(1, big)}}
	for sum := w.cum[0]; sum < total; {
		sum += max(1, min(size(), total-sum))
		w.cum = append(w.cum, sum)
	}
	return w
}

// skew lays out the skewed draws from the kind counts: the expected
// number of draws of each kind of key, so each share is of assets.
func (p *Plan) skew() {
	n := func(ks ...Kind) float64 {
		c := 0
		for _, k := range ks {
			c += len(p.ByKind[k])
		}
		return float64(c)
	}
	assets := float64(p.Assets())
	r := rand.New(rand.NewPCG(mix(p.Cfg.Seed, domOwner, 1<<40), 1))

	// Each owned asset's owner is one draw (a transferred compressed
	// NFT's last one); fungible holders draw from the same law.
	owned := max(1, n(KindNFT, KindPNFT, KindCore, KindCNFT))
	big := uint64(math.Round(BigOwnerShare * assets))
	limit := max(1, min(maxOwnerAssets, big/2)) // the big owner stays the biggest
	p.ownerDraw = fill(uint64(owned), big, r, func() uint64 {
		return min(limit, uint64(math.Pow(1-r.Float64(), -1/ownerAlpha)))
	})
	p.owners = len(p.ownerDraw.cum)

	keys := func(draws float64) weighted {
		big := max(minKeyAssets, uint64(math.Round(BigKeyShare*assets)))
		return fill(uint64(max(1, draws)), big, r, func() uint64 {
			return uint64(minKeyAssets * math.Pow(float64(big)/minKeyAssets, r.Float64()))
		})
	}
	// Draws per asset: 1 to 3 creators an NFT (2 on average), one a
	// compressed NFT, one the 40% of Core assets outside a collection and
	// each Core collection; one update authority a token asset, one those
	// Core assets and each collection.
	core := n(KindCore)*0.4 + float64(p.coreCollections)
	p.creatorDraw = keys(2*n(KindNFT, KindPNFT) + n(KindCNFT) + core)
	p.authorityDraw = keys(n(KindNFT, KindPNFT, KindFungible, KindFungible2022) + core)

	// 90% of NFTs' collections are verified, and every compressed NFT's
	// (half of them have one).
	p.collections = max(2, p.collections)
	members := 0.9*n(KindNFT, KindPNFT) + 0.5*n(KindCNFT)
	p.bigCollection = math.MaxUint32
	if members > 0 {
		p.bigCollection = uint64(min(1, BigCollectionShare*assets/members) * math.MaxUint32)
	}
}

// Skewed reports whether the plan is skewed (GenConfig.Skew).
func (p *Plan) Skewed() bool { return p.Cfg.Skew }

// BigOwner is the owner of about BigOwnerShare of the assets (any owner
// when the plan is not skewed).
func (p *Plan) BigOwner() solana.Pubkey { return p.key(domOwner, 0) }

// BigCollection is the Token Metadata collection of about
// BigCollectionShare of the assets.
func (p *Plan) BigCollection() solana.Pubkey { return p.key(domCollection, 0) }

// BigCreator and BigAuthority have about BigKeyShare of the assets each.
func (p *Plan) BigCreator() solana.Pubkey { return p.key(domCreator, 0) }

// BigAuthority is the authority of about BigKeyShare of the assets.
func (p *Plan) BigAuthority() solana.Pubkey { return p.key(domAuthority, 0) }

func (p *Plan) owner(r *rand.Rand) solana.Pubkey {
	if p.Cfg.Skew {
		return p.key(domOwner, p.ownerDraw.pick(r))
	}
	return p.key(domOwner, r.Uint64N(uint64(p.owners)))
}

func (p *Plan) creator(r *rand.Rand) solana.Pubkey {
	if p.Cfg.Skew {
		return p.key(domCreator, p.creatorDraw.pick(r))
	}
	return p.key(domCreator, r.Uint64N(creators))
}

func (p *Plan) authority(r *rand.Rand) solana.Pubkey {
	if p.Cfg.Skew {
		return p.key(domAuthority, p.authorityDraw.pick(r))
	}
	return p.key(domAuthority, r.Uint64N(authorities))
}

// collection is a Token Metadata collection: the big one with the
// probability that makes its share, else any other.
func (p *Plan) collection(r *rand.Rand) solana.Pubkey {
	if !p.Cfg.Skew {
		return p.key(domCollection, r.Uint64N(uint64(p.collections)))
	}
	if x := r.Uint64N(math.MaxUint32); x < p.bigCollection {
		return p.key(domCollection, 0)
	}
	return p.key(domCollection, 1+r.Uint64N(uint64(p.collections-1)))
}

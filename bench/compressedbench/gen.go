package compressedbench

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// GenConfig sizes the synthetic compressed-token state.
type GenConfig struct {
	// Accounts is the number of unspent compressed token accounts.
	Accounts int
	// Mints is the number of mints; their sizes follow Zipf's law (s = 1),
	// so the largest holds about 1/H(Mints) of all accounts (12% of them
	// for 2,000 mints: 2.4M accounts, over 2M holders at 20M accounts).
	Mints int
	// Whales is the number of owners holding many mints: whale j holds a
	// fraction from 100% (j = 0) down to 5% (the last) of all mints.
	Whales int
	// Seed makes the state reproducible: the same config gives the same bytes.
	Seed uint64
}

// Defaults of GenConfig.
const (
	DefaultAccounts = 20_000_000
	DefaultMints    = 2_000
	DefaultWhales   = 64
)

func (c *GenConfig) applyDefaults() {
	if c.Accounts == 0 {
		c.Accounts = DefaultAccounts
	}
	if c.Mints == 0 {
		c.Mints = DefaultMints
	}
	if c.Whales == 0 {
		c.Whales = DefaultWhales
	}
}

// Key domains: each kind of synthetic key is derived in its own space.
const (
	domMint uint64 = iota + 1
	domOwner
	domWhale
	domHash
	domSig
	domDataHash
	domDelegate
	domTree
	domQueue
	domPerm
	domWhaleHolds
	domTransfer
)

const (
	// trees spread the accounts over a few state trees, as on mainnet.
	trees = 4
	// accountsPerSlot and baseSlot place the stream on a plausible slot range.
	accountsPerSlot = 200
	baseSlot        = 300_000_000
	// delegates is the number of distinct delegate keys; 1% of accounts
	// are delegated.
	delegates = 1000
)

// OwnerID names an owner: ids below Plan.Pool are ordinary owners, the
// rest are whales (Pool + j).
type OwnerID uint64

// Plan is the layout derived from a GenConfig in O(Mints + Whales) memory;
// the rows themselves are generated on the fly by Stream.
type Plan struct {
	Cfg GenConfig
	// MintAccounts is the number of token accounts per mint; mint 0 is the
	// largest.
	MintAccounts []int
	// Pool is the number of ordinary owners (a prime, so every stride of
	// the per-mint permutation visits distinct owners).
	Pool uint64

	mints      [][32]byte
	whaleKeys  [][32]byte
	mintWhales [][]int32 // whales holding each mint, in whale order
	permA      []uint64  // owner of ordinary pair i of mint m: (permA[m] + i*permB[m]) mod Pool
	permB      []uint64
	treeKeys   [trees][32]byte
	queueKeys  [trees][32]byte
}

// NewPlan lays out the mints and owners of cfg.
func NewPlan(cfg GenConfig) (*Plan, error) {
	cfg.applyDefaults()
	if cfg.Accounts < 0 || cfg.Mints <= 0 || cfg.Whales < 0 {
		return nil, fmt.Errorf("generator: invalid config %+v", cfg)
	}
	p := &Plan{Cfg: cfg, MintAccounts: zipfSplit(cfg.Accounts, cfg.Mints)}

	// Ordinary owners: about four token accounts each on average, and never
	// fewer than the largest mint needs for distinct holders.
	p.Pool = nextPrime(uint64(max(cfg.Accounts/4, p.MintAccounts[0], 16)))

	p.mints = make([][32]byte, cfg.Mints)
	p.permA = make([]uint64, cfg.Mints)
	p.permB = make([]uint64, cfg.Mints)
	p.mintWhales = make([][]int32, cfg.Mints)
	for m := range p.mints {
		p.mints[m] = key32(cfg.Seed, domMint, uint64(m))
		p.permA[m] = mix(cfg.Seed^mix(domPerm<<56|uint64(m))) % p.Pool
		p.permB[m] = 1 + mix(cfg.Seed^mix(domPerm<<56|uint64(m)|1<<40))%(p.Pool-1)
	}
	p.whaleKeys = make([][32]byte, cfg.Whales)
	for j := range p.whaleKeys {
		p.whaleKeys[j] = key32(cfg.Seed, domWhale, uint64(j))
	}
	for m := range p.mintWhales {
		// A whale pair takes at most 3 accounts, so capping the whales at a
		// third of the mint's accounts keeps every whale pair whole.
		limit := p.MintAccounts[m] / 3
		for j := 0; j < cfg.Whales && len(p.mintWhales[m]) < limit; j++ {
			frac := 1.0
			if cfg.Whales > 1 {
				frac = 1 - 0.95*float64(j)/float64(cfg.Whales-1)
			}
			h := mix(cfg.Seed ^ mix(domWhaleHolds<<56|uint64(j)<<32|uint64(m)))
			if float64(h%1_000_000) < frac*1_000_000 {
				p.mintWhales[m] = append(p.mintWhales[m], int32(j))
			}
		}
	}
	for t := 0; t < trees; t++ {
		p.treeKeys[t] = key32(cfg.Seed, domTree, uint64(t))
		p.queueKeys[t] = key32(cfg.Seed, domQueue, uint64(t))
	}
	return p, nil
}

// zipfSplit divides n accounts over m mints with weights 1/(rank), the
// rounding remainder going to the largest mints.
func zipfSplit(n, m int) []int {
	var h float64
	for r := 1; r <= m; r++ {
		h += 1 / float64(r)
	}
	out := make([]int, m)
	left := n
	for i := range out {
		out[i] = int(float64(n) / (float64(i+1) * h))
		left -= out[i]
	}
	for i := 0; left > 0; i = (i + 1) % m {
		out[i]++
		left--
	}
	return out
}

// MintKey is the address of mint m.
func (p *Plan) MintKey(m int) [32]byte { return p.mints[m] }

// OwnerKey is the address of owner id.
func (p *Plan) OwnerKey(id OwnerID) [32]byte {
	if uint64(id) >= p.Pool {
		return p.whaleKeys[uint64(id)-p.Pool]
	}
	return key32(p.Cfg.Seed, domOwner, uint64(id))
}

// Whale is the owner id of whale j.
func (p *Plan) Whale(j int) OwnerID { return OwnerID(p.Pool + uint64(j)) }

// AccountHash, Signature and DataHash derive the per-account keys from the
// account's position in the stream.
func (p *Plan) AccountHash(seq uint64) [32]byte {
	h := key32(p.Cfg.Seed, domHash, seq)
	h[0] = 0 // account hashes are BN254 field elements: the top byte is zero
	return h
}

// Signature is the transaction that created account seq; two outputs per
// transaction.
func (p *Plan) Signature(seq uint64) [64]byte {
	var s [64]byte
	a, b := key32(p.Cfg.Seed, domSig, seq/2), key32(p.Cfg.Seed, domSig, seq/2|1<<63)
	copy(s[:32], a[:])
	copy(s[32:], b[:])
	return s
}

// DataHash is the data hash of account seq.
func (p *Plan) DataHash(seq uint64) [32]byte {
	h := key32(p.Cfg.Seed, domDataHash, seq)
	h[0] = 0
	return h
}

// DelegateKey is delegate d.
func (p *Plan) DelegateKey(d int32) [32]byte { return key32(p.Cfg.Seed, domDelegate, uint64(d)) }

// Tree and Queue are the state tree and output queue of account seq.
func (p *Plan) Tree(seq uint64) [32]byte  { return p.treeKeys[seq%trees] }
func (p *Plan) Queue(seq uint64) [32]byte { return p.queueKeys[seq%trees] }

// LeafIndex is the leaf of account seq in its tree.
func LeafIndex(seq uint64) uint64 { return seq / trees }

// Slot is the slot that created account seq.
func Slot(seq uint64) uint64 { return baseSlot + seq/accountsPerSlot }

// Account is one generated token account; its keys derive from Seq.
type Account struct {
	Seq      uint64
	Mint     int32
	Owner    OwnerID
	Amount   uint64
	Delegate int32 // -1: none
}

// Holding is the live balance of one (owner, mint) pair: the sum of the
// pair's accounts.
type Holding struct {
	Mint    int32
	Owner   OwnerID
	Balance uint64
}

// Chunk is a slice of the stream: whole (owner, mint) pairs with their
// accounts.
type Chunk struct {
	Accounts []Account
	Holdings []Holding
}

// Stats describe a generated state.
type Stats struct {
	Accounts, Holdings int
	// HoldersByMint counts the holders of each mint.
	HoldersByMint []int
	// MintsByWhale counts the mints each whale holds.
	MintsByWhale []int
	// MaxSlot is the newest slot_created.
	MaxSlot uint64
}

// mintCursor is one mint's position in the stream.
type mintCursor struct {
	rng     *rand.Rand
	pairs   int // pairs emitted
	emitted int // accounts emitted
}

// Stream generates the state in chunks of about chunkAccounts accounts and
// hands each to emit, which may keep it. The mints are interleaved in
// rounds, as they would be in time, so no chunk is a single mint; the
// output depends only on the config and chunkAccounts.
func (p *Plan) Stream(ctx context.Context, chunkAccounts int, emit func(*Chunk) error) (Stats, error) {
	if chunkAccounts <= 0 {
		return Stats{}, errors.New("generator: chunk size must be positive")
	}
	st := Stats{HoldersByMint: make([]int, p.Cfg.Mints), MintsByWhale: make([]int, p.Cfg.Whales)}
	cur := make([]mintCursor, p.Cfg.Mints)
	for m := range cur {
		cur[m].rng = rand.New(rand.NewPCG(p.Cfg.Seed, mix(domMint<<56|uint64(m))))
	}
	rounds := min(64, max(1, p.Cfg.Accounts/(p.Cfg.Mints*8)))
	var seq uint64
	ch := &Chunk{}
	flush := func() error {
		if len(ch.Accounts) == 0 {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := emit(ch); err != nil {
			return err
		}
		ch = &Chunk{Accounts: make([]Account, 0, chunkAccounts+3), Holdings: make([]Holding, 0, chunkAccounts)}
		return nil
	}
	for r := 0; r < rounds; r++ {
		for m := range cur {
			c := &cur[m]
			total := p.MintAccounts[m]
			target := int(int64(total) * int64(r+1) / int64(rounds))
			for c.emitted < target {
				var owner OwnerID
				if ws := p.mintWhales[m]; c.pairs < len(ws) {
					owner = p.Whale(int(ws[c.pairs]))
					st.MintsByWhale[ws[c.pairs]]++
				} else {
					i := uint64(c.pairs - len(ws))
					owner = OwnerID((p.permA[m] + i%p.Pool*p.permB[m]) % p.Pool)
				}
				k := min(accountsInPair(c.rng), total-c.emitted)
				var bal uint64
				for a := 0; a < k; a++ {
					amt := drawAmount(c.rng)
					del := int32(-1)
					if c.rng.IntN(100) == 0 {
						del = int32(c.rng.IntN(delegates))
					}
					ch.Accounts = append(ch.Accounts, Account{Seq: seq, Mint: int32(m), Owner: owner, Amount: amt, Delegate: del})
					seq++
					bal += amt
				}
				ch.Holdings = append(ch.Holdings, Holding{Mint: int32(m), Owner: owner, Balance: bal})
				c.pairs++
				c.emitted += k
				st.HoldersByMint[m]++
				if len(ch.Accounts) >= chunkAccounts {
					if err := flush(); err != nil {
						return st, err
					}
				}
			}
		}
	}
	if err := flush(); err != nil {
		return st, err
	}
	st.Accounts = int(seq)
	for _, h := range st.HoldersByMint {
		st.Holdings += h
	}
	if seq > 0 {
		st.MaxSlot = Slot(seq - 1)
	}
	return st, nil
}

// accountsInPair: most holders have one account of a mint, some a few
// (90% one, 8% two, 2% three).
func accountsInPair(r *rand.Rand) int {
	switch u := r.IntN(100); {
	case u < 90:
		return 1
	case u < 98:
		return 2
	default:
		return 3
	}
}

// drawAmount is log-uniform over 1..10^12 base units (up to a million
// tokens at 6 decimals), with one in ten a round power of ten so that
// balances tie and pages must break ties by owner.
func drawAmount(r *rand.Rand) uint64 {
	if r.IntN(10) == 0 {
		v := uint64(1)
		for k := r.IntN(10); k > 0; k-- {
			v *= 10
		}
		return v
	}
	return uint64(math.Pow(10, r.Float64()*12))
}

func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

func key32(seed, domain, id uint64) [32]byte {
	var k [32]byte
	h := mix(seed ^ mix(domain<<56^id))
	for i := 0; i < 4; i++ {
		binary.LittleEndian.PutUint64(k[i*8:], mix(h+uint64(i)))
	}
	return k
}

func nextPrime(n uint64) uint64 {
	if n <= 2 {
		return 2
	}
	if n%2 == 0 {
		n++
	}
	for ; ; n += 2 {
		prime := true
		for d := uint64(3); d*d <= n; d += 2 {
			if n%d == 0 {
				prime = false
				break
			}
		}
		if prime {
			return n
		}
	}
}

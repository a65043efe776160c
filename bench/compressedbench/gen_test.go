package compressedbench

import (
	"context"
	"hash/fnv"
	"slices"
	"testing"
)

// streamDigest hashes everything a stream emits, to compare streams.
func streamDigest(t *testing.T, p *Plan, chunk int) (uint64, Stats) {
	t.Helper()
	h := fnv.New64a()
	st, err := p.Stream(context.Background(), chunk, func(ch *Chunk) error {
		for _, a := range ch.Accounts {
			k := p.AccountHash(a.Seq)
			o := p.OwnerKey(a.Owner)
			m := p.MintKey(int(a.Mint))
			h.Write(k[:])
			h.Write(o[:])
			h.Write(m[:])
			h.Write([]byte{byte(a.Amount), byte(a.Amount >> 8), byte(a.Amount >> 16), byte(a.Delegate)})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return h.Sum64(), st
}

func TestGeneratorDeterministic(t *testing.T) {
	p1, _ := NewPlan(GenConfig{Accounts: 20_000, Seed: 7})
	p2, _ := NewPlan(GenConfig{Accounts: 20_000, Seed: 7})
	p3, _ := NewPlan(GenConfig{Accounts: 20_000, Seed: 8})
	a, _ := streamDigest(t, p1, 1000)
	b, _ := streamDigest(t, p2, 3333) // chunking does not change the state
	c, _ := streamDigest(t, p3, 1000)
	if a != b {
		t.Fatal("same seed, different state")
	}
	if a == c {
		t.Fatal("different seeds, same state")
	}
}

// TestGeneratorDistribution checks the properties the benchmark relies on
// at the smoke-test scale.
func TestGeneratorDistribution(t *testing.T) {
	const n = 20_000
	p, err := NewPlan(GenConfig{Accounts: n, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	pairs := map[[2]uint64]uint64{}
	hashes := map[[32]byte]bool{}
	var sum uint64
	var holdingSum uint64
	st, err := p.Stream(context.Background(), 1500, func(ch *Chunk) error {
		for _, a := range ch.Accounts {
			if a.Amount < 1 || a.Amount > 1e12 {
				t.Fatalf("amount %d out of range", a.Amount)
			}
			h := p.AccountHash(a.Seq)
			if hashes[h] {
				t.Fatalf("duplicate account hash at %d", a.Seq)
			}
			hashes[h] = true
			pairs[[2]uint64{uint64(a.Mint), uint64(a.Owner)}] += a.Amount
			sum += a.Amount
		}
		for _, h := range ch.Holdings {
			k := [2]uint64{uint64(h.Mint), uint64(h.Owner)}
			if pairs[k] != h.Balance {
				t.Fatalf("holding %v balance %d, its accounts sum to %d", k, h.Balance, pairs[k])
			}
			holdingSum += h.Balance
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if st.Accounts != n || len(hashes) != n {
		t.Fatalf("%d accounts, want %d", st.Accounts, n)
	}
	// One holding per distinct (mint, owner): holders of a mint are distinct.
	if st.Holdings != len(pairs) {
		t.Fatalf("%d holdings for %d distinct (mint, owner) pairs", st.Holdings, len(pairs))
	}
	if holdingSum != sum {
		t.Fatal("holdings do not add up to the accounts")
	}
	// Skew: mint 0 is the largest with over a tenth of the accounts' holders.
	top := slices.Max(st.HoldersByMint)
	if st.HoldersByMint[0] != top || top < n/10 {
		t.Fatalf("largest mint has %d holders (mint 0: %d), want ≥ %d", top, st.HoldersByMint[0], n/10)
	}
	sorted := slices.Clone(st.HoldersByMint)
	slices.Sort(sorted)
	if median := sorted[len(sorted)/2]; top < 100*max(1, median) {
		t.Fatalf("holders not skewed: largest %d, median %d", top, median)
	}
	// Some owners hold many mints: the first whale holds every mint big
	// enough to take whales (three accounts or more).
	big := 0
	for _, a := range p.MintAccounts {
		if a >= 3 {
			big++
		}
	}
	if st.MintsByWhale[0] != big || big < p.Cfg.Mints/3 {
		t.Fatalf("the first whale holds %d mints, want %d (≥ %d)", st.MintsByWhale[0], big, p.Cfg.Mints/3)
	}
	// Ties on balance exist, so pages must order by owner too.
	bals := map[uint64]int{}
	for k, v := range pairs {
		if k[0] == 0 {
			bals[v]++
		}
	}
	ties := 0
	for _, c := range bals {
		if c > 1 {
			ties++
		}
	}
	if ties == 0 {
		t.Fatal("no balance ties in the largest mint")
	}
}

// TestGeneratorFullScale checks the default size: the largest of 2,000
// mints has over 2M holders and whales hold over 1,000 mints each.
func TestGeneratorFullScale(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 20M accounts")
	}
	p, err := NewPlan(GenConfig{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	// Counting only: Stats are what matter here.
	st, err := p.Stream(context.Background(), 1_000_000, func(*Chunk) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if st.Accounts != DefaultAccounts || st.HoldersByMint[0] < 2_000_000 {
		t.Fatalf("%d accounts, largest mint %d holders", st.Accounts, st.HoldersByMint[0])
	}
	many := 0
	for _, m := range st.MintsByWhale {
		if m >= 1000 {
			many++
		}
	}
	if many < 16 {
		t.Fatalf("%d owners hold ≥ 1,000 mints, want ≥ 16", many)
	}
	t.Logf("largest mint %d holders, %d holdings, whales: %v", st.HoldersByMint[0], st.Holdings, st.MintsByWhale[:8])
}

// TestEventsAsParsed checks the parsed events the ingest bench feeds the
// decoder carry what light.Parse gives: each output its transaction's
// signature (stored with every account row), one signature per
// transaction, and an arena reused for a second chunk leaves them whole.
func TestEventsAsParsed(t *testing.T) {
	p, err := NewPlan(GenConfig{Accounts: 2_000, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	var chunks []*Chunk
	if _, err := p.Stream(context.Background(), 1_000, func(ch *Chunk) error {
		chunks = append(chunks, ch)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	var arena eventArena
	for _, ch := range chunks {
		evs := arena.events(p, ch)
		seen := map[[64]byte]bool{}
		n := 0
		for _, ev := range evs {
			if seen[ev.Signature] {
				t.Fatalf("signature of two transactions in one chunk")
			}
			seen[ev.Signature] = true
			for _, o := range ev.Outputs {
				if o.Signature != ev.Signature {
					t.Fatalf("output %x carries signature %x, its transaction %x", o.Hash[:4], o.Signature[:4], ev.Signature[:4])
				}
				if want := p.AccountHash(ch.Accounts[n].Seq); o.Hash != want || o.Token.Amount != ch.Accounts[n].Amount {
					t.Fatalf("output %d is not the chunk's account", n)
				}
				n++
			}
		}
		if n != len(ch.Accounts) {
			t.Fatalf("%d outputs for %d accounts", n, len(ch.Accounts))
		}
	}
}

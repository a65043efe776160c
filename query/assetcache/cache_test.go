package assetcache

import (
	"strings"
	"sync"
	"testing"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/query/assetrows"
)

func id(i int) solana.Pubkey { return solana.Pubkey{byte(i), byte(i >> 8), byte(i >> 16)} }

func row(n int) assetrows.Folded {
	return assetrows.Folded{Doc: []byte(strings.Repeat("x", n)), Slot: uint64(n)}
}

func TestCache(t *testing.T) {
	if New(0) != nil || New(-1) != nil {
		t.Fatal("a cache without a budget")
	}
	c := New(1 << 20)
	if _, ok := c.Get(id(1)); ok {
		t.Fatal("hit in an empty cache")
	}
	e := c.Epoch()
	c.Put(e, id(1), row(100))
	if f, ok := c.Get(id(1)); !ok || f.Slot != 100 {
		t.Fatalf("Get after Put: %+v %v", f, ok)
	}
	// A row read before a fold and put after it is dropped.
	stale := c.Epoch()
	c.Invalidate([]solana.Pubkey{id(1)})
	if _, ok := c.Get(id(1)); ok {
		t.Error("hit after Invalidate")
	}
	c.Put(stale, id(1), row(50))
	if _, ok := c.Get(id(1)); ok {
		t.Error("a row read before the fold was kept")
	}
	c.Put(c.Epoch(), id(1), row(60))
	if f, ok := c.Get(id(1)); !ok || f.Slot != 60 {
		t.Errorf("Get after a fresh Put: %+v %v", f, ok)
	}
	// Replacing a row keeps one entry's bytes.
	c.Put(c.Epoch(), id(1), row(70))
	if st := c.Stats(); st.Entries != 1 || st.Bytes != 70+96 {
		t.Errorf("stats %+v, want one entry of 166 bytes", st)
	}
	c.Clear()
	if st := c.Stats(); st.Entries != 0 || st.Bytes != 0 {
		t.Errorf("after Clear: %+v", st)
	}
}

// The budget bounds the bytes held, evicting the oldest first.
func TestCacheBudget(t *testing.T) {
	const budget = 256 << 10
	c := New(budget)
	for i := range 20000 {
		c.Put(c.Epoch(), id(i), row(400))
	}
	st := c.Stats()
	if st.Bytes > budget || st.Entries == 0 {
		t.Fatalf("stats %+v over a budget of %d", st, budget)
	}
	if _, ok := c.Get(id(19999)); !ok {
		t.Error("the newest row was evicted")
	}
	if _, ok := c.Get(id(0)); ok {
		t.Error("the oldest row was kept")
	}
	// A row too big for its shard is not cached at all.
	c.Put(c.Epoch(), id(1<<20), row(budget))
	if _, ok := c.Get(id(1 << 20)); ok {
		t.Error("an oversized row was cached")
	}
}

// Concurrent puts, gets and invalidations (run with -race).
func TestCacheConcurrent(t *testing.T) {
	c := New(1 << 20)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 2000 {
				k := id((i * (w + 1)) % 300)
				switch i % 3 {
				case 0:
					c.Put(c.Epoch(), k, row(i%500))
				case 1:
					c.Get(k)
				default:
					c.Invalidate([]solana.Pubkey{k})
				}
			}
		}()
	}
	wg.Wait()
	if st := c.Stats(); st.Bytes < 0 || st.Bytes > 1<<20 {
		t.Errorf("stats %+v", st)
	}
}

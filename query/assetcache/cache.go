// Package assetcache holds folded asset documents in memory, within a
// byte budget, for getAsset and getAssetBatch. It is only right while
// every fold of the store tells it which assets it folded (Invalidate):
// a server that ingests in its own process, or any server of an embedded
// store, which no other process can write.
package assetcache

import (
	"sync"
	"sync/atomic"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/query/assetrows"
)

const shards = 16

// Cache maps asset ids to their folded rows. Safe for concurrent use.
type Cache struct {
	perShard int64
	// epoch grows with every Invalidate: a row read from the store before
	// a fold and put after it would be stale, so Put takes the epoch its
	// read began in and drops the row if a fold ran since.
	epoch  atomic.Uint64
	shards [shards]shard
	hits   atomic.Uint64
	misses atomic.Uint64
}

type shard struct {
	mu    sync.Mutex
	m     map[solana.Pubkey]*entry
	queue []*entry // insertion order, for eviction; may hold dropped entries
	head  int
	bytes int64
}

type entry struct {
	id    solana.Pubkey
	row   assetrows.Folded
	size  int64
	alive bool
}

// New returns a cache holding about budget bytes of documents; nil when
// budget is not positive (no cache).
func New(budget int64) *Cache {
	if budget <= 0 {
		return nil
	}
	c := &Cache{perShard: max(budget/shards, 1)}
	for i := range c.shards {
		c.shards[i].m = map[solana.Pubkey]*entry{}
	}
	return c
}

func (c *Cache) shard(id solana.Pubkey) *shard { return &c.shards[id[0]%shards] }

// Epoch is the epoch to pass to Put for rows read from now on.
func (c *Cache) Epoch() uint64 { return c.epoch.Load() }

// Get returns id's cached row.
func (c *Cache) Get(id solana.Pubkey) (assetrows.Folded, bool) {
	sh := c.shard(id)
	sh.mu.Lock()
	e, ok := sh.m[id]
	sh.mu.Unlock()
	if !ok {
		c.misses.Add(1)
		return assetrows.Folded{}, false
	}
	c.hits.Add(1)
	return e.row, true
}

// Put caches id's row, read from the store in epoch (Epoch before the
// read); it does nothing if a fold ran since.
func (c *Cache) Put(epoch uint64, id solana.Pubkey, row assetrows.Folded) {
	size := int64(len(row.Doc)+len(row.Error)+len(row.Status)) + 96
	if size > c.perShard/4 {
		return // a document that would crowd out the rest
	}
	sh := c.shard(id)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if c.epoch.Load() != epoch {
		return
	}
	if old, ok := sh.m[id]; ok {
		old.alive = false
		sh.bytes -= old.size
	}
	e := &entry{id: id, row: row, size: size, alive: true}
	sh.m[id] = e
	sh.queue = append(sh.queue, e)
	sh.bytes += size
	for sh.bytes > c.perShard && sh.head < len(sh.queue) {
		old := sh.queue[sh.head]
		sh.queue[sh.head] = nil
		sh.head++
		if old.alive {
			old.alive = false
			delete(sh.m, old.id)
			sh.bytes -= old.size
		}
	}
	// Reclaim the queue's consumed front now and then.
	if sh.head > 1024 && sh.head > len(sh.queue)/2 {
		sh.queue = append([]*entry(nil), sh.queue[sh.head:]...)
		sh.head = 0
	}
}

// Invalidate drops ids: a fold wrote them. Call it after the fold's rows
// are in the store.
func (c *Cache) Invalidate(ids []solana.Pubkey) {
	c.epoch.Add(1)
	for _, id := range ids {
		sh := c.shard(id)
		sh.mu.Lock()
		if e, ok := sh.m[id]; ok {
			e.alive = false
			delete(sh.m, id)
			sh.bytes -= e.size
		}
		sh.mu.Unlock()
	}
}

// Clear drops everything: the store was emptied or replaced.
func (c *Cache) Clear() {
	c.epoch.Add(1)
	for i := range c.shards {
		sh := &c.shards[i]
		sh.mu.Lock()
		sh.m, sh.queue, sh.head, sh.bytes = map[solana.Pubkey]*entry{}, nil, 0, 0
		sh.mu.Unlock()
	}
}

// Stats are the cache's counts.
type Stats struct {
	Entries      int
	Bytes        int64
	Hits, Misses uint64
}

// Stats returns the cache's counts now.
func (c *Cache) Stats() Stats {
	var st Stats
	for i := range c.shards {
		sh := &c.shards[i]
		sh.mu.Lock()
		st.Entries += len(sh.m)
		st.Bytes += sh.bytes
		sh.mu.Unlock()
	}
	st.Hits, st.Misses = c.hits.Load(), c.misses.Load()
	return st
}

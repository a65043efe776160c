package compressedbench

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/internal/parallel"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// DefaultPartChunks is Config.PartChunks' default: parts of 2.5M rows of
// the largest tables at the default chunk, as `dasch ingest`'s default
// part limit (arrowbatch.DefaultPartRows) makes them. A 20M-account load
// then leaves 8 parts a table, under the merge selector's base of 10
// (schema.MergeBase), where a part per chunk made 40 and merges rewrote
// 16M rows of compressed_accounts and 14M of token_accounts during the
// load.
const DefaultPartChunks = 5

// partSets writes a load's chunks into one part per table, committed
// every `every` chunks: fewer, larger parts, whose rows are rewritten by
// fewer merges, as `dasch ingest` writes them (arrowbatch.Limits'
// PartRows). A set's commit runs in the background while the next set
// takes appends. As the ingest's batcher lets them, up to
// arrowbatch.AnyOrderCommits sets commit at once when every table of the
// set is AnyOrder; otherwise the next commit waits for those in flight.
// Sets are stored, and committed told, in load order. Used from one
// goroutine.
type partSets struct {
	s        arrowstore.Store
	every    int
	par      int
	anyOrder func(table string) bool
	phase    phaseFunc
	// committed is told the last slot of each set once it is stored.
	committed func(to uint64)
	// sets counts the sets stored.
	sets int

	open   map[string]arrowstore.PartWriter
	chunks int    // chunks appended to open
	to     uint64 // the last slot of open's chunks

	// pending are the commits in flight, oldest first; err is the first
	// failed one's.
	pending []pendingSet
	err     error
}

type pendingSet struct {
	done chan error
	to   uint64
}

func newPartSets(s arrowstore.Store, every, par int, anyOrder func(table string) bool, phase phaseFunc, committed func(to uint64)) *partSets {
	return &partSets{s: s, every: max(every, 1), par: par, anyOrder: anyOrder, phase: phase, committed: committed, open: map[string]arrowstore.PartWriter{}}
}

// add appends a chunk's records, par tables at a time, and starts the
// set's commit when it holds `every` chunks. to is the chunk's last slot.
// The caller keeps and releases jobs.
func (p *partSets) add(ctx context.Context, jobs []insertJob, to uint64) error {
	if err := p.poll(); err != nil {
		return err
	}
	type appendJob struct {
		w arrowstore.PartWriter
		insertJob
	}
	todo := make([]appendJob, len(jobs))
	seen := make(map[string]bool, len(jobs))
	for i, j := range jobs {
		// A part takes one append at a time.
		if seen[j.table] {
			return fmt.Errorf("two records of %s in one chunk", j.table)
		}
		seen[j.table] = true
		w := p.open[j.table]
		if w == nil {
			var err error
			if w, err = p.s.OpenPart(ctx, j.table, j.rec.Schema()); err != nil {
				return fmt.Errorf("open part of %s: %w", j.table, err)
			}
			p.open[j.table] = w
		}
		todo[i] = appendJob{w, j}
	}
	err := parallel.Run(todo, p.par, func(_ int, j appendJob) error {
		start := time.Now()
		if err := j.w.Append(j.rec); err != nil {
			return fmt.Errorf("append to %s: %w", j.table, err)
		}
		p.phase("append "+j.table, time.Since(start))
		return nil
	})
	if err != nil {
		return err
	}
	p.chunks++
	p.to = to
	// A set due while as many commits as it may join are in flight waits
	// for the oldest (see commit; a set that kept taking chunks meanwhile,
	// up to twice its size, made the 20M ingest slower, docs/performance.md).
	if p.chunks >= p.every {
		return p.commit()
	}
	return nil
}

// commit starts committing the open set, once fewer commits than the
// set allows are in flight.
func (p *partSets) commit() error {
	limit := arrowbatch.AnyOrderCommits
	for t := range p.open {
		if !p.anyOrder(t) {
			limit = 1
		}
	}
	for len(p.pending) >= limit {
		if err := p.settleOldest(); err != nil {
			return err
		}
	}
	if len(p.open) == 0 {
		return nil
	}
	set := p.open
	p.open, p.chunks = map[string]arrowstore.PartWriter{}, 0
	ps := pendingSet{make(chan error, 1), p.to}
	p.pending = append(p.pending, ps)
	go func() { ps.done <- commitSet(set, p.phase) }()
	return nil
}

// settleOldest waits for the oldest commit in flight.
func (p *partSets) settleOldest() error {
	ps := p.pending[0]
	p.pending = p.pending[1:]
	return p.settled(<-ps.done, ps.to)
}

// commitSet commits every part of set at once and returns the first
// error.
func commitSet(set map[string]arrowstore.PartWriter, phase phaseFunc) error {
	names := make([]string, 0, len(set))
	for n := range set {
		names = append(names, n)
	}
	sort.Strings(names)
	return parallel.Run(names, len(names), func(_ int, n string) error {
		start := time.Now()
		if err := set[n].Commit(); err != nil {
			return fmt.Errorf("commit part of %s: %w", n, err)
		}
		phase("commit "+n, time.Since(start))
		return nil
	})
}

// poll takes the outcomes of finished commits, oldest first, without
// waiting: a later set is stored only once every earlier one is.
func (p *partSets) poll() error {
	for len(p.pending) > 0 {
		ps := p.pending[0]
		select {
		case err := <-ps.done:
			p.pending = p.pending[1:]
			if err := p.settled(err, ps.to); err != nil {
				return err
			}
		default:
			return nil
		}
	}
	return nil
}

// wait takes the outcomes of every commit in flight.
func (p *partSets) wait() error {
	for len(p.pending) > 0 {
		_ = p.settleOldest() // kept in p.err
	}
	return p.err
}

func (p *partSets) settled(err error, to uint64) error {
	// Sets after a failed one are not reported: the steps must not pass
	// its slots.
	if p.err != nil {
		return p.err
	}
	if err != nil {
		p.err = err
		return err
	}
	p.sets++
	if p.committed != nil {
		p.committed(to)
	}
	return nil
}

// anyOrderOf tells which of tables are AnyOrder.
func anyOrderOf(tables []arrowbatch.Table) func(string) bool {
	m := map[string]bool{}
	for _, t := range tables {
		m[t.Name] = t.AnyOrder
	}
	return func(name string) bool { return m[name] }
}

// flush commits everything appended and waits for it.
func (p *partSets) flush() error {
	if err := p.commit(); err != nil {
		return err
	}
	return p.wait()
}

// abort waits for a commit in flight and aborts the open parts: nothing
// appended since the last commit is stored.
func (p *partSets) abort() error {
	err := p.wait()
	for _, w := range p.open {
		err = errors.Join(err, w.Abort())
	}
	clear(p.open)
	return err
}

package compressed

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/dasch-labs/dasch/internal/parallel"
	"github.com/dasch-labs/dasch/store"
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
// takes appends; the next commit waits for it, so a table's parts commit
// in load order. Used from one goroutine.
type partSets struct {
	s     store.Store
	every int
	par   int
	phase phaseFunc
	// committed is told the last slot of each set once it is stored.
	committed func(to uint64)
	// sets counts the sets stored.
	sets int

	open   map[string]store.PartWriter
	chunks int    // chunks appended to open
	to     uint64 // the last slot of open's chunks

	pending   chan error // the commit in flight, if any
	pendingTo uint64
}

func newPartSets(s store.Store, every, par int, phase phaseFunc, committed func(to uint64)) *partSets {
	return &partSets{s: s, every: max(every, 1), par: par, phase: phase, committed: committed, open: map[string]store.PartWriter{}}
}

// add appends a chunk's records, par tables at a time, and starts the
// set's commit when it holds `every` chunks. to is the chunk's last slot.
// The caller keeps and releases jobs.
func (p *partSets) add(ctx context.Context, jobs []insertJob, to uint64) error {
	if err := p.poll(); err != nil {
		return err
	}
	type appendJob struct {
		w store.PartWriter
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
	// A set due while the last one commits waits for it (a set that kept
	// taking chunks meanwhile, up to twice its size, made the 20M ingest
	// slower: 84.4 s against 81.7).
	if p.chunks >= p.every {
		return p.commit()
	}
	return nil
}

// commit starts committing the open set, after the one in flight.
func (p *partSets) commit() error {
	if err := p.wait(); err != nil {
		return err
	}
	if len(p.open) == 0 {
		return nil
	}
	set := p.open
	p.open, p.chunks = map[string]store.PartWriter{}, 0
	p.pending, p.pendingTo = make(chan error, 1), p.to
	go func() { p.pending <- commitSet(set, p.phase) }()
	return nil
}

// commitSet commits every part of set at once and returns the first
// error.
func commitSet(set map[string]store.PartWriter, phase phaseFunc) error {
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

// poll takes a finished commit's outcome without waiting.
func (p *partSets) poll() error {
	if p.pending == nil {
		return nil
	}
	select {
	case err := <-p.pending:
		return p.settled(err)
	default:
		return nil
	}
}

// wait takes the commit in flight's outcome.
func (p *partSets) wait() error {
	if p.pending == nil {
		return nil
	}
	return p.settled(<-p.pending)
}

func (p *partSets) settled(err error) error {
	p.pending = nil
	if err != nil {
		return err
	}
	p.sets++
	if p.committed != nil {
		p.committed(p.pendingTo)
	}
	return nil
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

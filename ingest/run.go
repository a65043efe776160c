package ingest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/ingest/source"
)

// Run ingests everything the source yields and returns what it did. It
// writes the closing summary line to cfg.Progress.
//
// The source feeds decode workers; their outputs are taken back in source
// order, so rows reach each table in a deterministic order, and appended
// to per-table Arrow batches that are inserted in the background. The
// checkpoint follows the watermark: the highest slot whose items, and all
// items before them, are fully inserted.
//
// Cancelling ctx stops the run; inserts in flight finish, and the
// checkpoint covers exactly what was committed. The error is then ctx's.
//
// Before the checkpoint moves, the configured state steps derive their
// state for the slots it is about to cover. They run beside the inserts
// (see Stepper), each over everything committed since the previous one; a
// failing step stops the run and leaves the checkpoint where it was.
func Run(ctx context.Context, cfg Config) (Stats, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return Stats{}, err
	}
	r := &run{
		cfg:   cfg,
		work:  &worker{spec: cfg.Source.Spec(), decoders: cfg.decoders(), force: cfg.ForceSlot},
		mark:  newWatermark(),
		stats: Stats{Rows: map[string]uint64{}},
		prog:  newProgress(cfg.Progress, cfg.IsTTY, cfg.Source, cfg.ProgressEvery),
		start: time.Now(),
	}
	if r.prog != nil {
		r.prog.note = cfg.ProgressNote
	}
	r.batch, err = arrowbatch.New(cfg.Store, arrowbatch.Options{
		Tables: tables(r.work.decoders),
		Limits: cfg.limits(),
		OnInsert: func(table string, rows, _ int) {
			r.stats.Rows[table] += uint64(rows)
			if m := cfg.Metrics; m != nil {
				m.IngestRows(table, rows)
			}
		},
		OnCommit: r.mark.Done,
	})
	if err != nil {
		return Stats{}, fmt.Errorf("ingest: %w", err)
	}
	err = r.run(ctx)
	// The steps' staging goes with the run, however it ended.
	cctx, ccancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	if cerr := closeSteps(cctx, cfg.Store, cfg.Steps); cerr != nil {
		err = errors.Join(err, fmt.Errorf("ingest: %w", cerr))
	}
	ccancel()
	r.stats.Elapsed = time.Since(r.start)
	r.stats.Slot = r.written.Load()
	r.stats.Counts = counts(r.work.decoders)
	if r.cfg.Progress != nil {
		r.prog.clear()
		// A failed run prints no summary: a line of figures just before
		// the error reads as success (a full disk, for one). A follower
		// stopped by a signal sums up what it committed.
		if err == nil || errors.Is(err, context.Canceled) && ctx.Err() != nil {
			fmt.Fprintln(r.cfg.Progress, r.stats.Summary())
		}
	}
	return r.stats, err
}

// run is the state of one Run. Everything but mark is owned by the
// goroutine that consumes outputs.
type run struct {
	cfg     Config
	work    *worker
	mark    *watermark
	batch   *arrowbatch.Batcher
	stepper *Stepper
	stats   Stats
	// written is the last checkpoint written, by the stepper's goroutine
	// and read by progress; wrote tells whether any was (written may be
	// slot 0). Only the stepper writes them.
	written atomic.Uint64
	wrote   bool
	// indexed is the checkpoint when the run began, if hadIndexed: ranges
	// at or below it are logged as rewrites.
	indexed    uint64
	hadIndexed bool
	prog       *progress
	start      time.Time
}

// job is one item on its way through a worker; out is filled exactly once.
type job struct {
	item source.Item
	out  chan output
	// sealed marks the consumer's copy of a seal: every item of its slot
	// is ahead of it in the order.
	sealed bool
}

func (r *run) run(parent context.Context) error {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	var err error
	r.indexed, err = checkpoint.ContextSlot(ctx, r.cfg.Store)
	r.hadIndexed = err == nil
	if err != nil && !errors.Is(err, checkpoint.ErrNotIndexed) {
		return fmt.Errorf("ingest: %w", err)
	}
	r.stepper = StartStepper(ctx, r.cfg.Store, r.cfg.Steps, r.writeCheckpoint, cancel)
	err = r.pump(ctx, cancel)
	if err == nil {
		err = r.batch.Close(ctx)
	} else if aerr := r.batch.Abort(); aerr != nil && !errors.Is(err, aerr) {
		err = errors.Join(err, aerr)
	}
	// A step that failed halted the stepper and stopped the run: the
	// checkpoint must not move again, and the step's failure is the cause.
	if serr := r.stepper.Stop(); serr != nil {
		serr = fmt.Errorf("ingest: %w", serr)
		if err == nil || errors.Is(err, context.Canceled) && parent.Err() == nil {
			return serr
		}
		return errors.Join(err, serr)
	}
	if err == nil {
		return r.checkpoint(ctx)
	}
	// Record what did get committed; the run's context may be gone.
	cctx, ccancel := context.WithTimeout(context.WithoutCancel(parent), 10*time.Second)
	defer ccancel()
	if cerr := r.checkpoint(cctx); cerr != nil {
		err = errors.Join(err, cerr)
	}
	if perr := parent.Err(); perr != nil {
		return fmt.Errorf("ingest stopped: %w", perr)
	}
	return err
}

// pump runs the source and the workers and consumes their outputs until
// the source is exhausted or something fails; every goroutine it started
// has ended when it returns.
func (r *run) pump(ctx context.Context, cancel context.CancelFunc) error {
	n := r.cfg.Workers
	jobs := make(chan *job, 4*n)
	// order bounds how far workers may run ahead of the consumer.
	order := make(chan *job, 16*n)
	srcErr := make(chan error, 1)
	var wg sync.WaitGroup
	defer wg.Wait()
	wg.Go(func() { srcErr <- r.read(ctx, jobs, order) })
	for range n {
		wg.Go(func() {
			for j := range jobs {
				if ctx.Err() != nil {
					j.out <- output{seq: j.item.Seq}
					continue
				}
				j.out <- r.work.decode(j.item)
			}
		})
	}
	if err := r.consume(ctx, order); err != nil {
		cancel()
		return err
	}
	// order closes when the source stops, successfully or not.
	if err := <-srcErr; err != nil {
		cancel()
		return fmt.Errorf("ingest: %w", err)
	}
	return nil
}

// read runs the source, registering each item with the watermark before
// handing it to the workers and, in the same order, to the consumer.
func (r *run) read(ctx context.Context, jobs, order chan<- *job) error {
	defer close(jobs)
	defer close(order)
	err := r.cfg.Source.Read(ctx, func(it source.Item) error {
		if it.Kind == source.KindSeal {
			if r.cfg.ForceSlot != nil {
				return nil // every item is at the forced slot, which stays open
			}
			if err := r.mark.Seal(it.Slot); err != nil {
				return err
			}
			select {
			case order <- &job{item: it, sealed: true}:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		if f := r.cfg.ForceSlot; f != nil {
			it.Slot = *f
		}
		if err := r.mark.Begin(it.Seq, it.Slot); err != nil {
			return err
		}
		j := &job{item: it, out: make(chan output, 1)}
		for _, ch := range []chan<- *job{jobs, order} {
			select {
			case ch <- j:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return nil
	})
	if err == nil {
		r.mark.Finish()
	}
	return err
}

// consume takes outputs in source order into the batcher, flushes by age,
// checkpoints and draws progress, until the source is exhausted.
func (r *run) consume(ctx context.Context, order <-chan *job) error {
	// Ticks drive age flushes and redraws; a tiny age must not make it spin.
	tick := time.NewTicker(max(min(r.cfg.BatchAge/2, redrawEvery), time.Millisecond))
	defer tick.Stop()
	// idle fires when a slot was sealed with nothing after it for
	// sealIdle: a follower at the head of the chain, whose slot is sent
	// at once rather than at the batch age. A follower catching up has
	// items waiting and keeps its batches full.
	idle := time.NewTimer(time.Hour)
	idle.Stop()
	defer idle.Stop()
	for {
		select {
		case j, ok := <-order:
			if !ok {
				return nil
			}
			idle.Stop()
			if j.sealed {
				if len(order) == 0 {
					idle.Reset(sealIdle)
				}
				break
			}
			var o output
			select {
			case o = <-j.out:
			case <-ctx.Done():
				return ctx.Err()
			}
			r.count(o)
			if err := r.batch.Add(ctx, o.seq, o.rows); err != nil {
				return err
			}
		case <-idle.C:
			if err := r.batch.Flush(ctx); err != nil {
				return err
			}
		case now := <-tick.C:
			if err := r.batch.Poll(ctx); err != nil {
				return err
			}
			r.stats.Elapsed = now.Sub(r.start)
			r.prog.draw(now, r.stats, r.written.Load())
		case <-ctx.Done():
			return ctx.Err()
		}
		r.advance()
	}
}

// sealIdle is how long a sealed slot with nothing after it waits before
// its batches are sent.
const sealIdle = 5 * time.Millisecond

func (r *run) count(o output) {
	s := &r.stats
	s.Items++
	s.Bytes += uint64(o.bytes)
	s.DeadLetters += uint64(o.dead)
	if m := r.cfg.Metrics; m != nil && o.dead > 0 {
		m.DeadLetters(o.dead)
	}
	if !o.decoded {
		return
	}
	switch o.kind {
	case source.KindTx:
		s.Txs++
	case source.KindAccount:
		s.Accounts++
	case source.KindBlock:
		s.Blocks++
	}
}

// advance hands the watermark to the stepper, which derives the state of
// the slots it newly covers and then writes the checkpoint.
func (r *run) advance() {
	if slot, ok := r.mark.Complete(); ok {
		r.stepper.Advance(r.mark.First(), slot)
	}
}

// checkpoint steps and checkpoints, in the caller's goroutine, what the
// stepper has not: for the end of a run, after the stepper stopped.
func (r *run) checkpoint(ctx context.Context) error {
	r.advance()
	if err := r.stepper.CatchUp(ctx); err != nil {
		return fmt.Errorf("ingest: %w", err)
	}
	return nil
}

// writeCheckpoint writes the checkpoint at slot, the end of a range the
// steps derived, when it moved. A range starting at or below the
// checkpoint the run began from is logged as a rewrite first: the
// checkpoint does not move back for it, and readers following the store
// by slot re-read that part of it.
func (r *run) writeCheckpoint(ctx context.Context, from, slot uint64, stepped bool) error {
	if stepped && r.hadIndexed && from <= r.indexed {
		if err := checkpoint.WriteRewrite(ctx, r.cfg.Store, from, min(slot, r.indexed)); err != nil {
			return err
		}
	}
	// Slot 0 is checkpointed only when forced: otherwise it is where
	// unreadable input without a slot lands, not an indexed slot.
	if slot <= r.written.Load() && (r.wrote || r.cfg.ForceSlot == nil) {
		return nil
	}
	var err error
	if r.cfg.Run != "" {
		err = checkpoint.WriteRun(ctx, r.cfg.Store, r.cfg.Run, slot)
	} else {
		err = checkpoint.Write(ctx, r.cfg.Store, slot)
	}
	if err != nil {
		return err
	}
	r.written.Store(slot)
	r.wrote = true
	return nil
}

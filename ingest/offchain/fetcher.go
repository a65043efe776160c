package offchain

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strconv"
	"sync"
	"time"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest/assetstate"
	"github.com/dasch-labs/dasch/query/assetrows"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// Config is a Fetcher's setup. Store, Client and Refold are required.
type Config struct {
	Store  arrowstore.Writer
	Client *Client
	// Refold folds again the assets naming the URIs of keys
	// (assetdocs.URIKey): assetstate.FoldStep.RefoldURIs.
	Refold func(ctx context.Context, keys []solana.Pubkey) (int, error)
	// Concurrency is how many fetches run at once (default 64).
	Concurrency int
	// MaxAttempts is how many times a URI failing in a way that may pass
	// (timeouts, 429, 5xx) is tried before it is failed (default 5).
	MaxAttempts int
	// Backoff is the wait before the first retry, doubled each time up
	// to MaxBackoff (defaults 2 s and 1 h).
	Backoff, MaxBackoff time.Duration
	// Refresh, when positive, queues again documents fetched longer ago,
	// and failures given up on longer ago.
	Refresh time.Duration
	// Poll is how often an idle fetcher looks for due URIs (default 1 s).
	Poll time.Duration
	// FlushEvery and FlushRows bound how long and how many outcomes are
	// held before they are written (defaults 250 ms and 256).
	FlushEvery time.Duration
	FlushRows  int
	Logger     *slog.Logger
	// Stats, when set, is kept up to date; else the fetcher keeps its own.
	Stats *Stats
}

// Fetcher fetches the documents asset_metadata queues.
type Fetcher struct {
	cfg   Config
	stats *Stats

	mu   sync.Mutex
	last uint64 // the newest version written
}

// New returns a fetcher of cfg, its zero members set to the defaults.
func New(cfg Config) (*Fetcher, error) {
	if cfg.Store == nil || cfg.Client == nil || cfg.Refold == nil {
		return nil, errors.New("metadata fetcher: store, client and refold are required")
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = 64
	}
	if cfg.MaxAttempts <= 0 {
		cfg.MaxAttempts = 5
	}
	if cfg.Backoff <= 0 {
		cfg.Backoff = 2 * time.Second
	}
	if cfg.MaxBackoff <= 0 {
		cfg.MaxBackoff = time.Hour
	}
	if cfg.Poll <= 0 {
		cfg.Poll = time.Second
	}
	if cfg.FlushEvery <= 0 {
		cfg.FlushEvery = 250 * time.Millisecond
	}
	if cfg.FlushRows <= 0 {
		cfg.FlushRows = 256
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	st := cfg.Stats
	if st == nil {
		st = &Stats{}
	}
	return &Fetcher{cfg: cfg, stats: st}, nil
}

// Stats are the fetcher's figures.
func (f *Fetcher) Stats() *Stats { return f.stats }

// Run fetches due URIs until ctx ends, then writes what it fetched and
// returns nil; an error is a store failure.
func (f *Fetcher) Run(ctx context.Context) error {
	err := f.run(ctx, false, 0)
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// Drain fetches until no URI is due within wait (retries due later are
// left for a later run), or ctx ends.
func (f *Fetcher) Drain(ctx context.Context, wait time.Duration) error {
	return f.run(ctx, true, wait)
}

type job struct {
	key      solana.Pubkey
	uri      string
	attempts uint32
}

type result struct {
	job
	out Outcome
}

// maxPendingBytes bounds the documents held before they are written.
const maxPendingBytes = 8 << 20

func (f *Fetcher) run(ctx context.Context, drain bool, wait time.Duration) error {
	if err := f.recoverFetched(ctx); err != nil {
		return err
	}
	if err := f.refresh(ctx); err != nil {
		return err
	}
	wctx, stop := context.WithCancel(ctx)
	jobs := make(chan job)
	results := make(chan result, f.cfg.Concurrency)
	var wg sync.WaitGroup
	for range f.cfg.Concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				f.stats.InFlight.Add(1)
				out, err := f.cfg.Client.Fetch(wctx, j.uri)
				f.stats.InFlight.Add(-1)
				if err != nil {
					continue // ctx ended: the URI stays queued
				}
				select {
				case results <- result{j, out}:
				case <-wctx.Done():
					return
				}
			}
		}()
	}
	// Outcomes are written by a writer of their own, a batch at a time,
	// so fetches go on while a batch is written and its assets refolded.
	// Its context outlives ctx by a bound: what was fetched must not be
	// fetched again, so a stop writes what is held first.
	wrctx, wrcancel := context.WithCancel(context.WithoutCancel(ctx))
	defer wrcancel()
	stopWrites := context.AfterFunc(ctx, func() { time.AfterFunc(30*time.Second, wrcancel) })
	defer stopWrites()
	toWrite := make(chan []result)
	written := make(chan error, 1)
	go func() {
		for batch := range toWrite {
			written <- f.flush(wrctx, batch)
		}
	}()
	var pending, writing []result
	defer func() {
		close(jobs)
		stop()
		wg.Wait()
		close(results)
		for r := range results {
			pending = append(pending, r)
		}
		if writing != nil {
			if err := <-written; err != nil {
				f.cfg.Logger.Error("metadata fetcher: write outcomes on stop", "err", err)
			}
		}
		close(toWrite)
		if len(pending) > 0 {
			if err := f.flush(wrctx, pending); err != nil {
				f.cfg.Logger.Error("metadata fetcher: write outcomes on stop", "err", err)
			}
		}
	}()
	inflight := map[solana.Pubkey]bool{}
	var backlog []job
	pendingBytes := 0
	lastFlush, nextPoll, nextCount, nextRefresh := time.Now(), time.Time{}, time.Time{}, time.Now().Add(time.Minute)
	tick := time.NewTicker(min(f.cfg.FlushEvery, f.cfg.Poll, 50*time.Millisecond))
	defer tick.Stop()
	for {
		now := time.Now()
		if now.After(nextCount) {
			f.count(ctx)
			nextCount = now.Add(5 * time.Second)
		}
		if f.cfg.Refresh > 0 && now.After(nextRefresh) {
			if err := f.refresh(ctx); err != nil {
				return err
			}
			nextRefresh = now.Add(time.Minute)
		}
		room := 2*f.cfg.Concurrency - len(inflight)
		if room > 0 && !now.Before(nextPoll) {
			claimed, err := f.claim(ctx, room, inflight)
			if err != nil {
				return err
			}
			for _, j := range claimed {
				inflight[j.key] = true
			}
			backlog = append(backlog, claimed...)
			if len(claimed) < room {
				nextPoll = now.Add(f.cfg.Poll)
				if drain && len(inflight) == 0 {
					due, ok, err := f.nextDue(ctx)
					if err != nil {
						return err
					}
					if !ok || time.Until(due) > wait {
						f.count(ctx)
						return nil
					}
					nextPoll = due
				}
			}
		}
		var send chan job
		var next job
		if len(backlog) > 0 {
			send, next = jobs, backlog[0]
		}
		// Past the bytes bound, outcomes wait in the workers until the
		// writer takes what is held.
		recv := results
		if pendingBytes >= maxPendingBytes {
			recv = nil
		}
		select {
		case send <- next:
			backlog = backlog[1:]
		case r := <-recv:
			pending = append(pending, r)
			pendingBytes += len(r.out.Doc)
		case err := <-written:
			if err != nil {
				writing = nil
				return err
			}
			for _, r := range writing {
				delete(inflight, r.key)
			}
			writing = nil
			// What was written frees room: look again now.
			nextPoll = time.Time{}
		case <-tick.C:
		case <-ctx.Done():
			return ctx.Err()
		}
		if writing == nil && len(pending) > 0 && (len(pending) >= f.cfg.FlushRows || pendingBytes >= maxPendingBytes ||
			time.Since(lastFlush) >= f.cfg.FlushEvery || len(inflight) == len(pending)) {
			writing, pending = pending, nil
			toWrite <- writing
			pendingBytes, lastFlush = 0, time.Now()
		}
	}
}

// version is the next row version: the time, never below the last.
func (f *Fetcher) version() uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	v := uint64(time.Now().UnixNano())
	if v <= f.last {
		v = f.last + 1
	}
	f.last = v
	return v
}

// claim returns up to n due URIs, the longest due first, leaving out
// those in flight.
func (f *Fetcher) claim(ctx context.Context, n int, inflight map[solana.Pubkey]bool) ([]job, error) {
	p := store.Params{"now": strconv.FormatInt(time.Now().UnixMilli(), 10),
		"queued": schema.MetadataQueued, "retry": schema.MetadataRetry}
	skip := ""
	if len(inflight) > 0 {
		keys := make([]solana.Pubkey, 0, len(inflight))
		for k := range inflight {
			keys = append(keys, k)
		}
		cond, kp := assetrows.KeyIn("hash", keys)
		for k, v := range kp {
			p[k] = v
		}
		skip = " AND NOT " + cond
	}
	res, err := f.cfg.Store.Query(ctx, `SELECT hash, uri, toUInt64(attempts) FROM `+schema.TableAssetMetadata+` FINAL
		WHERE status IN ({queued:String}, {retry:String}) AND next_at <= {now:UInt64}`+skip+`
		ORDER BY next_at, hash LIMIT `+strconv.Itoa(n), p)
	if err != nil {
		return nil, fmt.Errorf("metadata fetcher: find due URIs: %w", err)
	}
	out := make([]job, 0, len(res.Rows))
	for i := range res.Rows {
		r := res.Row(i)
		j := job{key: solana.Pubkey(r.Key(0)), uri: r.Str(1), attempts: uint32(r.U64(2))}
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("metadata fetcher: find due URIs: %w", err)
		}
		out = append(out, j)
	}
	return out, nil
}

// nextDue is when the next URI waiting is due, if any waits.
func (f *Fetcher) nextDue(ctx context.Context) (time.Time, bool, error) {
	res, err := f.cfg.Store.Query(ctx, `SELECT count(), min(next_at) FROM `+schema.TableAssetMetadata+` FINAL
		WHERE status IN ({queued:String}, {retry:String})`,
		store.Params{"queued": schema.MetadataQueued, "retry": schema.MetadataRetry})
	if err != nil {
		return time.Time{}, false, fmt.Errorf("metadata fetcher: next due URI: %w", err)
	}
	r := res.Row(0)
	n, at := r.U64(0), r.U64(1)
	if err := r.Err(); err != nil || n == 0 {
		return time.Time{}, false, err
	}
	return time.UnixMilli(int64(at)), true, nil
}

// count refreshes the queue depth and lag; a failure leaves the last.
func (f *Fetcher) count(ctx context.Context) {
	res, err := f.cfg.Store.Query(ctx, `SELECT count(), min(updated_at) FROM `+schema.TableAssetMetadata+` FINAL
		WHERE status IN ({queued:String}, {retry:String})`,
		store.Params{"queued": schema.MetadataQueued, "retry": schema.MetadataRetry})
	if err != nil {
		return
	}
	r := res.Row(0)
	n, oldest := r.U64(0), r.U64(1)
	if r.Err() != nil {
		return
	}
	f.stats.Queued.Store(n)
	var lag time.Duration
	if n > 0 && oldest > 0 {
		lag = max(time.Since(time.UnixMilli(int64(oldest))), 0)
	}
	f.stats.lag.Store(int64(lag))
}

// flush writes outcomes: the documents first, then the states (fetched,
// retry or failed), then folds the assets naming the fetched URIs again
// and marks those ok. Cut short after the states, the next run folds
// the fetched ones (recoverFetched); before them, the URIs are fetched
// again.
func (f *Fetcher) flush(ctx context.Context, rs []result) error {
	now := time.Now()
	ms := uint64(now.UnixMilli())
	var docs []assetstate.MetadataDocRow
	states := make([]assetstate.MetadataRow, 0, len(rs))
	var fetched []solana.Pubkey
	for _, r := range rs {
		row := assetstate.MetadataRow{Key: r.key, URI: r.uri, Attempts: r.attempts + 1,
			HTTPStatus: uint16(r.out.HTTPStatus), UpdatedAt: ms, Reason: r.out.Reason}
		switch r.out.Kind {
		case outcomeOK:
			v := f.version()
			docs = append(docs, assetstate.MetadataDocRow{Key: r.key, URI: r.uri, Doc: r.out.Doc,
				ContentType: r.out.ContentType, FetchedAt: ms, Version: v})
			row.Status, row.FetchedAt, row.Reason = schema.MetadataFetched, ms, ""
			fetched = append(fetched, r.key)
		case outcomeRetry:
			if int(row.Attempts) >= f.cfg.MaxAttempts {
				row.Status = schema.MetadataFailed
				break
			}
			row.Status = schema.MetadataRetry
			wait := f.backoff(row.Attempts)
			if r.out.RetryAfter > wait {
				wait = min(r.out.RetryAfter, f.cfg.MaxBackoff)
			}
			row.NextAt = uint64(now.Add(wait).UnixMilli())
		default:
			row.Status = schema.MetadataFailed
		}
		states = append(states, row)
	}
	if err := assetstate.WriteMetadataDocs(ctx, f.cfg.Store, docs); err != nil {
		return fmt.Errorf("metadata fetcher: %w", err)
	}
	for i := range states {
		states[i].Version = f.version()
	}
	if err := assetstate.WriteMetadata(ctx, f.cfg.Store, states); err != nil {
		return fmt.Errorf("metadata fetcher: %w", err)
	}
	for _, s := range states {
		switch s.Status {
		case schema.MetadataFetched:
			f.stats.Fetched.Add(1)
		case schema.MetadataRetry:
			f.stats.Retried.Add(1)
		case schema.MetadataFailed:
			f.stats.fail(s.Reason)
		}
	}
	for _, d := range docs {
		f.stats.Bytes.Add(uint64(len(d.Doc)))
	}
	return f.fold(ctx, fetched)
}

// backoff is the wait before attempt+1: Backoff doubled per attempt made,
// at most MaxBackoff, give or take a fifth so retries spread out.
func (f *Fetcher) backoff(attempts uint32) time.Duration {
	d := f.cfg.Backoff
	for i := uint32(1); i < attempts && d < f.cfg.MaxBackoff; i++ {
		d *= 2
	}
	d = min(d, f.cfg.MaxBackoff)
	return d - d/5 + time.Duration(rand.Int64N(int64(d/5)*2+1))
}

// fold folds the assets naming keys again and marks their rows ok.
func (f *Fetcher) fold(ctx context.Context, keys []solana.Pubkey) error {
	if len(keys) == 0 {
		return nil
	}
	n, err := f.cfg.Refold(ctx, keys)
	if err != nil {
		return fmt.Errorf("metadata fetcher: fold assets with their documents: %w", err)
	}
	f.stats.Refolded.Add(uint64(n))
	cond, p := assetrows.KeyIn("hash", keys)
	p["fetched"], p["ok"] = schema.MetadataFetched, schema.MetadataOK
	p["now"] = strconv.FormatInt(time.Now().UnixMilli(), 10)
	p["v"] = strconv.FormatUint(f.version(), 10)
	err = f.cfg.Store.Exec(ctx, `INSERT INTO `+schema.TableAssetMetadata+`
		(hash, uri, status, reason, attempts, http_status, next_at, fetched_at, updated_at, version)
		SELECT hash, uri, {ok:String}, reason, attempts, http_status, next_at, fetched_at, {now:UInt64}, {v:UInt64}
		FROM `+schema.TableAssetMetadata+` FINAL WHERE status = {fetched:String} AND `+cond, p)
	if err != nil {
		return fmt.Errorf("metadata fetcher: mark documents folded: %w", err)
	}
	return nil
}

// recoverFetched folds the URIs a run stopped before folding.
func (f *Fetcher) recoverFetched(ctx context.Context) error {
	for {
		res, err := f.cfg.Store.Query(ctx, `SELECT hash FROM `+schema.TableAssetMetadata+` FINAL
			WHERE status = {fetched:String} LIMIT 1000`, store.Params{"fetched": schema.MetadataFetched})
		if err != nil {
			return fmt.Errorf("metadata fetcher: find documents not folded: %w", err)
		}
		if len(res.Rows) == 0 {
			return nil
		}
		keys := make([]solana.Pubkey, 0, len(res.Rows))
		for i := range res.Rows {
			r := res.Row(i)
			k := solana.Pubkey(r.Key(0))
			if err := r.Err(); err != nil {
				return fmt.Errorf("metadata fetcher: find documents not folded: %w", err)
			}
			keys = append(keys, k)
		}
		if err := f.fold(ctx, keys); err != nil {
			return err
		}
	}
}

// refresh queues again the documents fetched, and the failures given up
// on, longer than Refresh ago. The stored document is served until a
// new one replaces it.
func (f *Fetcher) refresh(ctx context.Context) error {
	if f.cfg.Refresh <= 0 {
		return nil
	}
	now := time.Now()
	p := store.Params{
		"cutoff": strconv.FormatInt(now.Add(-f.cfg.Refresh).UnixMilli(), 10),
		"now":    strconv.FormatInt(now.UnixMilli(), 10),
		"v":      strconv.FormatUint(f.version(), 10),
		"ok":     schema.MetadataOK, "failed": schema.MetadataFailed, "queued": schema.MetadataQueued,
	}
	err := f.cfg.Store.Exec(ctx, `INSERT INTO `+schema.TableAssetMetadata+`
		(hash, uri, status, reason, attempts, http_status, next_at, fetched_at, updated_at, version)
		SELECT hash, uri, {queued:String}, '', 0, http_status, 0, fetched_at, {now:UInt64}, {v:UInt64}
		FROM `+schema.TableAssetMetadata+` FINAL
		WHERE (status = {ok:String} AND fetched_at < {cutoff:UInt64})
			OR (status = {failed:String} AND updated_at < {cutoff:UInt64})`, p)
	if err != nil {
		return fmt.Errorf("metadata fetcher: queue documents to refresh: %w", err)
	}
	return nil
}

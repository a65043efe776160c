// Package metrics is the process's Prometheus metrics, served in the text
// format on the admin listener's /metrics: requests and their latency per
// method and status, rate-limited requests, the request log, the indexed
// slot and its lag, ingest and store figures and cache hit rates. One
// Registry is made by serve and handed to what reports into it; there is
// no global registry.
package metrics

import (
	"context"
	"io"
	"strconv"
	"sync"
	"time"

	vm "github.com/VictoriaMetrics/metrics"
)

// Registry holds the metrics. Its methods are safe for concurrent use
// and cheap: a metric's series is made once and found again by a map
// lookup.
type Registry struct {
	set *vm.Set

	calls   sync.Map // callKey → *call
	limited sync.Map // string → *vm.Counter
	rows    sync.Map // string → *vm.Counter
	queries sync.Map // string → *vm.PrometheusHistogram
	hits    sync.Map // hitKey → *vm.Counter

	deadLetters *vm.Counter
	logInsert   *vm.PrometheusHistogram
}

// New returns an empty registry.
func New() *Registry {
	s := vm.NewSet()
	return &Registry{
		set:         s,
		deadLetters: s.NewCounter(`dasch_ingest_dead_letters_total`),
		logInsert:   s.NewPrometheusHistogramExt(`dasch_request_log_insert_seconds`, storeBuckets),
	}
}

// Latency buckets: from a memory answer to a slow listing.
var (
	requestBuckets = []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}
	storeBuckets   = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}
)

type callKey struct {
	method string
	status int
}

type call struct {
	n   *vm.Counter
	lat *vm.PrometheusHistogram
}

// Request counts one request of method answered with HTTP status after
// latency. Method should be one the server serves (or empty), so its
// series stay few.
func (r *Registry) Request(method string, status int, latency time.Duration) {
	k := callKey{method, status}
	v, ok := r.calls.Load(k)
	if !ok {
		labels := `{method="` + label(method) + `",status="` + strconv.Itoa(status) + `"}`
		v, _ = r.calls.LoadOrStore(k, &call{
			n:   r.set.GetOrCreateCounter(`dasch_requests_total` + labels),
			lat: r.set.GetOrCreatePrometheusHistogramExt(`dasch_request_duration_seconds`+labels, requestBuckets),
		})
	}
	c := v.(*call)
	c.n.Inc()
	c.lat.Update(latency.Seconds())
}

// RateLimited counts a request refused by a rate limit of class.
func (r *Registry) RateLimited(class string) {
	counter(r, &r.limited, class, `dasch_rate_limited_total{class="`+label(class)+`"}`).Inc()
}

// IngestRows counts rows written to table by ingest: the rows/s per
// table is its rate. It is the hook the ingest side reports through.
func (r *Registry) IngestRows(table string, n int) {
	counter(r, &r.rows, table, `dasch_ingest_rows_total{table="`+label(table)+`"}`).Add(n)
}

// DeadLetters counts inputs ingest sent to dead_letters: the hook the
// ingest side reports through.
func (r *Registry) DeadLetters(n int) { r.deadLetters.Add(n) }

// StoreQuery records one store statement of kind (query, raw, exec).
func (r *Registry) StoreQuery(kind string, took time.Duration) {
	v, ok := r.queries.Load(kind)
	if !ok {
		v, _ = r.queries.LoadOrStore(kind, r.set.GetOrCreatePrometheusHistogramExt(
			`dasch_store_query_seconds{kind="`+label(kind)+`"}`, storeBuckets))
	}
	v.(*vm.PrometheusHistogram).Update(took.Seconds())
}

type hitKey struct {
	cache string
	hit   bool
}

// CacheLookup counts one lookup in cache, a hit or a miss: the hit rate
// is hits over both.
func (r *Registry) CacheLookup(cache string, hit bool) {
	res := "miss"
	if hit {
		res = "hit"
	}
	counter(r, &r.hits, hitKey{cache, hit}, `dasch_cache_lookups_total{cache="`+label(cache)+`",result="`+res+`"}`).Inc()
}

// CacheCounts reports a cache's hits and misses so far by reading them
// at each scrape, for caches that count for themselves.
func (r *Registry) CacheCounts(cache string, counts func() (hits, misses uint64)) {
	c := label(cache)
	r.set.NewGauge(`dasch_cache_lookups_total{cache="`+c+`",result="hit"}`, func() float64 { h, _ := counts(); return float64(h) })
	r.set.NewGauge(`dasch_cache_lookups_total{cache="`+c+`",result="miss"}`, func() float64 { _, m := counts(); return float64(m) })
}

// RequestLogInsert records one insert of the request log.
func (r *Registry) RequestLogInsert(rows int, took time.Duration, err error) {
	r.logInsert.Update(took.Seconds())
}

// RequestLog reports the request log's counters at each scrape: rows
// written, dropped (no room in the buffer), lost (every insert attempt
// failed) and waiting.
func (r *Registry) RequestLog(stats func() (written, dropped, lost uint64, buffered int)) {
	r.set.NewGauge(`dasch_request_log_written_total`, func() float64 { w, _, _, _ := stats(); return float64(w) })
	r.set.NewGauge(`dasch_request_log_dropped_total`, func() float64 { _, d, _, _ := stats(); return float64(d) })
	r.set.NewGauge(`dasch_request_log_lost_total`, func() float64 { _, _, l, _ := stats(); return float64(l) })
	r.set.NewGauge(`dasch_request_log_buffered`, func() float64 { _, _, _, b := stats(); return float64(b) })
}

// Lines adds what write writes at each scrape, in the text format, for
// metrics read together (one query for the rows of every table); write
// has a deadline of a few seconds.
func (r *Registry) Lines(write func(ctx context.Context, w io.Writer)) {
	r.set.RegisterMetricsWriter(func(w io.Writer) {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		write(ctx, w)
	})
}

// Gauge reports f's value at each scrape under name (with its labels),
// f being asked with a deadline of a few seconds; a failed f reports
// NaN.
func (r *Registry) Gauge(name string, f func(ctx context.Context) (float64, error)) {
	r.set.NewGauge(name, func() float64 {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		v, err := f(ctx)
		if err != nil {
			return nan
		}
		return v
	})
}

// WritePrometheus writes every metric in the Prometheus text format.
func (r *Registry) WritePrometheus(w io.Writer) { r.set.WritePrometheus(w) }

func counter[K comparable](r *Registry, m *sync.Map, k K, name string) *vm.Counter {
	if v, ok := m.Load(k); ok {
		return v.(*vm.Counter)
	}
	v, _ := m.LoadOrStore(k, r.set.GetOrCreateCounter(name))
	return v.(*vm.Counter)
}

// label escapes a label value.
func label(v string) string {
	q := strconv.Quote(v)
	return q[1 : len(q)-1]
}

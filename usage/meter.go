// Package usage meters the API: it prices and rations every call by the
// project's plan (billing), writes every request to the request log
// (reqlog) and the metrics, and computes a project's usage record from
// the request log for the admin endpoint.
package usage

import (
	"math"
	"slices"
	"sync"
	"time"

	"github.com/dasch-labs/dasch/billing"
	"github.com/dasch-labs/dasch/internal/tokenbucket"
	"github.com/dasch-labs/dasch/metrics"
	"github.com/dasch-labs/dasch/reqlog"
	"github.com/dasch-labs/dasch/server"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// Errors of a refused call, as the specification gives them: the
// compressed-state methods and getIndexerSlot answer -32005, DAS -32029,
// both with HTTP 429; a key without access to DAS is -32003 Forbidden.
var (
	errTooManyPhoton = jsonrpc.NewError(-32005, "Too many requests").WithStatus(429)
	errTooMany       = jsonrpc.TooManyRequests("Too many requests").WithStatus(429)
	errForbiddenDAS  = jsonrpc.NewError(-32003, "Forbidden").WithStatus(403)
	// -32003 is the gateway timeout of the compressed-state methods, so
	// their refusal takes the code of a key that does not authorise.
	errForbidden = jsonrpc.Unauthorized("Forbidden: this api-key has no access to this service").WithStatus(403)
)

// Options configure a Meter.
type Options struct {
	Config *billing.Config
	// Log, when set, receives a row per request.
	Log *reqlog.Log
	// Metrics, when set, counts every request.
	Metrics *metrics.Registry
	// Limits enforces the plans' rate limits.
	Limits bool
}

// Meter implements server.Meter.
type Meter struct {
	o     Options
	lim   *limiter
	admin *window
}

// NewMeter returns a meter; o.Config is required.
func NewMeter(o Options) *Meter {
	if o.Config == nil {
		panic("usage: NewMeter without a billing config")
	}
	return &Meter{o: o, lim: newLimiter(), admin: &window{seen: map[string][]time.Time{}}}
}

// Admit implements server.Meter: the key must have access to the
// method's service class, and the project be within its plan's limit
// for the class.
func (m *Meter) Admit(k *server.Key, method string, now time.Time) *jsonrpc.Error {
	svc, _ := m.o.Config.PriceOf(method)
	class := billing.ClassOf(svc)
	if len(k.Services) > 0 && !slices.Contains(k.Services, string(class)) {
		if class == billing.ClassDAS {
			return errForbiddenDAS
		}
		return errForbidden
	}
	if !m.o.Limits {
		return nil
	}
	plan, _ := m.o.Config.PlanOf(k.Plan)
	rate := plan.RateLimits[class]
	if rate <= 0 || m.lim.allow(k.ProjectID, class, rate, now) {
		return nil
	}
	if m.o.Metrics != nil {
		m.o.Metrics.RateLimited(string(class))
	}
	if class == billing.ClassPhoton {
		return errTooManyPhoton
	}
	return errTooMany
}

// AdmitAdmin is Admit for the administration service: at most
// AdminPerSecond requests per project in any second, whatever the plan.
func (m *Meter) AdmitAdmin(project string, now time.Time) bool {
	rate := m.o.Config.AdminPerSecond
	if rate <= 0 || m.admin.allow(project, int(math.Ceil(rate)), now) {
		return true
	}
	if m.o.Metrics != nil {
		m.o.Metrics.RateLimited(string(billing.ClassAdmin))
	}
	return false
}

// Billed tells whether a request is charged: it ran and did not fail on
// the server's side (a 5xx answer, the store down, a timeout).
func Billed(ran bool, status int) bool { return ran && status < 500 }

// Record implements server.Meter.
func (m *Meter) Record(e *server.Entry) {
	r := reqlog.Row{At: e.At, Method: e.Method, HTTPStatus: uint16(e.HTTPStatus), RPCCode: int32(e.Code),
		RequestBytes: clip32(e.RequestBytes), ResponseBytes: clip32(e.ResponseBytes), BatchSize: uint16(min(e.BatchSize, 1<<16-1)),
		Latency: e.Latency}
	if e.HasSlot {
		r.ContextSlot = e.Slot
	}
	if e.Key != nil {
		r.ProjectID, r.KeyID = e.Key.ProjectID, e.Key.ID
	}
	if e.Method != "" {
		svc, price := m.o.Config.PriceOf(e.Method)
		r.Service = string(svc)
		if Billed(e.Ran, e.HTTPStatus) {
			r.Billed, r.CreditsMicro = true, price
		}
	}
	m.add(r)
}

// RecordAdmin records a request to the administration service.
func (m *Meter) RecordAdmin(r reqlog.Row) {
	r.Service = string(billing.ClassAdmin)
	m.add(r)
}

func (m *Meter) add(r reqlog.Row) {
	if m.o.Log != nil {
		m.o.Log.Add(r)
	}
	if m.o.Metrics != nil {
		m.o.Metrics.Request(r.Method, int(r.HTTPStatus), r.Latency)
	}
}

func clip32(n int) uint32 { return uint32(min(max(n, 0), 1<<32-1)) }

// limiter is a token bucket per project and class, at the rate of the
// project's plan when the bucket was made (a plan change makes a new
// one). A bucket holds one second of requests: the sixth request in a
// second at 5 per second is refused.
type limiter struct {
	mu      sync.Mutex
	buckets map[limitKey]*bucket
}

type limitKey struct {
	project string
	class   billing.Class
}

type bucket struct {
	rate float64
	b    tokenbucket.Bucket
}

// pruneAbove bounds memory: past this many buckets, full ones go.
const pruneAbove = 10000

func newLimiter() *limiter { return &limiter{buckets: map[limitKey]*bucket{}} }

func (l *limiter) allow(project string, class billing.Class, rate float64, now time.Time) bool {
	k := limitKey{project, class}
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.buckets[k]
	if !ok || b.rate != rate {
		if len(l.buckets) >= pruneAbove {
			for key, v := range l.buckets {
				if v.b.Full(now) {
					delete(l.buckets, key)
				}
			}
		}
		burst := max(1, rate)
		b = &bucket{rate: rate, b: tokenbucket.New(rate, burst, now)}
		l.buckets[k] = b
	}
	return b.b.Take(now)
}

// window allows n requests per key in any one second: it keeps the times
// of the last n, and a request is refused while the oldest of them is
// less than a second old. The administration service is rationed so, as
// requests that each take a while would let a token bucket refill.
type window struct {
	mu   sync.Mutex
	seen map[string][]time.Time
}

func (w *window) allow(key string, n int, now time.Time) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	times := w.seen[key]
	if len(times) >= n && now.Sub(times[len(times)-n]) < time.Second {
		return false
	}
	if len(w.seen) >= pruneAbove {
		for k, ts := range w.seen {
			if now.Sub(ts[len(ts)-1]) >= time.Second {
				delete(w.seen, k)
			}
		}
	}
	if len(times) >= n {
		times = append(times[:0], times[len(times)-n+1:]...)
	}
	w.seen[key] = append(times, now)
	return true
}

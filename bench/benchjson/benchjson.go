// Package benchjson is the machine-readable record of one benchmark run:
// one JSON object per run with a stable schema (docs/performance.md,
// "Bench JSON"), so runs can be compared by a script.
package benchjson

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/goccy/go-json"
)

// Version is the schema version; it changes only when a field changes
// meaning or is removed.
const Version = 1

// Run is one run of a suite.
type Run struct {
	Schema  int       `json:"schema"`
	Suite   string    `json:"suite"`
	Started time.Time `json:"started"`
	// ElapsedS is the run's wall time in seconds.
	ElapsedS float64 `json:"elapsed_s"`
	CPUs     int     `json:"cpus"`
	// LoadAvg is the 1-minute load average when the run started.
	LoadAvg string `json:"load_avg"`
	// Params are the run's sizes and flags.
	Params map[string]any `json:"params"`
	// Series are the measured request streams, in the table's order.
	Series []Series `json:"series"`
	// Figures are the run's other measurements (rates, times in seconds,
	// sizes in bytes, ratios), by name.
	Figures map[string]float64 `json:"figures"`
	// Counts are what the run generated, loaded or measured, by name.
	Counts map[string]int64 `json:"counts"`
	// Memory is resident memory, by process: "bench" (this process, with
	// the embedded store in it), "postgres" (the reference server and its
	// backends), "serve" (a `dasch serve` the suite started).
	Memory map[string]Memory `json:"memory"`
}

// Series is one measured request stream.
type Series struct {
	Name    string  `json:"name"`
	N       int     `json:"n"`
	Clients int     `json:"clients"`
	P50MS   float64 `json:"p50_ms"`
	P99MS   float64 `json:"p99_ms"`
	// ReqPerS is the stream's throughput; null where it has none.
	ReqPerS *float64 `json:"req_per_s"`
}

// Memory is a process's resident set now and at its peak, in bytes.
type Memory struct {
	RSSBytes int64 `json:"rss_bytes"`
	HWMBytes int64 `json:"hwm_bytes"`
}

// New starts the record of a run of suite.
func New(suite string, started time.Time, loadAvg string) *Run {
	return &Run{Schema: Version, Suite: suite, Started: started.UTC().Round(time.Second), CPUs: runtime.NumCPU(),
		LoadAvg: loadAvg, Params: map[string]any{}, Series: []Series{}, Figures: map[string]float64{},
		Counts: map[string]int64{}, Memory: map[string]Memory{}}
}

// Add appends a series; a series measured no requests is left out.
func (r *Run) Add(name string, n, clients int, p50, p99 time.Duration, reqPerS float64) {
	if n <= 0 {
		return
	}
	s := Series{Name: name, N: n, Clients: clients, P50MS: ms(p50), P99MS: ms(p99)}
	if reqPerS > 0 && !math.IsInf(reqPerS, 0) {
		v := round(reqPerS, 1)
		s.ReqPerS = &v
	}
	r.Series = append(r.Series, s)
}

// Figure records a measurement; NaN and infinities (a rate over nothing)
// are left out, as JSON has no number for them.
func (r *Run) Figure(name string, v float64) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return
	}
	r.Figures[name] = round(v, 4)
}

// Seconds records a duration in seconds.
func (r *Run) Seconds(name string, d time.Duration) { r.Figure(name, d.Seconds()) }

// Count records a count.
func (r *Run) Count(name string, n int64) { r.Counts[name] = n }

// Find returns the series named name.
func (r *Run) Find(name string) (Series, bool) {
	for _, s := range r.Series {
		if s.Name == name {
			return s, true
		}
	}
	return Series{}, false
}

// WriteFile writes the run to path as one indented JSON object.
func (r *Run) WriteFile(path string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("bench json: %w", err)
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("bench json: %w", err)
		}
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("bench json: %w", err)
	}
	return nil
}

// ReadFile reads a run written by WriteFile.
func ReadFile(path string) (*Run, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("bench json: %w", err)
	}
	var r Run
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("bench json %s: %w", path, err)
	}
	return &r, nil
}

func ms(d time.Duration) float64 { return round(float64(d)/float64(time.Millisecond), 4) }

func round(v float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(v*p) / p
}

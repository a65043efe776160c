// Package ingest runs the ingestion pipeline: a source's items are decoded
// in parallel into rows, batched per table as Arrow records, inserted into
// the store, and the indexed slot is checkpointed once everything up to it
// is committed.
package ingest

import (
	"errors"
	"io"
	"runtime"
	"time"

	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/ingest/decode"
	"github.com/dasch-labs/dasch/ingest/source"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// Config is one ingestion run.
type Config struct {
	Store  arrowstore.Writer
	Source source.Source
	// Decoders run after the raw decoder, which always runs.
	Decoders []decode.Decoder
	// Steps derive state from committed rows before each checkpoint; see
	// StateStep.
	Steps []StateStep
	// ForceSlot, when set, treats every item as if it were in this slot:
	// transactions, accounts and blocks take it, and so do the rows decoded
	// from them and the checkpoint, which is written once everything is in.
	// A transaction's block time belongs to its real block, so it becomes
	// unknown (0). Sources may then emit items in any slot order.
	ForceSlot *uint64
	// Run, when set, names what this run reads (a files source's
	// directory): each checkpoint is also written under that name, for a
	// later run over the same input to go on after it
	// (checkpoint.RunSlot).
	Run string
	// Workers is the number of decode goroutines; 0 means GOMAXPROCS.
	Workers int
	// A table's batch is inserted at BatchRows rows, BatchBytes bytes or
	// when its oldest row is BatchAge old; zero means the defaults (50,000
	// rows, 32 MiB, 1 s).
	BatchRows  int
	BatchBytes int
	BatchAge   time.Duration
	// A table's batches go into one part (see arrowbatch.Limits),
	// committed at PartRows rows, PartBytes bytes, when its oldest row is
	// PartAge old, or with a batch that went by age; zero means the
	// defaults (2.5M rows, 1 GiB, 10 s).
	PartRows  int
	PartBytes int
	PartAge   time.Duration
	// Progress receives the progress line (when IsTTY) and the closing
	// summary; nil means silent.
	Progress io.Writer
	IsTTY    bool
	// Metrics, when set, is told of every part's rows as it commits and
	// of every dead letter (the serving process's /metrics).
	Metrics Reporter
	// ProgressEvery, off a terminal, prints a progress line this often
	// (a run that follows a chain never ends with a summary); 0 never.
	ProgressEvery time.Duration
	// ProgressNote, when set, is added to each progress line: figures of
	// work running beside the pipeline (the metadata fetcher's).
	ProgressNote func() string
}

// Reporter takes ingest's figures as they happen; metrics.Registry is
// one.
type Reporter interface {
	IngestRows(table string, n int)
	DeadLetters(n int)
}

// ParseSource returns the source a spec such as "files:DIR" names.
func ParseSource(spec string) (source.Source, error) { return source.Parse(spec) }

func (c Config) withDefaults() (Config, error) {
	if c.Store == nil {
		return c, errors.New("ingest: no store")
	}
	if c.Source == nil {
		return c, errors.New("ingest: no source")
	}
	if c.Workers <= 0 {
		c.Workers = runtime.GOMAXPROCS(0)
	}
	l := c.limits()
	c.BatchRows, c.BatchBytes, c.BatchAge = l.Rows, l.Bytes, l.Age
	c.PartRows, c.PartBytes, c.PartAge = l.PartRows, l.PartBytes, l.PartAge
	return c, nil
}

func (c Config) limits() arrowbatch.Limits {
	return arrowbatch.Limits{Rows: c.BatchRows, Bytes: c.BatchBytes, Age: c.BatchAge,
		PartRows: c.PartRows, PartBytes: c.PartBytes, PartAge: c.PartAge}.WithDefaults()
}

// decoders returns the raw decoder followed by the configured ones.
func (c Config) decoders() []decode.Decoder {
	return append([]decode.Decoder{decode.Raw{}}, c.Decoders...)
}

// tables lists every table the run writes, each once.
func tables(decs []decode.Decoder) []arrowbatch.Table {
	out := []arrowbatch.Table{arrowbatch.DeadLettersTable()}
	seen := map[string]bool{out[0].Name: true}
	for _, d := range decs {
		for _, t := range d.Tables() {
			if !seen[t.Name] {
				seen[t.Name] = true
				out = append(out, t)
			}
		}
	}
	return out
}

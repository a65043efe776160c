package ingest

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/dasch-labs/dasch/ingest/decode"
)

// Stats describe a run.
type Stats struct {
	Items       uint64            // items read from the source
	Txs         uint64            // transactions decoded
	Accounts    uint64            // accounts decoded
	Blocks      uint64            // blocks decoded
	DeadLetters uint64            // records sent to dead_letters
	Rows        map[string]uint64 // rows inserted, per table
	Bytes       uint64            // input bytes decoded
	Elapsed     time.Duration
	Slot        uint64 // indexed slot checkpointed by the run; 0 if none
	// Counts are what decoders counted (see decode.Counter), by description.
	Counts map[string]uint64
}

// Rate is items per second.
func (s Stats) Rate() float64 {
	if s.Elapsed <= 0 {
		return 0
	}
	return float64(s.Items) / s.Elapsed.Seconds()
}

// Summary is the one-line report printed at the end of a run.
func (s Stats) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "ingested %d items (%d tx, %d accounts, %d blocks) in %s: %.0f items/s, %d dead letters, indexed slot %d",
		s.Items, s.Txs, s.Accounts, s.Blocks, roundDuration(s.Elapsed), s.Rate(), s.DeadLetters, s.Slot)
	for _, what := range slices.Sorted(maps.Keys(s.Counts)) {
		if n := s.Counts[what]; n > 0 {
			fmt.Fprintf(&b, "; %d %s", n, what)
		}
	}
	return b.String()
}

// counts gathers the counts of the decoders that keep them.
func counts(decs []decode.Decoder) map[string]uint64 {
	out := map[string]uint64{}
	for _, d := range decs {
		if c, ok := d.(decode.Counter); ok {
			for what, n := range c.Counts() {
				out[what] += n
			}
		}
	}
	return out
}

// roundDuration keeps durations short: 1.2s, 35ms.
func roundDuration(d time.Duration) time.Duration {
	if d >= time.Second {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Millisecond)
}

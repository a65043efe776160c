package metrics

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"time"
)

// MetadataFigures are the off-chain metadata fetcher's figures, as its
// Stats report them.
type MetadataFigures interface {
	Counts() (fetched, retried, failed, refolded, bytes, queued uint64, inFlight int64)
	Failures() map[string]uint64
	Lag() time.Duration
}

// Metadata reports the fetcher's figures at each scrape: documents
// fetched, retried and failed (by reason), assets folded again, bytes
// stored, fetches in flight, the queue's depth and its oldest entry's
// wait. Register it once per registry.
func (r *Registry) Metadata(f MetadataFigures) {
	r.Lines(func(_ context.Context, w io.Writer) {
		fetched, retried, failed, refolded, bytes, queued, inFlight := f.Counts()
		fmt.Fprintf(w, "dasch_metadata_fetched_total %d\n", fetched)
		fmt.Fprintf(w, "dasch_metadata_retried_total %d\n", retried)
		fmt.Fprintf(w, "dasch_metadata_failed_total %d\n", failed)
		fails := f.Failures()
		for _, reason := range slices.Sorted(maps.Keys(fails)) {
			fmt.Fprintf(w, "dasch_metadata_failures_total{reason=\"%s\"} %d\n", label(reason), fails[reason])
		}
		fmt.Fprintf(w, "dasch_metadata_refolded_assets_total %d\n", refolded)
		fmt.Fprintf(w, "dasch_metadata_bytes_total %d\n", bytes)
		fmt.Fprintf(w, "dasch_metadata_in_flight %d\n", inFlight)
		fmt.Fprintf(w, "dasch_metadata_queue_depth %d\n", queued)
		fmt.Fprintf(w, "dasch_metadata_queue_lag_seconds %g\n", f.Lag().Seconds())
	})
}

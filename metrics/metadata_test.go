package metrics

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

type figures struct{}

func (figures) Counts() (uint64, uint64, uint64, uint64, uint64, uint64, int64) {
	return 7, 2, 3, 9, 4096, 11, 5
}
func (figures) Failures() map[string]uint64 { return map[string]uint64{"http_404": 2, `odd"reason`: 1} }
func (figures) Lag() time.Duration          { return 1500 * time.Millisecond }

func TestMetadata(t *testing.T) {
	r := New()
	r.Metadata(figures{})
	var b bytes.Buffer
	r.WritePrometheus(&b)
	for _, line := range []string{
		"dasch_metadata_fetched_total 7", "dasch_metadata_retried_total 2", "dasch_metadata_failed_total 3",
		`dasch_metadata_failures_total{reason="http_404"} 2`, `dasch_metadata_failures_total{reason="odd\"reason"} 1`,
		"dasch_metadata_refolded_assets_total 9", "dasch_metadata_bytes_total 4096", "dasch_metadata_in_flight 5",
		"dasch_metadata_queue_depth 11", "dasch_metadata_queue_lag_seconds 1.5",
	} {
		if !strings.Contains(b.String(), line+"\n") {
			t.Errorf("no line %q in\n%s", line, b.String())
		}
	}
}

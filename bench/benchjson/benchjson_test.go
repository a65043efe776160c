package benchjson

import (
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestRoundTrip: what is written reads back the same, and figures JSON
// cannot hold are left out rather than failing the run.
func TestRoundTrip(t *testing.T) {
	r := New("insert", time.Unix(1_700_000_000, 0), "0.50")
	r.Params["rows"] = 2000
	r.Add("getAsset", 10, 1, 1500*time.Microsecond, 3*time.Millisecond, 640.25)
	r.Add("skipped", 0, 1, 0, 0, 0)
	r.Add("no throughput", 3, 1, time.Millisecond, time.Millisecond, 0)
	r.Figure("rate", 12.5)
	r.Figure("nan", math.NaN())
	r.Figure("inf", math.Inf(1))
	r.Count("rows", 2000)
	r.Sample("bench", SelfMemory)
	path := filepath.Join(t.TempDir(), "sub", "run.json")
	if err := r.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Schema != Version || got.Suite != "insert" || got.Params["rows"] != float64(2000) || got.Counts["rows"] != 2000 {
		t.Errorf("read back %+v", got)
	}
	if len(got.Series) != 2 || got.Series[0].P50MS != 1.5 || got.Series[0].ReqPerS == nil || *got.Series[0].ReqPerS != 640.3 || got.Series[1].ReqPerS != nil {
		t.Errorf("series %+v", got.Series)
	}
	if _, ok := got.Figures["nan"]; ok || len(got.Figures) != 1 {
		t.Errorf("figures %v", got.Figures)
	}
	if m := got.Memory["bench"]; m.RSSBytes <= 0 || m.HWMBytes < m.RSSBytes {
		t.Errorf("memory %+v", m)
	}
}

// TestTreeMemory: this process's tree holds at least itself.
func TestTreeMemory(t *testing.T) {
	self, err := SelfMemory()
	if err != nil {
		t.Fatal(err)
	}
	tree, err := TreeMemory(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if tree.RSSBytes < self.RSSBytes/2 || tree.HWMBytes <= 0 {
		t.Errorf("tree %+v, self %+v", tree, self)
	}
	if _, err := TreeMemory(1 << 30); err == nil {
		t.Error("no error for a process that does not exist")
	}
}

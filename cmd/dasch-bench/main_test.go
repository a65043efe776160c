package main_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dasch-labs/dasch/bench/benchjson"
	"github.com/dasch-labs/dasch/bench/pgref"
	"github.com/dasch-labs/dasch/internal/tempdir"
)

// These tests run the real binary, as a user would, alone and as
// `dasch bench` runs it: dasch is built beside it, as make build does.

var bin, daschBin string

func TestMain(m *testing.M) {
	dir, _, err := tempdir.Make("dasch-bin-*")
	if err != nil {
		panic(err)
	}
	bin = filepath.Join(dir.Path, "dasch-bench")
	daschBin = filepath.Join(dir.Path, "dasch")
	for _, b := range [][2]string{{bin, "."}, {daschBin, "../dasch"}} {
		out, err := exec.Command("go", "build", "-o", b[0], b[1]).CombinedOutput()
		if err != nil {
			fmt.Fprintf(os.Stderr, "build %s: %v\n%s", b[1], err, out)
			os.Exit(1)
		}
	}
	code := m.Run()
	dir.Remove()
	os.Exit(code)
}

func run(t *testing.T, name string, args ...string) (string, string, error) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	return stdout.String(), stderr.String(), err
}

func TestCommandLine(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--suite", "compressed", "--chunk", "0"}, "--chunk must be positive"},
		{[]string{"--suite", "compressed", "--part-chunks", "0"}, "--part-chunks and --chunk must be positive"},
	}
	for _, tc := range tests {
		for _, c := range [][]string{
			append([]string{bin}, tc.args...),
			append([]string{daschBin, "bench"}, tc.args...),
		} {
			_, errOut, err := run(t, c[0], c[1:]...)
			if err == nil || !strings.Contains(errOut, tc.want) {
				t.Errorf("%v: err=%v stderr=%q, want %q", c, err, errOut, tc.want)
			}
			if strings.Count(strings.TrimSpace(errOut), "\n") > 3 {
				t.Errorf("%v: error should be short:\n%s", c, errOut)
			}
		}
	}
}

func TestInsertSuite(t *testing.T) {
	for _, c := range [][]string{{bin}, {daschBin, "bench"}} {
		c = append(c, "--suite", "insert", "--rows", "2000", "--batch", "1000")
		out, errOut, err := run(t, c[0], c[1:]...)
		if err != nil {
			t.Fatalf("%v: %v\n%s\n%s", c, err, out, errOut)
		}
		for _, want := range []string{"bench: 2000 synthetic accounts, batches of 1000", "raw insert", "pipeline / raw:"} {
			if !strings.Contains(out, want) {
				t.Errorf("%v: output lacks %q:\n%s", c, want, out)
			}
		}
	}
}

// TestSuitesJSON runs each suite small with --json and reads the record
// back: its suite, its sizes and the series and figures a script compares.
func TestSuitesJSON(t *testing.T) {
	_, pgErr := pgref.FindBinDir()
	tests := []struct {
		suite   string
		args    []string
		series  []string
		figures []string
		params  map[string]any
	}{
		{"insert", []string{"--rows", "2000", "--batch", "1000"}, nil,
			[]string{"raw_rows_per_s", "pipeline_rows_per_s", "pipeline_over_raw"}, map[string]any{"rows": float64(2000)}},
		{"compressed", []string{"--quick", "--accounts", "20000", "--chunk", "3900", "--part-chunks", "2", "--transfers", "3000",
			"--live-slots", "3", "--clients", "8", "--postgres=false"},
			[]string{"holders_depth_0 / http", "balances_by_owner / query_layer", "holders_8_clients / http", "live_slot_balance_copy / ingest"},
			[]string{"ingest_accounts_per_s", "transfers_per_s"}, map[string]any{"accounts": float64(20000), "postgres": false}},
		// PostgreSQL by default when it is installed, and the restart of
		// the dasch binary built beside dasch-bench.
		{"assets", []string{"--quick", "--assets", "3000"},
			[]string{"getasset_all_kinds / http_index", "getasset_all_kinds / http_store", "getassetbatch_100_ids / http_index",
				"restart_first_answers / http_store", "restart_steady / http_store",
				"getassetsbyowner_big_owner_first_page / http_store", "searchassets_grouping_showgrandtotal / http_store"},
			[]string{"restart_first_answer_s", "ingest_accounts_per_s"},
			map[string]any{"assets": float64(3000), "postgres": pgErr == nil, "restart": true, "lists": true}},
		// dasch serve following a loopback gRPC stream on a schedule.
		{"lag", []string{"--quick", "--rate", "500", "--rate-factor", "4"}, []string{"lag_500", "lag_2000"},
			[]string{"preload_visible_s", "lag_500_kept_writes_per_s", "lag_2000_max_s"}, map[string]any{"probes": float64(4)}},
		// dasch serve on the demo data under a barrage (it fails unless
		// the server held).
		{"soak", []string{"--quick", "--demo", "../../testdata/demo,../../testdata/das/accounts"}, []string{"legit_quiet", "legit_barrage"},
			[]string{"hostile_per_s", "p99_barrage_over_quiet"}, map[string]any{"clients": float64(8)}},
	}
	for _, tc := range tests {
		path := filepath.Join(t.TempDir(), tc.suite+".json")
		args := append([]string{"--suite", tc.suite, "--json", path}, tc.args...)
		out, errOut, err := run(t, bin, args...)
		if err != nil {
			t.Fatalf("%s: %v\n%s\n%s", tc.suite, err, out, errOut)
		}
		r, err := benchjson.ReadFile(path)
		if err != nil {
			t.Fatalf("%s: %v", tc.suite, err)
		}
		if r.Schema != benchjson.Version || r.Suite != tc.suite || r.ElapsedS <= 0 || r.Memory["bench"].RSSBytes <= 0 {
			t.Errorf("%s: record %+v", tc.suite, r)
		}
		for k, v := range tc.params {
			if r.Params[k] != v {
				t.Errorf("%s: param %s = %v, want %v", tc.suite, k, r.Params[k], v)
			}
		}
		series := tc.series
		if tc.suite == "assets" && pgErr == nil {
			series = append(series, "getasset_all_kinds / postgres", "getassetbatch_100_ids / postgres",
				"getassetsbygroup_big_collection_first_page / postgres")
		}
		for _, name := range series {
			if s, ok := r.Find(name); !ok || s.N == 0 || s.P99MS < s.P50MS || s.P50MS <= 0 {
				t.Errorf("%s: series %q: %+v (found %v)", tc.suite, name, s, ok)
			}
		}
		for _, f := range tc.figures {
			if r.Figures[f] <= 0 {
				t.Errorf("%s: figure %s = %v", tc.suite, f, r.Figures[f])
			}
		}
		if tc.suite == "lag" {
			for _, rate := range []string{"500", "2000"} {
				if seen, want := r.Counts["lag_"+rate+"_probes_seen"], r.Counts["lag_"+rate+"_probes"]; seen != want || want == 0 {
					t.Errorf("lag: %s writes/s: %d of %d probes seen", rate, seen, want)
				}
				if r.Memory["serve_"+rate].RSSBytes <= 0 {
					t.Errorf("lag: no memory of the server: %+v", r.Memory)
				}
			}
		}
		if tc.suite == "assets" {
			if r.Memory["serve"].RSSBytes <= 0 {
				t.Errorf("assets: no memory of the restarted server: %+v", r.Memory)
			}
			for _, want := range []string{"restart: to first getAsset | to full speed, s", "dasch ÷ postgres"} {
				if (pgErr == nil || !strings.Contains(want, "postgres")) && !strings.Contains(out, want) {
					t.Errorf("assets: table lacks %q:\n%s", want, out)
				}
			}
		}
	}
}

package main_test

import (
	"errors"
	"os/exec"
	"strings"
	"testing"
)

func TestConformanceCommand(t *testing.T) {
	out := mustDasch(t, "conformance", "photon", "--compat", "../../docs/compat.md", "--split=false", "../../testdata/photon")
	if !strings.Contains(out, "PASS derived-holders-all\n") {
		t.Errorf("no PASS line for derived-holders-all:\n%s", out)
	}
	if !strings.Contains(out, "PASS mock_get_multiple_new_address_proofs\n") {
		t.Errorf("no PASS line for the proof case mock_get_multiple_new_address_proofs:\n%s", out)
	}
	if !strings.Contains(out, "DEVIATION derived-balances-v2-bob-mint-filter-cursor-quirk: ") {
		t.Errorf("the documented deviation is not reported:\n%s", out)
	}
	if last := lastLine(out); !strings.Contains(last, " passed, 0 failed, ") {
		t.Errorf("summary %q", last)
	}
	// Both passes ran: the store's, then the in-memory indexes'.
	store, hot := strings.Index(out, "# served from the store\n"), strings.Index(out, "# served from the in-memory indexes\n")
	if store < 0 || hot < store || strings.Count(out, "PASS derived-holders-all\n") != 2 {
		t.Errorf("want a store pass then an in-memory pass:\n%s", out)
	}

	// Without the compat document the deviation is a failure, and the exit
	// status says so.
	out, _, err := dasch(t, "conformance", "photon", "--compat", "no-such-file.md", "--split=false", "--hot=false", "../../testdata/photon")
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("exit %v, want status 1", err)
	}
	if !strings.Contains(out, "FAIL derived-balances-v2-bob-mint-filter-cursor-quirk: ") || !strings.Contains(lastLine(out), "1 failed") {
		t.Errorf("output:\n%s", out)
	}
}

// TestConformanceDAS replays a slice of the DAS corpus through the command:
// getAsset and listing cases pass, none is skipped, the summary closes the
// run.
func TestConformanceDAS(t *testing.T) {
	out := mustDasch(t, "conformance", "das", "--compat", "../../docs/das-compat.md", "--only", "mpl_core_get_asset", "../../testdata/das")
	for _, want := range []string{"PASS mpl_core_get_asset\n", "PASS mpl_core_get_assets_by_authority\n", " 0 failed, 0 skipped"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if last := lastLine(out); !strings.Contains(last, " passed, 0 failed, ") {
		t.Errorf("summary %q", last)
	}
}

func TestConformanceUsage(t *testing.T) {
	for _, args := range [][]string{
		{"conformance"},
		{"conformance", "nope", "dir"},
		{"conformance", "das"},
		{"conformance", "photon"},
		{"conformance", "photon", "a", "b"},
	} {
		_, errOut, err := dasch(t, args...)
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(errOut, "usage: dasch conformance") {
			t.Errorf("%v: exit %v, stderr %q; want usage and status 2", args, err, errOut)
		}
	}
}

package ingesthealth

import (
	"errors"
	"strings"
	"testing"
)

func TestTracker(t *testing.T) {
	boom := errors.New("node unreachable")
	type step struct {
		op      string // fail, ok, check
		indexed uint64
		failing bool // for check
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"below the limit", []step{{"fail", 5, false}, {"check", 5, false}}},
		{"at the limit", []step{{"fail", 5, false}, {"fail", 5, false}, {"check", 5, true}}},
		{"progress between failures restarts the count", []step{{"fail", 5, false}, {"fail", 9, false}, {"check", 9, false},
			{"fail", 9, false}, {"check", 9, true}}},
		{"progress after failing clears it", []step{{"fail", 5, false}, {"fail", 5, false}, {"check", 5, true}, {"check", 6, false},
			{"check", 6, false}}},
		{"a run ending well clears it", []step{{"fail", 5, false}, {"fail", 5, false}, {"ok", 5, false}, {"check", 5, false}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := New(2)
			for i, s := range tc.steps {
				switch s.op {
				case "fail":
					tr.Failed(boom, s.indexed)
				case "ok":
					tr.Succeeded()
				case "check":
					err := tr.Check(s.indexed)
					if (err != nil) != s.failing {
						t.Fatalf("step %d: Check(%d) = %v, want failing %v", i, s.indexed, err, s.failing)
					}
					if err != nil && !strings.Contains(err.Error(), "node unreachable") {
						t.Fatalf("step %d: reason %q lacks the last error", i, err)
					}
				}
			}
		})
	}
}

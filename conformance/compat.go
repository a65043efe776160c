package conformance

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// DeviationsHeader is the header line of the table in docs/compat.md that
// lists the cases where dasch answers differently from Photon on purpose.
const DeviationsHeader = "| case | reason |"

// ParseDeviations reads the deviations table from a compat document: the
// Markdown table whose header is DeviationsHeader, first column the case
// name (optionally in backticks), second the reason.
func ParseDeviations(r io.Reader) (map[string]string, error) {
	out := map[string]string{}
	sc := bufio.NewScanner(r)
	in := false
	found := false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case !in && strings.EqualFold(strings.Join(strings.Fields(line), " "), DeviationsHeader):
			in, found = true, true
		case in && !strings.HasPrefix(line, "|"):
			in = false
		case in:
			cells := strings.Split(strings.Trim(line, "|"), "|")
			if len(cells) < 2 {
				continue
			}
			name := strings.Trim(strings.TrimSpace(cells[0]), "`")
			reason := strings.TrimSpace(strings.Join(cells[1:], "|"))
			if name == "" || strings.Trim(name, "-: ") == "" {
				continue // the separator row
			}
			out[name] = reason
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read compat document: %w", err)
	}
	if !found {
		return nil, fmt.Errorf("compat document has no table headed %q", DeviationsHeader)
	}
	return out, nil
}

package measure

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Lat writes a series as "p50 / p99" in milliseconds, "-" when unmeasured.
func Lat(s Series) string {
	if !s.Measured() {
		return "-"
	}
	return MS(s.P50) + " / " + MS(s.P99)
}

// RPS writes a series' throughput, "-" when unmeasured.
func RPS(s Series) string {
	if !s.Measured() {
		return "-"
	}
	return Count(int(s.Throughput))
}

// MS writes d in milliseconds with about three significant digits.
func MS(d time.Duration) string {
	v := float64(d) / float64(time.Millisecond)
	switch {
	case v < 10 && v > -10:
		return strconv.FormatFloat(v, 'f', 2, 64)
	case v < 100 && v > -100:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'f', 0, 64)
}

// Count writes n with thousands separators.
func Count(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Table aligns columns by their widest cell.
type Table struct{ rows [][]string }

// Row appends a row.
func (t *Table) Row(cells ...string) { t.rows = append(t.rows, cells) }

// Write prints the rows, trailing spaces trimmed.
func (t *Table) Write(w io.Writer) {
	var width []int
	for _, r := range t.rows {
		for i, c := range r {
			if i >= len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	for _, r := range t.rows {
		var b strings.Builder
		for i, c := range r {
			b.WriteString(c)
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", width[i]-len([]rune(c))+2))
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

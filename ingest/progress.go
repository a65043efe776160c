package ingest

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/dasch-labs/dasch/ingest/source"
)

// progress draws a one-line progress bar on a terminal, redrawn in place at
// most ten times a second; elsewhere, when asked (lines), it prints a
// line every so often.
type progress struct {
	w     io.Writer
	src   source.Progresser // nil if the source cannot tell
	last  time.Time
	width int // length of the line on screen, to blank leftovers
	// lines, off a terminal, is how often a progress line is printed.
	lines time.Duration
	// note, when set, is added to each line.
	note func() string
}

const (
	redrawEvery = 100 * time.Millisecond
	barWidth    = 24
)

func newProgress(w io.Writer, tty bool, src source.Source, every time.Duration) *progress {
	if w == nil || (!tty && every <= 0) {
		return nil
	}
	p := &progress{w: w}
	if !tty {
		p.lines = every
	}
	p.src, _ = src.(source.Progresser)
	return p
}

func (p *progress) draw(now time.Time, st Stats, slot uint64) {
	if p == nil {
		return
	}
	if p.lines > 0 {
		if p.last.IsZero() {
			p.last = now // the first line after one interval
		} else if now.Sub(p.last) >= p.lines {
			p.last = now
			fmt.Fprintf(p.w, "progress: %d items, %.0f items/s, %d dead letters, indexed slot %d%s\n",
				st.Items, st.Rate(), st.DeadLetters, slot, p.noted())
		}
		return
	}
	if now.Sub(p.last) < redrawEvery {
		return
	}
	p.last = now
	var b strings.Builder
	if p.src != nil {
		if done, total := p.src.Progress(); total > 0 {
			frac := min(float64(done)/float64(total), 1)
			n := int(frac * barWidth)
			fmt.Fprintf(&b, "[%s%s] %3.0f%%  ", strings.Repeat("#", n), strings.Repeat("-", barWidth-n), 100*frac)
		}
	}
	fmt.Fprintf(&b, "%d items  %.0f items/s  %d dead letters  slot %d%s", st.Items, st.Rate(), st.DeadLetters, slot, p.noted())
	p.put(b.String())
}

// noted is the note as a line's tail: "; " and the note, or nothing.
func (p *progress) noted() string {
	if p.note == nil {
		return ""
	}
	if n := p.note(); n != "" {
		return "; " + n
	}
	return ""
}

// clear blanks the line so the summary starts on a clean one.
func (p *progress) clear() {
	if p != nil && p.lines == 0 && p.width > 0 {
		p.put("")
	}
}

func (p *progress) put(line string) {
	pad := max(p.width-len(line), 0)
	fmt.Fprintf(p.w, "\r%s%s", line, strings.Repeat(" ", pad))
	if line == "" {
		fmt.Fprint(p.w, "\r")
	}
	p.width = len(line)
}

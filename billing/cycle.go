package billing

import "time"

// Period is a half-open range of UTC days, [Start, End).
type Period struct {
	Start, End time.Time
}

// CycleAt is the credit cycle holding t for a project anchored at anchor:
// cycles start each month on the anchor's day of the month (the last day
// of a shorter month), at 00:00 UTC.
func CycleAt(anchor, t time.Time) Period {
	t = t.UTC()
	day := anchor.UTC().Day()
	start := anchorIn(t.Year(), t.Month(), day)
	if start.After(t) {
		start = anchorIn(t.Year(), t.Month()-1, day)
	}
	return Period{Start: start, End: anchorIn(start.Year(), start.Month()+1, day)}
}

// anchorIn is day of the month, or the month's last day when it has
// fewer; month may be out of 1..12 (time.Date normalises it).
func anchorIn(year int, month time.Month, day int) time.Time {
	first := time.Date(year, month, 1, 0, 0, 0, 0, time.UTC)
	last := first.AddDate(0, 1, -1).Day()
	return first.AddDate(0, 0, min(day, last)-1)
}

// Next is the cycle after p, for the same anchor.
func (p Period) Next(anchor time.Time) Period { return CycleAt(anchor, p.End) }

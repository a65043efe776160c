package arrowbatch

import "time"

// Limits decide when a table's batch is inserted: at Rows rows, at Bytes
// bytes, or when its oldest row is Age old, whichever comes first.
type Limits struct {
	Rows  int
	Bytes int
	Age   time.Duration
}

// Defaults: large enough for ClickHouse to write few, big parts; the age
// bound keeps a slow source visible within a second.
const (
	DefaultRows  = 50_000
	DefaultBytes = 32 << 20
	DefaultAge   = time.Second
)

// WithDefaults fills zero limits with the defaults.
func (l Limits) WithDefaults() Limits {
	if l.Rows <= 0 {
		l.Rows = DefaultRows
	}
	if l.Bytes <= 0 {
		l.Bytes = DefaultBytes
	}
	if l.Age <= 0 {
		l.Age = DefaultAge
	}
	return l
}

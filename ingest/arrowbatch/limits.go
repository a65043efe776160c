package arrowbatch

import "time"

// Limits decide when a table's batch goes to the store and when the
// part it goes into is committed.
//
// A batch is appended to the table's open part at Rows rows or Bytes
// bytes, or when its oldest row is Age old, whichever comes first. The
// part (one INSERT, see arrowstore.PartWriter) is committed, and its rows
// become visible, when it holds PartRows rows or PartBytes bytes, when
// its oldest row is PartAge old, or at once when its batch went by age:
// a source slow enough to fill no batch within Age is committed batch by
// batch, so it stays visible within about Age; a fast one fills large
// parts, which merges rewrite less often on their way to large parts.
type Limits struct {
	Rows  int
	Bytes int
	Age   time.Duration

	PartRows  int
	PartBytes int
	PartAge   time.Duration
}

// Defaults. A batch is large enough to cost the engine little per row; a
// part of 2.5M rows is what a 20M-account load of the compressed tables
// leaves 8 of a table, under the merge selector's base of 10
// (schema.MergeBase), so no merge rewrites them during the load (the
// compressed bench's --part-chunks shows the measurement). The engine
// holds a part's rows until it commits: PartBytes bounds that memory, for
// each table writing. PartAge bounds how stale a fast load's newest rows
// are.
const (
	DefaultRows      = 50_000
	DefaultBytes     = 32 << 20
	DefaultAge       = time.Second
	DefaultPartRows  = 2_500_000
	DefaultPartBytes = 1 << 30
	DefaultPartAge   = 10 * time.Second
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
	if l.PartRows <= 0 {
		l.PartRows = DefaultPartRows
	}
	if l.PartBytes <= 0 {
		l.PartBytes = DefaultPartBytes
	}
	if l.PartAge <= 0 {
		l.PartAge = DefaultPartAge
	}
	return l
}

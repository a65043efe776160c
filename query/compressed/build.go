package compressed

import (
	"strings"

	"github.com/dasch-labs/dasch/store"
)

// query assembles one SELECT from fixed SQL fragments; values only ever
// enter through params.
type query struct {
	conds  []string
	params store.Params
}

func newQuery() *query { return &query{params: store.Params{}} }

// where adds a condition, a constant SQL fragment whose placeholders are
// bound with bind.
func (q *query) where(cond string) *query {
	q.conds = append(q.conds, cond)
	return q
}

func (q *query) bind(name, value string) *query {
	q.params[name] = value
	return q
}

// sql returns head, the WHERE clause and tail joined.
func (q *query) sql(head, tail string) string {
	var b strings.Builder
	b.WriteString(head)
	if len(q.conds) > 0 {
		b.WriteString(" WHERE ")
		b.WriteString(strings.Join(q.conds, " AND "))
	}
	b.WriteString(" ")
	b.WriteString(tail)
	return b.String()
}

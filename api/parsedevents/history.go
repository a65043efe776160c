package parsedevents

import (
	"context"
	"math"
	"strconv"
	"strings"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/query/parsedevents"
	"github.com/dasch-labs/dasch/server/jsonrpc"
	"github.com/dasch-labs/dasch/server/rest"
	"github.com/dasch-labs/dasch/store"
)

// maxLimit is the largest page, and the default.
const maxLimit = 100

// History answers POST /v1/parsed-events/transaction-history: body
// {address, limit, beforeSignature, afterSignature, paginationToken,
// sortOrder, commitment, includeRawTransaction, slot, time}; the answer
// is {data: [parsed transactions], paginationToken}, the token
// ("slot:transactionIndex" of the last item) absent once the history
// ends. Paging is by keyset: every page is one range of the index.
func History(s store.Querier, slots SlotSource) rest.Handler {
	return func(ctx context.Context, _ string, body []byte) ([]byte, error) {
		pg, raw, err := readHistory(ctx, s, slots, body)
		if err != nil {
			return nil, err
		}
		out := append(make([]byte, 0, 4096), `{"data":[`...)
		for i, d := range pg.docs {
			if i > 0 {
				out = append(out, ',')
			}
			if raw {
				out = append(out, appendRaw(d.Parsed, d.Raw)...)
			} else {
				out = append(out, d.Parsed...)
			}
		}
		out = append(out, ']')
		if pg.token != "" {
			out = append(out, `,"paginationToken":`...)
			out = jsonrpc.AppendString(out, pg.token)
		}
		return append(out, '}'), nil
	}
}

// historyPage is one page of a history: its documents in order, and the
// token of the next page, empty at the end.
type historyPage struct {
	docs  []*parsedevents.Doc
	token string
}

// readHistory reads the page a transaction-history body asks for, and
// whether it asked for raw transactions.
func readHistory(ctx context.Context, s store.Querier, slots SlotSource, body []byte) (*historyPage, bool, error) {
	q, raw, err := historyQuery(ctx, s, body)
	if err != nil || q == nil {
		return &historyPage{}, raw, err
	}
	// Nothing the checkpoint does not cover yet: a later slot may still
	// be cut short by a crash, and a page must not show it.
	through, err := slots.IndexedSlot(ctx)
	if err != nil {
		return nil, false, err
	}
	q.Through = &through
	want := q.Limit
	q.Limit++ // one more tells whether a next page exists
	entries, err := parsedevents.History(ctx, s, *q)
	if err != nil {
		return nil, false, err
	}
	more := len(entries) > want
	entries = entries[:min(len(entries), want)]
	sigs := make([]solana.Signature, len(entries))
	for i, e := range entries {
		sigs[i] = e.Signature
	}
	docs, err := parsedevents.Transactions(ctx, s, unique(sigs), raw)
	if err != nil {
		return nil, false, err
	}
	pg := &historyPage{docs: make([]*parsedevents.Doc, 0, len(entries))}
	for _, e := range entries {
		// An entry filed before its parse committed is left to the next
		// request, which finds both.
		if d := docs[e.Signature]; d != nil {
			pg.docs = append(pg.docs, d)
		}
	}
	if more && len(entries) > 0 {
		last := entries[len(entries)-1]
		pg.token = strconv.FormatUint(last.Slot, 10) + ":" + strconv.FormatUint(uint64(last.TxIndex), 10)
	}
	return pg, raw, nil
}

// bounds are the gt, gte, lt, lte members of a slot or time filter.
type bounds struct {
	gt, gte, lt, lte *json.Number
}

// historyQuery reads the body. A nil query with no error is a filter
// that no position passes.
func historyQuery(ctx context.Context, s store.Querier, body []byte) (*parsedevents.HistoryQuery, bool, error) {
	m, err := object(body, "body", "address", "limit", "beforeSignature", "afterSignature", "paginationToken",
		"sortOrder", "commitment", "includeRawTransaction", "slot", "time")
	if err != nil {
		return nil, false, err
	}
	q := &parsedevents.HistoryQuery{Limit: maxLimit, Desc: true}
	var addr string
	ok, err := field(m, "", "address", &addr, "a base58 address string")
	if err != nil {
		return nil, false, err
	}
	if !ok {
		return nil, false, rest.BadRequest("address: required")
	}
	if q.Address, err = solana.ParsePubkey(addr); err != nil {
		return nil, false, rest.BadRequest("address: not a base58 address: %q", addr)
	}
	if v, ok := m["limit"]; ok {
		var n int
		if json.Unmarshal(v, &n) != nil || n < 1 || n > maxLimit {
			return nil, false, rest.BadRequest("limit: must be an integer from 1 to %d, not %s", maxLimit, v)
		}
		q.Limit = n
	}
	var order string
	if ok, err := field(m, "", "sortOrder", &order, "asc or desc"); err != nil {
		return nil, false, err
	} else if ok {
		switch order {
		case "asc":
			q.Desc = false
		case "desc":
		default:
			return nil, false, rest.BadRequest("sortOrder: must be asc or desc, not %q", order)
		}
	}
	if err := commitment(m); err != nil {
		return nil, false, err
	}
	raw, err := withRaw(m)
	if err != nil {
		return nil, false, err
	}
	for _, b := range []struct {
		name string
		dst  **parsedevents.Position
	}{{"beforeSignature", &q.Before}, {"afterSignature", &q.After}} {
		var v string
		ok, err := field(m, "", b.name, &v, "a base58 signature string")
		if err != nil {
			return nil, false, err
		}
		if !ok {
			continue
		}
		sig, err := solana.ParseSignature(v)
		if err != nil {
			return nil, false, rest.BadRequest("%s: not a base58 signature: %q", b.name, v)
		}
		pos, found, err := parsedevents.PositionOf(ctx, s, sig)
		if err != nil {
			return nil, false, err
		}
		if !found {
			return nil, false, rest.BadRequest("%s: transaction %s is not indexed", b.name, v)
		}
		*b.dst = &pos
	}
	var tok string
	if ok, err := field(m, "", "paginationToken", &tok, `a "slot:transactionIndex" string`); err != nil {
		return nil, false, err
	} else if ok {
		pos, err := parseToken(tok)
		if err != nil {
			return nil, false, err
		}
		// The token continues in the sort order, inside any bound the
		// signatures set.
		if q.Desc && (q.Before == nil || pos.Less(*q.Before)) {
			q.Before = &pos
		}
		if !q.Desc && (q.After == nil || q.After.Less(pos)) {
			q.After = &pos
		}
	}
	if b, err := readBounds(m, "slot"); err != nil {
		return nil, false, err
	} else if b != nil {
		var empty bool
		if q.Slot, empty, err = slotRange(b); err != nil || empty {
			return nil, false, err
		}
	}
	if b, err := readBounds(m, "time"); err != nil {
		return nil, false, err
	} else if b != nil {
		var empty bool
		if q.Time, empty, err = timeRange(b); err != nil || empty {
			return nil, false, err
		}
	}
	return q, raw, nil
}

// parseToken reads "slot:transactionIndex".
func parseToken(tok string) (parsedevents.Position, error) {
	bad := rest.BadRequest(`paginationToken: must be "slot:transactionIndex", as a previous page gave, not %q`, tok)
	s, i, ok := strings.Cut(tok, ":")
	if !ok {
		return parsedevents.Position{}, bad
	}
	slot, err1 := strconv.ParseUint(s, 10, 64)
	idx, err2 := strconv.ParseUint(i, 10, 32)
	if err1 != nil || err2 != nil {
		return parsedevents.Position{}, bad
	}
	return parsedevents.Position{Slot: slot, TxIndex: uint32(idx)}, nil
}

func readBounds(m map[string]json.RawMessage, name string) (*bounds, error) {
	v, ok := m[name]
	if !ok {
		return nil, nil
	}
	f, err := object(v, name, "gt", "gte", "lt", "lte")
	if err != nil {
		return nil, err
	}
	b := &bounds{}
	for _, x := range []struct {
		key string
		dst **json.Number
	}{{"gt", &b.gt}, {"gte", &b.gte}, {"lt", &b.lt}, {"lte", &b.lte}} {
		var n json.Number
		if ok, err := field(f, name+".", x.key, &n, "an integer"); err != nil {
			return nil, err
		} else if ok {
			*x.dst = &n
		}
	}
	if b.gt != nil && b.gte != nil {
		return nil, rest.BadRequest("%s: give gt or gte, not both", name)
	}
	if b.lt != nil && b.lte != nil {
		return nil, rest.BadRequest("%s: give lt or lte, not both", name)
	}
	return b, nil
}

// slotRange turns slot bounds into an inclusive range; empty when no slot
// passes.
func slotRange(b *bounds) (parsedevents.Range, bool, error) {
	lo, hi, empty, err := inclusive(b, 0, uint64(math.MaxUint64), func(n *json.Number, key string) (uint64, error) {
		v, err := strconv.ParseUint(n.String(), 10, 64)
		if err != nil {
			return 0, rest.BadRequest("slot.%s: must be an integer from 0 to %d, not %s", key, uint64(math.MaxUint64), n)
		}
		return v, nil
	})
	return parsedevents.Range{Min: lo, Max: hi}, empty, err
}

// timeRange is slotRange for block times in Unix seconds.
func timeRange(b *bounds) (parsedevents.TimeRange, bool, error) {
	lo, hi, empty, err := inclusive(b, math.MinInt64, math.MaxInt64, func(n *json.Number, key string) (int64, error) {
		v, err := strconv.ParseInt(n.String(), 10, 64)
		if err != nil {
			return 0, rest.BadRequest("time.%s: must be an integer of Unix seconds, not %s", key, n)
		}
		return v, nil
	})
	return parsedevents.TimeRange{Min: lo, Max: hi}, empty, err
}

// inclusive turns gt/gte/lt/lte bounds over [least, most] into inclusive
// ones, each read with get; empty when no value passes.
func inclusive[T int64 | uint64](b *bounds, least, most T, get func(*json.Number, string) (T, error)) (lo, hi *T, empty bool, err error) {
	for _, c := range []struct {
		n    *json.Number
		key  string
		into **T
		step func(T) (T, bool)
	}{
		{b.gt, "gt", &lo, func(v T) (T, bool) { return v + 1, v == most }},
		{b.gte, "gte", &lo, func(v T) (T, bool) { return v, false }},
		{b.lt, "lt", &hi, func(v T) (T, bool) { return v - 1, v == least }},
		{b.lte, "lte", &hi, func(v T) (T, bool) { return v, false }},
	} {
		if c.n == nil {
			continue
		}
		v, err := get(c.n, c.key)
		if err != nil {
			return nil, nil, false, err
		}
		v, none := c.step(v)
		if none {
			return nil, nil, true, nil
		}
		*c.into = &v
	}
	return lo, hi, lo != nil && hi != nil && *lo > *hi, nil
}

// Package parsedevents serves the parsed-events REST endpoints: parsed
// transactions by signature, and the parsed history of an address, one
// file each. Both answer from what ingest stored (parsed_transactions,
// address_transactions): no transaction is parsed per request.
package parsedevents

import (
	"bytes"
	"context"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/server/rest"
	"github.com/dasch-labs/dasch/store"
)

// Paths of the endpoints.
const (
	PathTransactions = "/v1/parsed-events/transactions"
	PathHistory      = "/v1/parsed-events/transaction-history"
)

// Methods are the endpoints as the Meter names them, for their prices.
func Methods() []string {
	return []string{rest.Method(PathTransactions), rest.Method(PathHistory), rest.Method(PathGraphQL)}
}

// Server takes REST endpoints (server.Server does).
type Server interface {
	HandleREST(path string, h rest.Handler) error
}

// SlotSource answers the indexed slot every answer is bounded by: the
// process's one cache of it (checkpoint.SlotCache), as the JSON-RPC
// methods read it, so a request does not read the checkpoint again.
type SlotSource interface {
	IndexedSlot(ctx context.Context) (uint64, error)
}

// Register serves the endpoints on srv from s.
func Register(srv Server, s store.Querier, slots SlotSource) error {
	if err := srv.HandleREST(PathTransactions, Transactions(s, slots)); err != nil {
		return err
	}
	if err := srv.HandleREST(PathHistory, History(s, slots)); err != nil {
		return err
	}
	gql, err := GraphQL(s, slots)
	if err != nil {
		return err
	}
	return srv.HandleREST(PathGraphQL, gql)
}

// object reads a JSON object whose members must all be among allowed;
// members that are null count as absent. where names it in errors.
func object(raw []byte, where string, allowed ...string) (map[string]json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, rest.BadRequest("%s: must be a JSON object", where)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, rest.BadRequest("%s: malformed JSON", where)
	}
	ok := make(map[string]bool, len(allowed))
	for _, a := range allowed {
		ok[a] = true
	}
	for k, v := range m {
		if !ok[k] {
			return nil, rest.BadRequest("%s: unknown field %q", where, k)
		}
		if string(bytes.TrimSpace(v)) == "null" {
			delete(m, k)
		}
	}
	return m, nil
}

// field decodes member name of m into dst when present; want describes
// the expected value for the error.
func field(m map[string]json.RawMessage, prefix, name string, dst any, want string) (bool, error) {
	v, ok := m[name]
	if !ok {
		return false, nil
	}
	if err := json.Unmarshal(v, dst); err != nil {
		return true, rest.BadRequest("%s%s: must be %s", prefix, name, want)
	}
	return true, nil
}

// commitment checks the commitment member: confirmed (the default) or
// finalized. Both read the same indexed store.
func commitment(m map[string]json.RawMessage) error {
	var c string
	if ok, err := field(m, "", "commitment", &c, "a string"); err != nil || !ok {
		return err
	}
	if c != "confirmed" && c != "finalized" {
		return rest.BadRequest("commitment: must be confirmed or finalized, not %q", c)
	}
	return nil
}

// withRaw reads includeRawTransaction.
func withRaw(m map[string]json.RawMessage) (bool, error) {
	var b bool
	_, err := field(m, "", "includeRawTransaction", &b, "true or false")
	return b, err
}

// appendRaw adds rawTransaction to a parsed document (a JSON object).
func appendRaw(doc, raw []byte) []byte {
	doc = bytes.TrimRight(doc, " \n")
	if len(raw) == 0 || len(doc) < 2 || doc[len(doc)-1] != '}' {
		return doc
	}
	out := make([]byte, 0, len(doc)+len(raw)+20)
	out = append(out, doc[:len(doc)-1]...)
	out = append(out, `,"rawTransaction":`...)
	out = append(out, raw...)
	return append(out, '}')
}

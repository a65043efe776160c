package parsedevents

import (
	"bytes"
	"context"
	"errors"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/goccy/go-json"
	graphql "github.com/graph-gophers/graphql-go"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/query/parsedevents"
	"github.com/dasch-labs/dasch/server/rest"
	"github.com/dasch-labs/dasch/store"
)

// PathGraphQL is the GraphQL endpoint.
const PathGraphQL = "/v1/parsed-events/graphql"

// schemaText is the GraphQL schema. Slots, fees and times are Float: a
// GraphQL Int is 32 bits, and a Float holds every integer to 2^53.
const schemaText = `
scalar JSON

enum Commitment { CONFIRMED FINALIZED }
enum SortOrder { ASC DESC }

input Range { gt: Float, gte: Float, lt: Float, lte: Float }

type Transaction {
	signature: String!
	slot: Float!
	timestamp: Float
	fee: Float!
	feePayer: String!
	type: String!
	description: String!
	source: String!
	transactionStatus: String!
	transactionError: JSON
	nativeTransfers: JSON!
	tokenTransfers: JSON!
	accountData: JSON!
	instructions: JSON!
	"The transaction as ingested; read only when selected."
	rawTransaction: JSON
}

type TransactionResult {
	signature: String!
	parserStatus: String!
	parsed: Transaction
	parserError: String
}

type TransactionPage {
	data: [Transaction!]!
	paginationToken: String
}

type Query {
	transactions(signatures: [String!]!, commitment: Commitment = CONFIRMED): [TransactionResult!]!
	transactionsByAddress(address: String!, limit: Int = 100, beforeSignature: String, afterSignature: String,
		paginationToken: String, sortOrder: SortOrder = DESC, commitment: Commitment = CONFIRMED,
		slot: Range, time: Range): TransactionPage!
}
`

// Query depth and size bounds: the schema nests three levels, and every
// list is bounded by its arguments (100 signatures, 100 items).
const (
	maxDepth      = 6
	maxQueryBytes = 16 << 10
)

// GraphQL answers POST /v1/parsed-events/graphql: {query, variables,
// operationName}, the two queries of the REST endpoints. Errors carry
// extensions.code: BAD_REQUEST, SERVICE_UNAVAILABLE or
// INTERNAL_SERVER_ERROR.
func GraphQL(s store.Querier, slots SlotSource) (rest.Handler, error) {
	schema, err := graphql.ParseSchema(schemaText, &root{s: s, slots: slots},
		graphql.MaxDepth(maxDepth), graphql.MaxQueryLength(maxQueryBytes), graphql.DisableIntrospection())
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, _ string, body []byte) ([]byte, error) {
		m, err := object(body, "body", "query", "variables", "operationName")
		if err != nil {
			return nil, err
		}
		var q, op string
		var vars map[string]any
		if ok, err := field(m, "", "query", &q, "a string"); err != nil {
			return nil, err
		} else if !ok || strings.TrimSpace(q) == "" {
			return nil, rest.BadRequest("query: required")
		}
		if _, err := field(m, "", "operationName", &op, "a string"); err != nil {
			return nil, err
		}
		if _, err := field(m, "", "variables", &vars, "an object"); err != nil {
			return nil, err
		}
		resp := schema.Exec(ctx, q, op, vars)
		for _, e := range resp.Errors {
			if e.Extensions == nil {
				// Parse and validation errors: the request is wrong.
				e.Extensions = map[string]any{"code": "BAD_REQUEST"}
			}
		}
		return json.Marshal(resp)
	}, nil
}

// gqlError is a resolver error with its code.
type gqlError struct {
	msg, code string
}

func (e *gqlError) Error() string              { return e.msg }
func (e *gqlError) Extensions() map[string]any { return map[string]any{"code": e.code} }
func toGQL(err error) error {
	var re *rest.Error
	switch {
	case errors.As(err, &re):
		return &gqlError{msg: re.Message, code: "BAD_REQUEST"}
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return &gqlError{msg: "Service unavailable: the request ran out of time", code: "SERVICE_UNAVAILABLE"}
	default:
		return &gqlError{msg: "Internal error", code: "INTERNAL_SERVER_ERROR"}
	}
}

// JSON is a scalar that is any JSON value, answered as stored.
type JSON struct{ raw json.RawMessage }

// ImplementsGraphQLType names the scalar.
func (JSON) ImplementsGraphQLType(name string) bool { return name == "JSON" }

// UnmarshalGraphQL refuses input: JSON is only answered.
func (*JSON) UnmarshalGraphQL(any) error { return errors.New("JSON is an output type") }

// MarshalJSON writes the value as stored.
func (j JSON) MarshalJSON() ([]byte, error) {
	if len(j.raw) == 0 {
		return []byte("null"), nil
	}
	return j.raw, nil
}

type root struct {
	s     store.Querier
	slots SlotSource
}

type rangeArg struct {
	Gt, Gte, Lt, Lte *float64
}

// body turns GraphQL arguments into the REST body they mean, so both read
// the same way and fail with the same messages.
func body(m map[string]any) []byte {
	b, _ := json.Marshal(m)
	return b
}

func (r *root) Transactions(ctx context.Context, args struct {
	Signatures []string
	Commitment string
}) ([]*resultResolver, error) {
	lk, err := readTransactions(ctx, r.s, r.slots, body(map[string]any{"transactions": args.Signatures, "commitment": strings.ToLower(args.Commitment)}), false)
	if err != nil {
		return nil, toGQL(err)
	}
	raw := &rawLoader{s: r.s}
	out := make([]*resultResolver, len(lk.sigs))
	for i, sig := range lk.sigs {
		out[i] = &resultResolver{sig: lk.strs[i]}
		if d := lk.docs[sig]; d != nil {
			t, err := newTx(sig, d, raw)
			if err != nil {
				return nil, toGQL(err)
			}
			out[i].tx = t
		}
	}
	return out, nil
}

func (r *root) TransactionsByAddress(ctx context.Context, args struct {
	Address         string
	Limit           int32
	BeforeSignature *string
	AfterSignature  *string
	PaginationToken *string
	SortOrder       string
	Commitment      string
	Slot            *rangeArg
	Time            *rangeArg
}) (*pageResolver, error) {
	m := map[string]any{"address": args.Address, "sortOrder": strings.ToLower(args.SortOrder), "commitment": strings.ToLower(args.Commitment)}
	m["limit"] = args.Limit
	for k, v := range map[string]*string{"beforeSignature": args.BeforeSignature, "afterSignature": args.AfterSignature, "paginationToken": args.PaginationToken} {
		if v != nil {
			m[k] = *v
		}
	}
	for k, v := range map[string]*rangeArg{"slot": args.Slot, "time": args.Time} {
		if v == nil {
			continue
		}
		rm := map[string]any{}
		for name, x := range map[string]*float64{"gt": v.Gt, "gte": v.Gte, "lt": v.Lt, "lte": v.Lte} {
			if x != nil {
				rm[name] = number(*x)
			}
		}
		m[k] = rm
	}
	pg, _, err := readHistory(ctx, r.s, r.slots, body(m))
	if err != nil {
		return nil, toGQL(err)
	}
	raw := &rawLoader{s: r.s}
	out := &pageResolver{token: pg.token}
	for _, d := range pg.docs {
		var head struct {
			Signature string `json:"signature"`
		}
		if err := json.Unmarshal(d.Parsed, &head); err != nil {
			return nil, toGQL(err)
		}
		sig, err := solana.ParseSignature(head.Signature)
		if err != nil {
			return nil, toGQL(err)
		}
		t, err := newTx(sig, d, raw)
		if err != nil {
			return nil, toGQL(err)
		}
		out.data = append(out.data, t)
	}
	return out, nil
}

// number is x as the REST body would give it: an integer when it is one,
// else as it is, which the REST reader refuses as not an integer.
func number(x float64) any {
	if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
		return json.Number(strconv.FormatInt(int64(x), 10))
	}
	return x
}

type resultResolver struct {
	sig string
	tx  *txResolver
}

func (r *resultResolver) Signature() string { return r.sig }
func (r *resultResolver) ParserStatus() string {
	if r.tx == nil {
		return "ERROR"
	}
	return "OK"
}
func (r *resultResolver) Parsed() *txResolver { return r.tx }
func (r *resultResolver) ParserError() *string {
	if r.tx != nil {
		return nil
	}
	s := notFound
	return &s
}

type pageResolver struct {
	data  []*txResolver
	token string
}

func (p *pageResolver) Data() []*txResolver { return p.data }
func (p *pageResolver) PaginationToken() *string {
	if p.token == "" {
		return nil
	}
	return &p.token
}

// doc is a stored parsed transaction, its nested parts kept as JSON.
type doc struct {
	Signature         string          `json:"signature"`
	Slot              float64         `json:"slot"`
	Timestamp         *float64        `json:"timestamp"`
	Fee               float64         `json:"fee"`
	FeePayer          string          `json:"feePayer"`
	Type              string          `json:"type"`
	Description       string          `json:"description"`
	Source            string          `json:"source"`
	TransactionStatus string          `json:"transactionStatus"`
	TransactionError  json.RawMessage `json:"transactionError"`
	NativeTransfers   json.RawMessage `json:"nativeTransfers"`
	TokenTransfers    json.RawMessage `json:"tokenTransfers"`
	AccountData       json.RawMessage `json:"accountData"`
	Instructions      json.RawMessage `json:"instructions"`
}

type txResolver struct {
	sig solana.Signature
	d   doc
	raw *rawLoader
}

func newTx(sig solana.Signature, d *parsedevents.Doc, raw *rawLoader) (*txResolver, error) {
	t := &txResolver{sig: sig, raw: raw}
	if err := json.Unmarshal(d.Parsed, &t.d); err != nil {
		return nil, err
	}
	raw.sigs = append(raw.sigs, sig)
	return t, nil
}

func (t *txResolver) Signature() string         { return t.d.Signature }
func (t *txResolver) Slot() float64             { return t.d.Slot }
func (t *txResolver) Timestamp() *float64       { return t.d.Timestamp }
func (t *txResolver) Fee() float64              { return t.d.Fee }
func (t *txResolver) FeePayer() string          { return t.d.FeePayer }
func (t *txResolver) Type() string              { return t.d.Type }
func (t *txResolver) Description() string       { return t.d.Description }
func (t *txResolver) Source() string            { return t.d.Source }
func (t *txResolver) TransactionStatus() string { return t.d.TransactionStatus }
func (t *txResolver) TransactionError() *JSON   { return optJSON(t.d.TransactionError) }
func (t *txResolver) NativeTransfers() JSON     { return JSON{t.d.NativeTransfers} }
func (t *txResolver) TokenTransfers() JSON      { return JSON{t.d.TokenTransfers} }
func (t *txResolver) AccountData() JSON         { return JSON{t.d.AccountData} }
func (t *txResolver) Instructions() JSON        { return JSON{t.d.Instructions} }

// RawTransaction is read for every transaction of the answer at once, the
// first time one is asked for.
func (t *txResolver) RawTransaction(ctx context.Context) (*JSON, error) {
	raws, err := t.raw.load(ctx)
	if err != nil {
		return nil, toGQL(err)
	}
	return optJSON(raws[t.sig]), nil
}

func optJSON(b json.RawMessage) *JSON {
	if len(bytes.TrimSpace(b)) == 0 || string(bytes.TrimSpace(b)) == "null" {
		return nil
	}
	return &JSON{b}
}

// rawLoader reads the raw transactions of one answer in one lookup.
type rawLoader struct {
	s    store.Querier
	sigs []solana.Signature
	once sync.Once
	raws map[solana.Signature]json.RawMessage
	err  error
}

func (l *rawLoader) load(ctx context.Context) (map[solana.Signature]json.RawMessage, error) {
	l.once.Do(func() {
		docs, err := parsedevents.Transactions(ctx, l.s, unique(l.sigs), true)
		if err != nil {
			l.err = err
			return
		}
		l.raws = make(map[solana.Signature]json.RawMessage, len(docs))
		for sig, d := range docs {
			l.raws[sig] = d.Raw
		}
	})
	return l.raws, l.err
}

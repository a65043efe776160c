package parsedevents_test

import (
	"bytes"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/api/parsedevents"
)

type gqlAnswer struct {
	Data   json.RawMessage `json:"data"`
	Errors []struct {
		Message    string         `json:"message"`
		Extensions map[string]any `json:"extensions"`
	} `json:"errors"`
}

func (e *env) gql(query string, vars map[string]any) gqlAnswer {
	e.t.Helper()
	b, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		e.t.Fatal(err)
	}
	status, body := e.post(parsedevents.PathGraphQL, string(b))
	if status != http.StatusOK {
		e.t.Fatalf("status %d: %s", status, body)
	}
	var a gqlAnswer
	if err := json.Unmarshal(body, &a); err != nil {
		e.t.Fatal(err)
	}
	return a
}

func testGraphQL(t *testing.T, e *env, addr string, want []string) {
	e.t = t
	a := e.gql(`query($s: [String!]!) { transactions(signatures: $s, commitment: FINALIZED) {
		signature parserStatus parserError parsed { signature slot fee type tokenTransfers rawTransaction } } }`,
		map[string]any{"s": []string{wsolSig, unknown, wsolSig}})
	if len(a.Errors) > 0 {
		t.Fatalf("errors %+v", a.Errors)
	}
	var tx struct {
		Transactions []struct {
			Signature, ParserStatus string
			ParserError             *string
			Parsed                  *struct {
				Signature      string
				Slot, Fee      float64
				Type           string
				TokenTransfers []map[string]any
				RawTransaction json.RawMessage
			}
		}
	}
	if err := json.Unmarshal(a.Data, &tx); err != nil {
		t.Fatal(err)
	}
	if len(tx.Transactions) != 3 {
		t.Fatalf("%d results", len(tx.Transactions))
	}
	for _, i := range []int{0, 2} {
		r := tx.Transactions[i]
		if r.ParserStatus != "OK" || r.Parsed == nil || r.Parsed.Signature != wsolSig || r.Parsed.Fee != 7410 ||
			r.Parsed.Slot != 270893658 || len(r.Parsed.TokenTransfers) != 2 || !bytes.Contains(r.Parsed.RawTransaction, []byte(`"meta"`)) {
			t.Errorf("result %d: %+v", i, r)
		}
	}
	if r := tx.Transactions[1]; r.ParserStatus != "ERROR" || r.Parsed != nil || r.ParserError == nil {
		t.Errorf("unknown signature: %+v", r)
	}

	// Paging by address, to the end.
	var got []string
	var tok any
	for n := 0; ; n++ {
		a := e.gql(`query($a: String!, $t: String) { transactionsByAddress(address: $a, limit: 3, paginationToken: $t) {
			data { signature } paginationToken } }`, map[string]any{"a": addr, "t": tok})
		if len(a.Errors) > 0 || n > 100 {
			t.Fatalf("page %d: %+v", n, a.Errors)
		}
		var p struct {
			TransactionsByAddress struct {
				Data            []struct{ Signature string }
				PaginationToken *string
			}
		}
		if err := json.Unmarshal(a.Data, &p); err != nil {
			t.Fatal(err)
		}
		for _, d := range p.TransactionsByAddress.Data {
			got = append(got, d.Signature)
		}
		if p.TransactionsByAddress.PaginationToken == nil {
			break
		}
		tok = *p.TransactionsByAddress.PaginationToken
	}
	if !slices.Equal(got, want) {
		t.Errorf("GraphQL pages %v\nwant %v", got, want)
	}
	asc := e.gql(fmt.Sprintf(`{ transactionsByAddress(address: %q, limit: 2, sortOrder: ASC, slot: {gte: 0}) { data { signature } } }`, addr), nil)
	if !bytes.Contains(asc.Data, []byte(want[len(want)-1])) || len(asc.Errors) > 0 {
		t.Errorf("ascending first page %s %+v", asc.Data, asc.Errors)
	}

	for _, tc := range []struct {
		query, want string
	}{
		{`{ transactionsByAddress(address: "abc") { paginationToken } }`, "address: not a base58 address"},
		{fmt.Sprintf(`{ transactionsByAddress(address: %q, limit: 0) { paginationToken } }`, addr), "limit: must be an integer from 1 to 100"},
		{fmt.Sprintf(`{ transactionsByAddress(address: %q, slot: {gt: 1.5}) { paginationToken } }`, addr), "slot.gt: must be an integer"},
		{fmt.Sprintf(`{ transactionsByAddress(address: %q, paginationToken: "x") { paginationToken } }`, addr), "paginationToken: must be"},
		{`{ transactions(signatures: []) { signature } }`, "transactions: must hold 1 to 100 signatures, got 0"},
		{`{ transactions(signatures: ["x0"]) { signature } }`, "transactions[0]: not a base58 signature"},
		{`{ transactions(signatures: ["` + wsolSig + `"]) { nope } }`, "nope"},
		{`{ transactions(`, "syntax error"},
	} {
		a := e.gql(tc.query, nil)
		if len(a.Errors) == 0 || !strings.Contains(a.Errors[0].Message, tc.want) || a.Errors[0].Extensions["code"] != "BAD_REQUEST" {
			t.Errorf("%s: %+v, want BAD_REQUEST with %q", tc.query, a.Errors, tc.want)
		}
	}
	for _, tc := range []struct{ body, want string }{
		{`{"query":"{ x }","extra":1}`, `body: unknown field \"extra\"`},
		{`{"variables":{}}`, "query: required"},
		{`{"query":"{ x }","variables":[1]}`, "variables: must be an object"},
	} {
		status, body := e.post(parsedevents.PathGraphQL, tc.body)
		if status != http.StatusBadRequest || !strings.Contains(string(body), tc.want) {
			t.Errorf("%s: %d %s, want 400 with %q", tc.body, status, body, tc.want)
		}
	}
}

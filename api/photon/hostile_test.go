package photon

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/goccy/go-json"
	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/internal/rpctest"
	"github.com/dasch-labs/dasch/server/jsonrpc"
	"github.com/dasch-labs/dasch/store"
)

// TestHostileParams sends every registered method params of every wrong
// shape, then its own params (learnt from its unknown-field message) with
// the others plausible and one of them given values of every wrong type,
// and checks each answer is a result or a client error: no panic, and no
// internal error (a store failure or a bug reaching the client). It
// asserts nothing about which client error; the per-method tests do.
func TestHostileParams(t *testing.T) {
	e := newEnv(t, true)
	// One account of every kind under key(1), so that queries have rows
	// to evaluate their expressions on (an empty table skips them).
	no, k1 := false, key(1)
	e.insertAccount("compressed_accounts", 1, 1, 1, 1, 5, nil, &k1)
	e.insertAccount("compressed_by_owner", 1, 1, 1, 1, 5, &no, &k1)
	e.insertAccount("token_accounts", 1, 1, 1, 1, 5, &no, &k1)
	e.exec(`INSERT INTO mint_holders (mint, balance, owner, version, is_deleted) VALUES ({k:FixedString(32)}, 5, {k:FixedString(32)}, 1, 0)`,
		store.Params{"k": raw(k1)})
	e.exec(`INSERT INTO token_balances (owner, mint, balance, version) VALUES ({k:FixedString(32)}, {k:FixedString(32)}, 5, 1)`,
		store.Params{"k": raw(k1)})
	k := keyB58(k1)
	sig := base58.Encode(bytes.Repeat([]byte{7}, 64))
	long := `"` + strings.Repeat("z", 3000) + `"`
	deep := strings.Repeat("[", 5000) + strings.Repeat("]", 5000)
	whole := []string{
		``, `null`, `"x"`, `5`, `true`, `{}`, `[]`, `[null]`, `[null,null,null,null,null,null,null]`,
		`[1,2,3]`, `[[]]`, `[{}]`, `{"x":1}`, `[` + long + `]`, deep, `{"a":` + deep + `}`,
	}
	// A plausible value of each field name the methods take.
	plausible := map[string]string{
		"hash": `"` + k + `"`, "address": `"` + k + `"`, "owner": `"` + k + `"`, "mint": `"` + k + `"`,
		"delegate": `"` + k + `"`, "hashes": `["` + k + `"]`, "addresses": `["` + k + `"]`,
		"newAddresses": `["` + k + `"]`, "newAddressesWithTrees": `[{"address":"` + k + `","tree":"` + k + `"}]`,
		"limit": `10`, "filters": `[{"memcmp":{"offset":0,"bytes":"2"}}]`, "dataSlice": `{"offset":0,"length":1}`,
		"signature": `"` + sig + `"`, "showZeroBalance": `true`,
		// No cursor: one would skip the rows, and its length differs by
		// method.
		"cursor": ``,
	}
	values := []string{
		`null`, `5`, `-1`, `0`, `1.5`, `1e400`, `18446744073709551615`, `18446744073709551616`, `true`, `""`,
		`"0OIl"`, long, `"` + k + `"`, `"` + k + k + `"`, `"` + sig + `"`, `[]`, `[5]`, `[""]`, `["` + k + `"]`,
		`[null]`, `[{}]`, `{}`, `{"offset":"x"}`, `{"offset":18446744073709551615,"length":18446744073709551615}`,
		`[{"memcmp":{"offset":18446744073709551615,"bytes":"2"}}]`, `[{"memcmp":null}]`,
		`[{"address":"` + k + `","tree":5}]`, `[{"address":"` + k + `"}]`, deep,
	}
	methods := e.reg.Methods()
	if len(methods) < 20 {
		t.Fatalf("%d methods registered, want every Photon method", len(methods))
	}
	results := 0
	for _, m := range methods {
		h, _ := e.reg.Lookup(m)
		t.Run(m, func(t *testing.T) {
			cases := append([]string(nil), whole...)
			for _, v := range values { // the methods that take a list
				cases = append(cases, `[`+v+`]`, `["`+k+`",`+v+`]`)
			}
			fields := methodFields(t, h, m)
			for _, f := range fields {
				if _, ok := plausible[f]; !ok {
					t.Fatalf("no plausible value for field %q: add one", f)
				}
			}
			for _, f := range fields {
				for _, v := range values {
					cases = append(cases, `{"`+f+`":`+v+`}`)
					members := []string{`"` + f + `":` + v}
					for _, o := range fields {
						if o != f && plausible[o] != "" {
							members = append(members, `"`+o+`":`+plausible[o])
						}
					}
					cases = append(cases, `{`+strings.Join(members, ",")+`}`)
				}
			}
			for _, p := range cases {
				ok, err := hostileCall(h, m, p)
				if err != nil {
					t.Errorf("params %.200s: %v", p, err)
				}
				if ok {
					results++
				}
			}
		})
	}
	// The plausible params reach the store and answer: the cases test the
	// whole path, not only the decoding.
	if results < 100 {
		t.Errorf("%d calls answered with a result, want the plausible ones (at least 100)", results)
	}
}

// methodFields learns a method's param names from its answer to an
// unknown one ("unknown field `x`, expected one of `a`, `b`").
func methodFields(t *testing.T, h jsonrpc.Handler, method string) []string {
	t.Helper()
	_, err := h(context.Background(), &jsonrpc.Call{Method: method, Params: json.RawMessage(`{"zzz":1}`)})
	var je *jsonrpc.Error
	if !errors.As(err, &je) {
		return nil // takes anything (getIndexerHealth)
	}
	_, list, ok := strings.Cut(je.Message, "unknown field `zzz`, expected ")
	if !ok {
		return nil // takes a list
	}
	var out []string
	for i, f := range strings.Split(list, "`") {
		if i%2 == 1 {
			out = append(out, f)
		}
	}
	return out
}

// hostileCall runs one call, returning whether it answered with a result
// and what is wrong with its outcome.
func hostileCall(h jsonrpc.Handler, method, params string) (ok bool, err error) {
	je, err := rpctest.Call(h, method, params)
	if err != nil || je == nil {
		return err == nil, err
	}
	// Photon's methods answer a failure of theirs as -32000 "Internal
	// server error" (see TestInternalErrorsArePhotons).
	if je.Code == jsonrpc.CodeInternalError || strings.Contains(je.Message, "Internal server error") {
		return false, fmt.Errorf("internal error: %s", je.Message)
	}
	return false, nil
}

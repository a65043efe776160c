package photon

import (
	"context"
	"errors"
	"log/slog"
	"reflect"
	"strings"
	"testing"

	"github.com/goccy/go-json"
	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/server/jsonrpc"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// insertAccount writes one account row into table (a compressed table with
// a spent column, or compressed_accounts when spent is nil).
func (e *env) insertAccount(table string, hash, owner, mint, tokenOwner byte, amount uint64, spent *bool, address *compressed.Key) {
	e.t.Helper()
	cols := `hash, tree, queue, tree_type, leaf_index, seq, in_output_queue, slot_created, owner, lamports, address,
		discriminator, data, data_hash, is_token, mint, token_owner, amount, token_state`
	vals := `{h:FixedString(32)}, {tree:FixedString(32)}, {queue:FixedString(32)}, 1, 6, 7, false, 0, {o:FixedString(32)}, 0,
		ADDR, 2, unhex('0102'), {dh:FixedString(32)}, true, {m:FixedString(32)}, {to:FixedString(32)}, {a:UInt64}, 0`
	p := store.Params{"h": raw(key(hash)), "tree": raw(key(200)), "queue": raw(key(201)), "o": raw(key(owner)),
		"dh": raw(key(99)), "m": raw(key(mint)), "to": raw(key(tokenOwner)), "a": u(amount)}
	// A literal NULL: this builds test fixtures, not request input.
	addr := "NULL"
	if address != nil {
		addr, p["addr"] = "{addr:FixedString(32)}", raw(*address)
	}
	vals = strings.Replace(vals, "ADDR", addr, 1)
	if spent != nil {
		cols += ", spent"
		vals += ", {spent:Bool}"
		p["spent"] = "false"
		if *spent {
			p["spent"] = "true"
		}
	}
	e.exec("INSERT INTO "+table+" ("+cols+") VALUES ("+vals+")", p)
}

func asJSON(t *testing.T, s string) any { return decodeJSON(t, []byte(s)) }

func TestTokenAccountShapes(t *testing.T) {
	e := newEnv(t, true)
	no := false
	e.insertAccount("token_accounts", 5, 250, 3, 1, 18446744073709551615, &no, nil)
	acc := `"hash":"` + keyB58(key(5)) + `","address":null,"data":{"discriminator":2,"data":"AQI=","dataHash":"` + keyB58(key(99)) + `"},` +
		`"owner":"` + keyB58(key(250)) + `","lamports":0`
	tok := `"tokenData":{"mint":"` + keyB58(key(3)) + `","owner":"` + keyB58(key(1)) + `","amount":18446744073709551615,"delegate":null,"state":"initialized","tlv":null}`
	v1 := `{"context":{"slot":7},"value":{"items":[{"account":{` + acc + `,"tree":"` + keyB58(key(200)) + `","leafIndex":6,"seq":7,"slotCreated":0},` + tok + `}],"cursor":null}}`
	v2 := `{"context":{"slot":7},"value":{"items":[{"account":{` + acc + `,"leafIndex":6,"seq":7,"slotCreated":0,"proveByIndex":false,` +
		`"merkleContext":{"treeType":1,"tree":"` + keyB58(key(200)) + `","queue":"` + keyB58(key(201)) + `","cpiContext":null,"nextTreeContext":null}},` + tok + `}],"cursor":null}}`
	params := `{"owner":"` + keyB58(key(1)) + `"}`
	if got := e.mustCall("getCompressedTokenAccountsByOwner", params); !reflect.DeepEqual(got, asJSON(t, v1)) {
		t.Errorf("V1:\n got %v\nwant %v", got, asJSON(t, v1))
	}
	if got := e.mustCall("getCompressedTokenAccountsByOwnerV2", params); !reflect.DeepEqual(got, asJSON(t, v2)) {
		t.Errorf("V2:\n got %v\nwant %v", got, asJSON(t, v2))
	}
	full := e.mustCall("getCompressedTokenAccountsByOwner", `{"owner":"`+keyB58(key(1))+`","limit":1}`)
	cur := full.(map[string]any)["value"].(map[string]any)["cursor"].(string)
	rc, _ := base58.Decode(cur)
	if len(rc) != 64 || string(rc[:32]) != raw(key(3)) || string(rc[32:]) != raw(key(5)) {
		t.Errorf("cursor %s is not mint‖hash", cur)
	}
}

// pages follows cursors with the given limit and returns every item.
func (e *env) pages(method, base, listKey string, limit int) []any {
	e.t.Helper()
	var all []any
	cursor := ""
	for range 100 {
		p := base + `,"limit":` + itoa(limit)
		if cursor != "" {
			p += `,"cursor":"` + cursor + `"`
		}
		v := e.mustCall(method, "{"+p+"}").(map[string]any)["value"].(map[string]any)
		items := v[listKey].([]any)
		all = append(all, items...)
		next, _ := v["cursor"].(string)
		if (next != "") != (len(items) == limit) {
			e.t.Fatalf("%s: cursor %q with %d items of %d", method, next, len(items), limit)
		}
		if next == "" {
			return all
		}
		cursor = next
	}
	e.t.Fatalf("%s: no end after 100 pages", method)
	return nil
}

func TestPagingAgreesWithOrder(t *testing.T) {
	e := newEnv(t, true)
	no, yes := false, true
	for _, h := range []byte{9, 3, 200, 4} {
		e.insertAccount("token_accounts", h, 250, h%2, 1, uint64(h), &no, nil)
		e.insertAccount("compressed_by_owner", h, 40, 0, 0, 0, &no, nil)
	}
	e.insertAccount("token_accounts", 4, 250, 0, 1, 4, &yes, nil)
	for i, b := range []uint64{50, 50, 7, 0, 300} {
		e.exec(`INSERT INTO mint_holders (mint, balance, owner, version, is_deleted) VALUES ({m:FixedString(32)}, {b:UInt64}, {o:FixedString(32)}, 1, 0)`,
			store.Params{"m": raw(key(8)), "b": u(b), "o": raw(key(byte(10 + i)))})
		e.exec(`INSERT INTO token_balances (owner, mint, balance, version) VALUES ({o:FixedString(32)}, {m:FixedString(32)}, {b:UInt64}, 1)`,
			store.Params{"o": raw(key(1)), "m": raw(key(byte(10 + i))), "b": u(b)})
	}
	for _, tt := range []struct {
		method, base, listKey string
		want                  int
	}{
		{"getCompressedTokenAccountsByOwner", `"owner":"` + keyB58(key(1)) + `"`, "items", 3},
		{"getCompressedTokenAccountsByOwnerV2", `"owner":"` + keyB58(key(1)) + `"`, "items", 3},
		{"getCompressedAccountsByOwner", `"owner":"` + keyB58(key(40)) + `"`, "items", 4},
		{"getCompressedMintTokenHolders", `"mint":"` + keyB58(key(8)) + `"`, "items", 4},
		{"getCompressedMintTokenHolders", `"mint":"` + keyB58(key(8)) + `","showZeroBalance":true`, "items", 5},
		{"getCompressedTokenBalancesByOwner", `"owner":"` + keyB58(key(1)) + `"`, "token_balances", 4},
		{"getCompressedTokenBalancesByOwnerV2", `"owner":"` + keyB58(key(1)) + `","showZeroBalance":true`, "items", 5},
	} {
		t.Run(tt.method+" "+tt.base, func(t *testing.T) {
			one := e.pages(tt.method, tt.base, tt.listKey, 1000)
			if len(one) != tt.want {
				t.Fatalf("%d items, want %d: %v", len(one), tt.want, one)
			}
			for _, limit := range []int{1, 2, 3} {
				if got := e.pages(tt.method, tt.base, tt.listKey, limit); !reflect.DeepEqual(got, one) {
					t.Errorf("limit %d pages give %v, one page %v", limit, got, one)
				}
			}
		})
	}
	holders := e.mustCall("getCompressedMintTokenHolders", `{"mint":"`+keyB58(key(8))+`"}`)
	want := asJSON(t, `{"context":{"slot":7},"value":{"items":[
		{"owner":"`+keyB58(key(14))+`","balance":300},{"owner":"`+keyB58(key(11))+`","balance":50},
		{"owner":"`+keyB58(key(10))+`","balance":50},{"owner":"`+keyB58(key(12))+`","balance":7}],"cursor":null}}`)
	if !reflect.DeepEqual(holders, want) {
		t.Errorf("holders: %v", holders)
	}
}

func TestBalanceMintFilterWithCursor(t *testing.T) {
	e := newEnv(t, true)
	e.exec(`INSERT INTO token_balances (owner, mint, balance, version) VALUES ({o:FixedString(32)}, {m:FixedString(32)}, 105, 1)`,
		store.Params{"o": raw(key(1)), "m": raw(key(2))})
	base := `"owner":"` + keyB58(key(1)) + `","mint":"` + keyB58(key(2)) + `"`
	got := e.pages("getCompressedTokenBalancesByOwnerV2", base, "items", 1)
	if len(got) != 1 {
		t.Errorf("a mint filter with a cursor must page past the mint, got %v", got)
	}
}

func TestAccountLookups(t *testing.T) {
	e := newEnv(t, true)
	addr := key(77)
	e.insertAccount("compressed_accounts", 1, 30, 0, 0, 0, nil, nil)
	e.insertAccount("compressed_accounts", 2, 30, 3, 4, 55, nil, &addr)
	e.insertAccount("compressed_accounts", 5, 30, 0, 0, 0, nil, nil)
	e.exec(`INSERT INTO compressed_spent (hash, slot, signature) VALUES ({h:FixedString(32)}, 0, '')`, store.Params{"h": raw(key(5))})
	items := e.mustCall("getMultipleCompressedAccounts", `{"hashes":["`+keyB58(key(2))+`","`+keyB58(key(9))+`","`+keyB58(key(5))+`","`+keyB58(key(1))+`"]}`).(map[string]any)["value"].(map[string]any)["items"].([]any)
	if len(items) != 4 || items[1] != nil || items[2] != nil ||
		items[0].(map[string]any)["hash"] != keyB58(key(2)) || items[3].(map[string]any)["hash"] != keyB58(key(1)) {
		t.Errorf("items out of request order or spent shown: %v", items)
	}
	v := e.mustCall("getCompressedAccountV2", `{"address":"`+keyB58(addr)+`"}`).(map[string]any)["value"].(map[string]any)
	if v["hash"] != keyB58(key(2)) || v["address"] != keyB58(addr) {
		t.Errorf("by address: %v", v)
	}
	for _, tt := range []struct{ method, params, want string }{
		{"getCompressedAccount", `{"hash":"` + keyB58(key(5)) + `"}`, `null`},
		{"getCompressedBalance", `{"hash":"` + keyB58(key(9)) + `"}`, `0`},
		{"getCompressedTokenAccountBalance", `{"hash":"` + keyB58(key(2)) + `"}`, `{"amount":55}`},
		{"getCompressedTokenAccountBalance", `{"address":"` + keyB58(addr) + `"}`, `{"amount":55}`},
		{"getCompressedTokenAccountBalance", `{"hash":"` + keyB58(key(1)) + `"}`, `{"amount":0}`},
		{"getCompressedBalanceByOwner", `{"owner":"` + keyB58(key(30)) + `"}`, `0`},
	} {
		got := e.mustCall(tt.method, tt.params).(map[string]any)["value"]
		want := asJSON(t, tt.want)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s %s: %v, want %v", tt.method, tt.params, got, want)
		}
	}
}

type failingStore struct{ arrowstore.Store }

func (failingStore) Query(context.Context, string, store.Params) (*store.Result, error) {
	return nil, errors.New("disk on fire")
}

type fixedSlot uint64

func (s fixedSlot) ContextSlot(context.Context) (uint64, error) { return uint64(s), nil }

func TestInternalErrorsArePhotons(t *testing.T) {
	reg := jsonrpc.NewRegistry()
	Register(reg, Deps{Store: failingStore{}, Slots: fixedSlot(1), Logger: slog.New(slog.DiscardHandler)})
	h, _ := reg.Lookup("getCompressedMintTokenHolders")
	_, err := h(context.Background(), &jsonrpc.Call{Params: json.RawMessage(`{"mint":"` + keyB58(key(1)) + `"}`)})
	var je *jsonrpc.Error
	if !errors.As(err, &je) || je.Code != -32000 || je.Message != "Internal server error" || je.HTTPStatus != 0 {
		t.Errorf("err = %v, want -32000 Internal server error", err)
	}
}

func TestHealth(t *testing.T) {
	e := newEnv(t, true)
	if got := e.mustCall("getIndexerHealth", `{"anything":1}`); got != "ok" {
		t.Errorf("health = %v", got)
	}
	// Following a node: the indexed slot (7) against the node's newest.
	slow := func(ctx context.Context) (uint64, error) { <-ctx.Done(); return 0, ctx.Err() }
	for _, c := range []struct {
		name string
		tip  func(context.Context) (uint64, error)
		want string // "ok" or the error's message
	}{
		{"level", func(context.Context) (uint64, error) { return 7, nil }, "ok"},
		{"node behind the index", func(context.Context) (uint64, error) { return 3, nil }, "ok"},
		{"20 behind", func(context.Context) (uint64, error) { return 27, nil }, "ok"},
		{"21 behind", func(context.Context) (uint64, error) { return 28, nil }, "Node is behind 21 slots"},
		{"node fails", func(context.Context) (uint64, error) { return 0, errors.New("connection refused") }, "Internal server error"},
		{"node hangs", slow, "Internal server error"},
	} {
		t.Run(c.name, func(t *testing.T) {
			reg := jsonrpc.NewRegistry()
			Register(reg, Deps{Store: e.s, Slots: checkpoint.NewSlotCache(e.s, 0), Logger: slog.New(slog.DiscardHandler), Tip: c.tip})
			h, _ := reg.Lookup("getIndexerHealth")
			res, err := h(context.Background(), &jsonrpc.Call{Method: "getIndexerHealth"})
			var got string
			var je *jsonrpc.Error
			if errors.As(err, &je) {
				if je.Code != -32000 {
					t.Fatalf("code %d", je.Code)
				}
				got = je.Message
			} else if err != nil {
				t.Fatalf("err = %v", err)
			} else {
				got = strings.Trim(string(res.(json.RawMessage)), `"`)
			}
			if got != c.want {
				t.Fatalf("health = %q, want %q", got, c.want)
			}
		})
	}
}

func TestAccountsByOwnerFilters(t *testing.T) {
	e := newEnv(t, true)
	no := false
	e.insertAccount("compressed_by_owner", 1, 30, 0, 0, 0, &no, nil) // data 01 02
	for _, tt := range []struct {
		params string
		n      int
		data   string
	}{
		{`"filters":[{"memcmp":{"offset":1,"bytes":"` + base58.Encode([]byte{2}) + `"}}]`, 1, "AQI="},
		{`"filters":[{"memcmp":{"offset":0,"bytes":"` + base58.Encode([]byte{2}) + `"}}]`, 0, ""},
		// Past any data: no match, not offset + 1 wrapping to 0.
		{`"filters":[{"memcmp":{"offset":18446744073709551615,"bytes":"` + base58.Encode([]byte{2}) + `"}}]`, 0, ""},
		{`"filters":[{"memcmp":{"offset":4294967296,"bytes":"` + base58.Encode([]byte{2}) + `"}}]`, 0, ""},
		{`"dataSlice":{"offset":1,"length":5}`, 1, "Ag=="},
		{`"dataSlice":{"offset":2,"length":5}`, 1, ""},
	} {
		v := e.mustCall("getCompressedAccountsByOwnerV2", `{"owner":"`+keyB58(key(30))+`",`+tt.params+`}`)
		items := v.(map[string]any)["value"].(map[string]any)["items"].([]any)
		if len(items) != tt.n {
			t.Errorf("%s: %d items, want %d", tt.params, len(items), tt.n)
			continue
		}
		if tt.n == 1 {
			if got := items[0].(map[string]any)["data"].(map[string]any)["data"]; got != tt.data {
				t.Errorf("%s: data %v, want %q", tt.params, got, tt.data)
			}
		}
	}
}

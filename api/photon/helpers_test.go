package photon

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/goccy/go-json"
	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/server/jsonrpc"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

func TestMain(m *testing.M) {
	code := m.Run()
	storetest.Close()
	os.Exit(code)
}

// env is a store with slot 0 indexed and every method registered.
type env struct {
	t   *testing.T
	s   arrowstore.Store
	reg *jsonrpc.Registry
}

func newEnv(t *testing.T, indexed bool) *env {
	t.Helper()
	s := storetest.Open(t)
	if indexed {
		if err := s.Exec(context.Background(), "INSERT INTO indexer_checkpoints (name, slot) VALUES ('main', 7)", nil); err != nil {
			t.Fatal(err)
		}
	}
	reg := jsonrpc.NewRegistry()
	Register(reg, Deps{Store: s, Slots: checkpoint.NewSlotCache(s, time.Duration(0))})
	return &env{t: t, s: s, reg: reg}
}

// call runs method with params and returns the result as a generic JSON
// value (numbers kept exact) or the error.
func (e *env) call(method, params string) (any, *jsonrpc.Error) {
	e.t.Helper()
	h, ok := e.reg.Lookup(method)
	if !ok {
		e.t.Fatalf("%s not registered", method)
	}
	var raw json.RawMessage
	if params != "" {
		raw = json.RawMessage(params)
	}
	res, err := h(context.Background(), &jsonrpc.Call{Method: method, Params: raw})
	if err != nil {
		var je *jsonrpc.Error
		if !errors.As(err, &je) {
			e.t.Fatalf("%s: non-RPC error %v", method, err)
		}
		return nil, je
	}
	b, merr := json.Marshal(res)
	if merr != nil {
		e.t.Fatalf("%s: encode: %v", method, merr)
	}
	return decodeJSON(e.t, b), nil
}

func (e *env) mustCall(method, params string) any {
	e.t.Helper()
	v, err := e.call(method, params)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, params, err)
	}
	return v
}

func decodeJSON(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("invalid JSON %s: %v", b, err)
	}
	return v
}

func (e *env) exec(sql string, p store.Params) {
	e.t.Helper()
	if err := e.s.Exec(context.Background(), sql, p); err != nil {
		e.t.Fatalf("%s: %v", sql, err)
	}
}

func key(b byte) compressed.Key {
	var k compressed.Key
	k[0] = b
	for i := 1; i < len(k); i++ {
		k[i] = byte(i * 3)
	}
	return k
}

func keyB58(k compressed.Key) string { return base58.Encode(k[:]) }

func raw(k compressed.Key) string { return string(k[:]) }

func u(v uint64) string { return strconv.FormatUint(v, 10) }

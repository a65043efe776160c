package api

import (
	"context"
	"errors"
	"testing"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/server/jsonrpc"
)

type slotFunc func(context.Context) (uint64, error)

func (f slotFunc) IndexedSlot(ctx context.Context) (uint64, error) { return f(ctx) }

func TestGetIndexerSlot(t *testing.T) {
	reg := jsonrpc.NewRegistry()
	Register(reg, Deps{Slots: slotFunc(func(context.Context) (uint64, error) { return 18446744073709551615, nil })})
	h, ok := reg.Lookup("getIndexerSlot")
	if !ok {
		t.Fatal("getIndexerSlot not registered")
	}
	tests := []struct {
		params string
		err    string // InvalidParams message; empty for success
	}{
		{params: ""},
		{params: "null"},
		{params: "{}"},
		{params: "[]"},
		{params: " [ ] "},
		{params: `{"commitment":"finalized"}`, err: "unknown field `commitment`, there are no fields"},
		{params: `[1]`, err: "invalid length 1, expected no params"},
		{params: `"x"`, err: "params must be an object or an array"},
	}
	for _, tt := range tests {
		t.Run(tt.params, func(t *testing.T) {
			var params json.RawMessage
			if tt.params != "" {
				params = json.RawMessage(tt.params)
			}
			res, err := h(context.Background(), &jsonrpc.Call{Method: "getIndexerSlot", Params: params})
			if tt.err != "" {
				var je *jsonrpc.Error
				if !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams || je.Message != tt.err {
					t.Fatalf("err = %v, want invalid params %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(res)
			if err != nil || string(b) != "18446744073709551615" {
				t.Errorf("result encodes as %s (%v)", b, err)
			}
		})
	}
}

func TestGetIndexerSlotSourceError(t *testing.T) {
	boom := errors.New("clickhouse down")
	h := getIndexerSlot(slotFunc(func(context.Context) (uint64, error) { return 0, boom }))
	if _, err := h(context.Background(), &jsonrpc.Call{}); !errors.Is(err, boom) {
		t.Errorf("err = %v, want the source's error (the server hides it)", err)
	}
}

func TestRegisterNeedsSlots(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Register with no SlotSource did not panic")
		}
	}()
	Register(jsonrpc.NewRegistry(), Deps{})
}

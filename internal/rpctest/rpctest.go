// Package rpctest runs JSON-RPC method handlers the way the server does,
// for the API packages' hostile-input tests and fuzz targets.
package rpctest

import (
	"context"
	"errors"
	"fmt"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// Call runs h on params (empty: none). It returns the JSON-RPC error the
// client would get, nil for a result; err reports what would reach the
// client as a failure of the server: a panic, a result that does not
// encode, or an error that is not a JSON-RPC one (answered -32603).
func Call(h jsonrpc.Handler, method, params string) (rpcErr *jsonrpc.Error, err error) {
	defer func() {
		if r := recover(); r != nil {
			rpcErr, err = nil, fmt.Errorf("panic: %v", r)
		}
	}()
	var raw json.RawMessage
	if params != "" {
		raw = json.RawMessage(params)
	}
	res, herr := h(context.Background(), &jsonrpc.Call{Method: method, Params: raw})
	if herr == nil {
		if _, merr := json.Marshal(res); merr != nil {
			return nil, fmt.Errorf("result does not encode: %w", merr)
		}
		return nil, nil
	}
	if !errors.As(herr, &rpcErr) {
		return nil, fmt.Errorf("internal error (the client would get -32603): %w", herr)
	}
	return rpcErr, nil
}

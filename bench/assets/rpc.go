package assets

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/goccy/go-json"
	"github.com/mr-tron/base58"
	"github.com/valyala/fasthttp"

	"github.com/dasch-labs/dasch/ingest/solana"
)

// rpcClient talks JSON-RPC to a dasch server over loopback HTTP.
type rpcClient struct {
	hc  *fasthttp.Client
	url string
}

func newRPCClient(addr, apiKey string, conns int) *rpcClient {
	return &rpcClient{
		hc:  &fasthttp.Client{MaxConnsPerHost: conns, ReadTimeout: time.Minute, WriteTimeout: time.Minute},
		url: "http://" + addr + "/?api-key=" + apiKey,
	}
}

func getAssetBody(id solana.Pubkey) []byte {
	return []byte(`{"jsonrpc":"2.0","id":1,"method":"getAsset","params":{"id":"` + base58.Encode(id[:]) + `"}}`)
}

func getAssetBatchBody(ids []solana.Pubkey) []byte {
	b := []byte(`{"jsonrpc":"2.0","id":1,"method":"getAssetBatch","params":{"ids":[`)
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, base58.Encode(id[:])...)
		b = append(b, '"')
	}
	return append(b, `]}}`...)
}

// post sends one request and returns the response body (a copy). Only a
// JSON-RPC result counts as success: an error answer would otherwise be
// timed as a fast one.
func (c *rpcClient) post(ctx context.Context, body []byte) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	req.SetRequestURI(c.url)
	req.Header.SetMethod(fasthttp.MethodPost)
	req.Header.SetContentType("application/json")
	req.SetBodyRaw(body)
	deadline := time.Now().Add(time.Minute)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	if err := c.hc.DoDeadline(req, resp, deadline); err != nil {
		return nil, err
	}
	out := bytes.Clone(resp.Body())
	if resp.StatusCode() != fasthttp.StatusOK || !bytes.Contains(out, []byte(`"result"`)) {
		return nil, fmt.Errorf("HTTP %d: %s", resp.StatusCode(), abbrev(out))
	}
	return out, nil
}

func abbrev(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}

// answered is the part of an asset the first pass checks.
type answered struct {
	ID        string `json:"id"`
	Interface string `json:"interface"`
}

// getAsset requests one asset; with verify, the answer must be that asset.
func (c *rpcClient) getAsset(ctx context.Context, id solana.Pubkey, verify bool) error {
	body, err := c.post(ctx, getAssetBody(id))
	if err != nil || !verify {
		return err
	}
	var r struct {
		Result *answered `json:"result"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return fmt.Errorf("getAsset %s: decode answer: %w", id, err)
	}
	if r.Result == nil {
		return fmt.Errorf("getAsset %s: null result", id)
	}
	return sameAsset(id, r.Result)
}

// getAssetBatch requests ids; with verify, every position must hold its
// asset (no null).
func (c *rpcClient) getAssetBatch(ctx context.Context, ids []solana.Pubkey, verify bool) error {
	body, err := c.post(ctx, getAssetBatchBody(ids))
	if err != nil || !verify {
		return err
	}
	var r struct {
		Result []*answered `json:"result"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return fmt.Errorf("getAssetBatch: decode answer: %w", err)
	}
	if len(r.Result) != len(ids) {
		return fmt.Errorf("getAssetBatch: %d answers for %d ids", len(r.Result), len(ids))
	}
	for i, a := range r.Result {
		if a == nil {
			return fmt.Errorf("getAssetBatch: null for %s at %d", ids[i], i)
		}
		if err := sameAsset(ids[i], a); err != nil {
			return fmt.Errorf("getAssetBatch at %d: %w", i, err)
		}
	}
	return nil
}

func sameAsset(id solana.Pubkey, a *answered) error {
	if a.ID != base58.Encode(id[:]) {
		return fmt.Errorf("asked for %s, answered %q", id, a.ID)
	}
	if a.Interface == "" {
		return errors.New("asset " + a.ID + " without interface")
	}
	return nil
}

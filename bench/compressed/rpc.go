package compressed

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/goccy/go-json"
	"github.com/mr-tron/base58"
	"github.com/valyala/fasthttp"
)

// The Photon JSON-RPC methods the benchmark drives.
const (
	methodHolders  = "getCompressedMintTokenHolders"
	methodBalances = "getCompressedTokenBalancesByOwnerV2"
)

// pageLimit is Photon's default and maximum page size.
const pageLimit = 1000

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

// holdersBody and balancesBody are the request bodies, cursors encoded
// as Photon does (README section 8): holders base58(u64-LE balance ‖
// owner), balances base58(mint).
func holdersBody(mint [32]byte, cur *HolderCursor) []byte {
	b := []byte(`{"jsonrpc":"2.0","id":1,"method":"` + methodHolders + `","params":{"mint":"` + base58.Encode(mint[:]) + `"`)
	if cur != nil {
		var raw [40]byte
		binary.LittleEndian.PutUint64(raw[:8], cur.Balance)
		copy(raw[8:], cur.Owner[:])
		b = append(b, `,"cursor":"`+base58.Encode(raw[:])+`"`...)
	}
	return append(b, `,"limit":`+strconv.Itoa(pageLimit)+`}}`...)
}

func balancesBody(owner [32]byte) []byte {
	return []byte(`{"jsonrpc":"2.0","id":1,"method":"` + methodBalances + `","params":{"owner":"` +
		base58.Encode(owner[:]) + `","limit":` + strconv.Itoa(pageLimit) + `}}`)
}

// post sends one request and returns the response body (a copy). Only a
// JSON-RPC result counts as success: a page answered with an error would
// otherwise be timed as a fast page.
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

// rpcPage is the value of a holders or balances answer.
type rpcPage struct {
	Result *struct {
		Value struct {
			Items []struct {
				Owner   string `json:"owner"`
				Mint    string `json:"mint"`
				Balance uint64 `json:"balance"`
			} `json:"items"`
			Cursor *string `json:"cursor"`
		} `json:"value"`
	} `json:"result"`
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// decodePage reads a page answer into holders (Key = owner, or mint for
// balances).
func decodePage(body []byte, byMint bool) ([]Holder, error) {
	var p rpcPage
	if err := json.Unmarshal(body, &p); err != nil {
		return nil, fmt.Errorf("decode answer: %w", err)
	}
	if p.Error != nil {
		return nil, fmt.Errorf("JSON-RPC error %d: %s", p.Error.Code, p.Error.Message)
	}
	if p.Result == nil {
		return nil, errors.New("answer without result")
	}
	out := make([]Holder, len(p.Result.Value.Items))
	for i, it := range p.Result.Value.Items {
		k := it.Owner
		if byMint {
			k = it.Mint
		}
		raw, err := base58.Decode(k)
		if err != nil || len(raw) != 32 {
			return nil, fmt.Errorf("item %d: bad key %q", i, k)
		}
		copy(out[i].Key[:], raw)
		out[i].Balance = it.Balance
	}
	return out, nil
}

func (c *rpcClient) holders(ctx context.Context, mint [32]byte, cur *HolderCursor) ([]Holder, error) {
	body, err := c.post(ctx, holdersBody(mint, cur))
	if err != nil {
		return nil, err
	}
	return decodePage(body, false)
}

func (c *rpcClient) balances(ctx context.Context, owner [32]byte) ([]Holder, error) {
	body, err := c.post(ctx, balancesBody(owner))
	if err != nil {
		return nil, err
	}
	return decodePage(body, true)
}

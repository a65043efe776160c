package compressedbench

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"

	"github.com/goccy/go-json"
	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/bench/internal/rpc"
)

// The Photon JSON-RPC methods the benchmark drives.
const (
	methodHolders  = "getCompressedMintTokenHolders"
	methodBalances = "getCompressedTokenBalancesByOwnerV2"
	methodTokens   = "getCompressedTokenAccountsByOwner"
)

// pageLimit is Photon's default and maximum page size.
const pageLimit = 1000

// rpcClient is the shared benchmark client with this suite's methods.
type rpcClient struct{ *rpc.Client }

func newRPCClient(addr, apiKey string, conns int) *rpcClient {
	return &rpcClient{rpc.New(addr, apiKey, conns)}
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

func tokensBody(owner [32]byte) []byte {
	return []byte(`{"jsonrpc":"2.0","id":1,"method":"` + methodTokens + `","params":{"owner":"` +
		base58.Encode(owner[:]) + `","limit":` + strconv.Itoa(pageLimit) + `}}`)
}

// tokens is owner's first page of token accounts as (hash, amount).
func (c *rpcClient) tokens(ctx context.Context, owner [32]byte) ([]Holder, error) {
	body, err := c.Post(ctx, tokensBody(owner))
	if err != nil {
		return nil, err
	}
	return decodePage(body, func(it *pageItem) (string, uint64) { return it.Account.Hash, it.TokenData.Amount })
}

func (c *rpcClient) postTokens(ctx context.Context, owner [32]byte) error {
	return c.Send(ctx, tokensBody(owner))
}

// pageItem is one item of a holders, balances or token accounts answer,
// as far as the benchmark compares it.
type pageItem struct {
	Owner   string `json:"owner"`
	Mint    string `json:"mint"`
	Balance uint64 `json:"balance"`
	Account struct {
		Hash string `json:"hash"`
	} `json:"account"`
	TokenData struct {
		Amount uint64 `json:"amount"`
	} `json:"tokenData"`
}

// rpcPage is the value of a page answer.
type rpcPage struct {
	Result *struct {
		Value struct {
			Items  []pageItem `json:"items"`
			Cursor *string    `json:"cursor"`
		} `json:"value"`
	} `json:"result"`
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// The keys pages are compared by: holders by owner, balances by mint.
func byOwner(it *pageItem) (string, uint64) { return it.Owner, it.Balance }
func byMint(it *pageItem) (string, uint64)  { return it.Mint, it.Balance }

// decodePage reads a page answer into (key, amount) pairs, which pick
// takes from each item.
func decodePage(body []byte, pick func(*pageItem) (string, uint64)) ([]Holder, error) {
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
	for i := range p.Result.Value.Items {
		k, amount := pick(&p.Result.Value.Items[i])
		raw, err := base58.Decode(k)
		if err != nil || len(raw) != 32 {
			return nil, fmt.Errorf("item %d: bad key %q", i, k)
		}
		copy(out[i].Key[:], raw)
		out[i].Balance = amount
	}
	return out, nil
}

func (c *rpcClient) holders(ctx context.Context, mint [32]byte, cur *HolderCursor) ([]Holder, error) {
	body, err := c.Post(ctx, holdersBody(mint, cur))
	if err != nil {
		return nil, err
	}
	return decodePage(body, byOwner)
}

func (c *rpcClient) balances(ctx context.Context, owner [32]byte) ([]Holder, error) {
	body, err := c.Post(ctx, balancesBody(owner))
	if err != nil {
		return nil, err
	}
	return decodePage(body, byMint)
}

// postHolders and postBalances send a page request and receive the whole
// answer without decoding it: the HTTP timings end there. Post still
// fails on an HTTP error or an answer without a result.
func (c *rpcClient) postHolders(ctx context.Context, mint [32]byte, cur *HolderCursor) error {
	return c.Send(ctx, holdersBody(mint, cur))
}

func (c *rpcClient) postBalances(ctx context.Context, owner [32]byte) error {
	return c.Send(ctx, balancesBody(owner))
}

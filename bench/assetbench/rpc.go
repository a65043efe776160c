package assetbench

import (
	"context"
	"errors"
	"fmt"

	"github.com/goccy/go-json"
	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/bench/internal/rpc"
	"github.com/dasch-labs/dasch/chain/solana"
)

// rpcClient is the shared benchmark client with this suite's methods.
type rpcClient struct{ *rpc.Client }

func newRPCClient(addr, apiKey string, conns int) *rpcClient {
	return &rpcClient{rpc.New(addr, apiKey, conns)}
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

// answered is the part of an asset the first pass checks.
type answered struct {
	ID        string `json:"id"`
	Interface string `json:"interface"`
}

// getAsset requests one asset; with verify, the answer must be that asset.
func (c *rpcClient) getAsset(ctx context.Context, id solana.Pubkey, verify bool) error {
	body, err := c.Post(ctx, getAssetBody(id))
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
	body, err := c.Post(ctx, getAssetBatchBody(ids))
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

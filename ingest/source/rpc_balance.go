package source

import (
	"context"
	"fmt"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/chain/solana"
)

// Balance returns the lamports of address at the commitment, as the node
// answers getBalance.
func (r *RPC) Balance(ctx context.Context, address solana.Pubkey) (uint64, error) {
	if r.client == nil {
		if err := r.Configure(r.opts); err != nil {
			return 0, err
		}
	}
	a, err := r.call(ctx, "getBalance", `["`+address.String()+`",{"commitment":"`+r.opts.Commitment+`"}]`)
	if err != nil {
		return 0, fmt.Errorf("source %s: getBalance: %w", r.Spec(), err)
	}
	// The answer is {"context":{...},"value":N}.
	var v struct {
		Value *uint64 `json:"value"`
	}
	if err := json.Unmarshal(a.Result, &v); err != nil || v.Value == nil {
		return 0, fmt.Errorf("source %s: getBalance: result %.100q is not a balance", r.Spec(), a.Result)
	}
	return *v.Value, nil
}

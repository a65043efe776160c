package photon

import (
	"context"
	"fmt"
	"time"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// healthSlotDistance is how many slots the index may trail its node and
// still be healthy: Photon's HEALTH_CHECK_SLOT_DISTANCE.
const healthSlotDistance = 20

// healthTipTimeout bounds the wait for the node's slot: a health probe
// that hangs is worse than one that fails.
const healthTipTimeout = 2 * time.Second

// getIndexerHealth answers "ok" once something is indexed and, when the
// server follows a node (Deps.Tip), the indexed slot is at most 20 slots
// behind the node's newest, as Photon does; further behind, -32000 "Node
// is behind N slots". A node that does not answer is an internal error,
// as in Photon. Params are ignored, as Photon does.
func getIndexerHealth(d Deps) jsonrpc.Handler {
	return func(ctx context.Context, _ *jsonrpc.Call) (any, error) {
		slot, err := d.contextSlot(ctx)
		if err != nil {
			return nil, err
		}
		if d.Tip != nil {
			tctx, cancel := context.WithTimeout(ctx, healthTipTimeout)
			tip, err := d.Tip(tctx)
			cancel()
			if err != nil {
				// Not the request's deadline: the node's failure (%v).
				return nil, fmt.Errorf("read the node's newest slot: %v", err)
			}
			if tip > slot && tip-slot > healthSlotDistance {
				return nil, jsonrpc.ServerError(fmt.Sprintf("Node is behind %d slots", tip-slot))
			}
		}
		return json.RawMessage(`"ok"`), nil
	}
}

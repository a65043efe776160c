package photon

import (
	"context"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/server"
)

// getIndexerHealth answers "ok" once something is indexed. Photon compares
// its slot with a Solana RPC node's; dasch has no node to ask, so it only
// reports whether it can answer at all. Params are ignored, as Photon does.
func getIndexerHealth(d Deps) server.Handler {
	return func(ctx context.Context, _ *server.Call) (any, error) {
		if _, err := d.contextSlot(ctx); err != nil {
			return nil, err
		}
		return json.RawMessage(`"ok"`), nil
	}
}

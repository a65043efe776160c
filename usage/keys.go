package usage

import (
	"context"

	"github.com/dasch-labs/dasch/auth"
	"github.com/dasch-labs/dasch/server"
)

// Keys is an auth.Checker as the server's KeyResolver, so the meter sees
// each key's project, id, plan and services.
type Keys struct{ *auth.Checker }

func toServer(k auth.Key) server.Key {
	return server.Key{ProjectID: k.ProjectID, ID: k.ID, Plan: k.Plan, Services: k.Services}
}

// ResolveKey implements server.KeyResolver.
func (c Keys) ResolveKey(ctx context.Context, key string) (server.Key, bool, error) {
	k, ok, err := c.Resolve(ctx, key)
	return toServer(k), ok, err
}

// KnownResolvedKey implements server.KeyResolver.
func (c Keys) KnownResolvedKey(key string) (server.Key, bool) {
	k, ok := c.Known(key)
	return toServer(k), ok
}

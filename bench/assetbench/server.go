package assetbench

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/dasch-labs/dasch/api/das"
	"github.com/dasch-labs/dasch/api/methods"
	"github.com/dasch-labs/dasch/auth"
	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/query/assetcache"
	"github.com/dasch-labs/dasch/server"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// startServer serves the DAS methods over loopback HTTP as `dasch serve`
// does, behind a fresh API key; with idx, states come from the asset
// index first, or with cache, through it.
func startServer(ctx context.Context, s arrowstore.Store, idx das.AssetIndex, cache *assetcache.Cache, say func(string, ...any)) (addr, key string, stop func(), err error) {
	key, _, err = auth.CreateKey(ctx, s, "bench")
	if err != nil {
		return "", "", nil, fmt.Errorf("api key: %w", err)
	}
	keys := auth.NewChecker(s)
	if err := keys.Refresh(ctx); err != nil {
		return "", "", nil, fmt.Errorf("api keys: %w", err)
	}
	log := slog.New(slog.NewTextHandler(sayWriter(say), &slog.HandlerOptions{Level: slog.LevelWarn}))
	reg := methods.New(methods.Options{Methods: methods.DAS, Store: s, Slots: checkpoint.NewSlotCache(s, 200*time.Millisecond), Assets: idx, AssetCache: cache, Logger: log})
	srv, err := server.New(server.Config{Listen: "127.0.0.1:0", RequestTimeout: time.Minute, Logger: log}, reg, keys, nil)
	if err != nil {
		return "", "", nil, fmt.Errorf("server: %w", err)
	}
	if err := srv.Listen(); err != nil {
		return "", "", nil, fmt.Errorf("server: %w", err)
	}
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(sctx) }()
	return srv.Addr(), key, func() { cancel(); <-done }, nil
}

// sayWriter sends the server's log lines to the progress output.
type sayWriter func(string, ...any)

func (w sayWriter) Write(p []byte) (int, error) {
	w("%s", strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

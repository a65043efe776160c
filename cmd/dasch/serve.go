package main

import (
	"context"
	"fmt"
	"time"

	"github.com/dasch-labs/dasch/api"
	dasapi "github.com/dasch-labs/dasch/api/das"
	"github.com/dasch-labs/dasch/api/photon"
	"github.com/dasch-labs/dasch/auth"
	"github.com/dasch-labs/dasch/query"
	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/server"
	"github.com/dasch-labs/dasch/serving"
	"github.com/dasch-labs/dasch/store"
)

func runServe(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "serve")
	url := fs.String("store", defaultStore(), "store URL")
	listen := fs.String("listen", "127.0.0.1:8899", "address to listen on")
	timeout := fs.Duration("timeout", 10*time.Second, "per-request deadline")
	rate := fs.Float64("rate-limit", 0, "requests per second per API key (0 = unlimited)")
	hot := fs.Bool("hot-index", true, "serve mint holders and token balances from an in-memory index kept in sync with the store")
	tokenIndex := fs.Bool("token-index", true, "serve compressed token accounts by owner and by delegate from an in-memory index kept in sync with the store")
	tokenMB := fs.Int64("token-index-mb", serving.DefaultTokenBudget>>20, "memory budget of the token account index in MiB; owners past it are read from the store")
	assetIndex := fs.Bool("asset-index", true, "serve getAsset and getAssetBatch from an in-memory index of asset state kept in sync with the store")
	assetMB := fs.Int64("asset-index-mb", serving.DefaultAssetBudget>>20, "memory budget of the asset index in MiB; assets past it are read from the store")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	ctx, cancel := server.SignalContext(ctx)
	defer cancel()
	s, closeStore, err := openStore(ctx, e, *url, true)
	if err != nil {
		return err
	}
	defer closeStore()

	keys := auth.NewChecker(s)
	if err := keys.Refresh(ctx); err != nil {
		return err
	}
	go keys.Run(ctx, 10*time.Second)

	pd := photon.Deps{Store: s, Slots: compressed.NewSlotCache(s, 200*time.Millisecond), Logger: e.log}
	if *hot {
		x, took, err := serving.Open(ctx, s, serving.DefaultSyncInterval, func(err error) {
			e.log.Warn("hot index sync failed", "err", err)
		})
		if err != nil {
			return err
		}
		st := x.Stats()
		fmt.Fprintf(e.stdout, "hot index: %d balances (%d owners, %d mints, ~%d MiB) loaded in %s\n",
			st.Entries, st.Owners, st.Mints, st.Bytes>>20, took.Round(time.Millisecond))
		pd.Hot = x
	}
	if *tokenIndex {
		x, took, err := serving.OpenTokens(ctx, s, *tokenMB<<20, serving.DefaultSyncInterval, func(err error) {
			e.log.Warn("token index sync failed", "err", err)
		})
		if err != nil {
			return err
		}
		st := x.Stats()
		fmt.Fprintf(e.stdout, "token index: %d accounts (%d owners, ~%d MiB, complete %v) loaded in %s\n",
			st.Accounts, st.Owners, st.Bytes>>20, st.Complete, took.Round(time.Millisecond))
		pd.HotTokens = x
	}
	dd := dasapi.Deps{Store: s, Slots: query.NewSlotCache(s, 200*time.Millisecond), Logger: e.log}
	if *assetIndex {
		x, took, err := serving.OpenAssets(ctx, s, *assetMB<<20, serving.DefaultSyncInterval, func(err error) {
			e.log.Warn("asset index sync failed", "err", err)
		})
		if err != nil {
			return err
		}
		st := x.Stats()
		fmt.Fprintf(e.stdout, "asset index: %d entries (~%d MiB, complete %v) loaded in %s\n",
			st.Entries, st.Bytes>>20, st.Complete, took.Round(time.Millisecond))
		dd.Index = x
	}
	reg := server.NewRegistry()
	api.Register(reg, api.Deps{Slots: query.NewSlotCache(s, 200*time.Millisecond)})
	photon.Register(reg, pd)
	dasapi.Register(reg, dd)
	srv, err := server.New(server.Config{
		Listen:          *listen,
		RequestTimeout:  *timeout,
		RateLimitPerKey: *rate,
		Logger:          e.log,
		Usage:           server.NewUsageCounter(),
	}, reg, keys, readiness{s})
	if err != nil {
		return err
	}
	if err := srv.Listen(); err != nil {
		return fmt.Errorf("listen on %s: %w", *listen, err)
	}
	e.log.Info("serving JSON-RPC", "addr", srv.Addr(), "store", *url, "engine", s.Engine())
	// The line tests and scripts wait for.
	fmt.Fprintf(e.stdout, "listening on http://%s\n", srv.Addr())
	return srv.Serve(ctx)
}

type readiness struct{ s store.Store }

func (r readiness) Ready(ctx context.Context) error { return query.Ready(ctx, r.s) }

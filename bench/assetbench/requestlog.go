package assetbench

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/dasch-labs/dasch/api/methods"
	"github.com/dasch-labs/dasch/auth"
	"github.com/dasch-labs/dasch/billing"
	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/metrics"
	"github.com/dasch-labs/dasch/reqlog"
	"github.com/dasch-labs/dasch/server"
	"github.com/dasch-labs/dasch/store/arrowstore"
	"github.com/dasch-labs/dasch/usage"
)

// RequestLogFigures are getAsset from the store over HTTP without the
// usage metering (off) and with it as `dasch serve` runs it (on: the
// meter, the metrics and the request log written to the store), from
// Clients clients and from one. Off and on alternate, twice each, in
// the same run; each figure is the mean of its two rounds.
type RequestLogFigures struct {
	Clients       int
	Off, On       Series
	OneOff, OneOn Series
	// Written are the request log rows stored; Dropped found its buffer
	// full.
	Written, Dropped uint64
}

// Measured reports whether the series were run.
func (f RequestLogFigures) Measured() bool { return f.On.Measured() && f.Off.Measured() }

// ThroughputRatio is the throughput with the log over without it.
func (f RequestLogFigures) ThroughputRatio() float64 { return f.On.Throughput / f.Off.Throughput }

// AddedP99 is what the log adds to one client's p99.
func (f RequestLogFigures) AddedP99() time.Duration { return f.OneOn.P99 - f.OneOff.P99 }

// startMeteredServer is startServer with serve's usage metering: the
// meter with the built-in prices, the metrics and the request log.
func startMeteredServer(ctx context.Context, s arrowstore.Store, say func(string, ...any)) (addr, key string, log *reqlog.Log, stop func(), err error) {
	key, _, err = auth.CreateKey(ctx, s, "bench-metered")
	if err != nil {
		return "", "", nil, nil, fmt.Errorf("api key: %w", err)
	}
	keys := auth.NewChecker(s)
	if err := keys.Refresh(ctx); err != nil {
		return "", "", nil, nil, fmt.Errorf("api keys: %w", err)
	}
	logger := slog.New(slog.NewTextHandler(sayWriter(say), &slog.HandlerOptions{Level: slog.LevelWarn}))
	cfg := billing.Defaults(billing.Families{DAS: methods.Names(methods.DAS), Photon: methods.Names(methods.Photon | methods.Indexer)})
	reg := metrics.New()
	if log, err = reqlog.New(s, reqlog.Options{Logger: logger, OnInsert: reg.RequestLogInsert}); err != nil {
		return "", "", nil, nil, err
	}
	meter := usage.NewMeter(usage.Options{Config: &cfg, Log: log, Metrics: reg})
	slots := checkpoint.NewSlotCache(s, 200*time.Millisecond)
	mreg := methods.New(methods.Options{Methods: methods.DAS, Store: metrics.TimeQueries(s, reg), Slots: slots, Logger: logger})
	srv, err := server.New(server.Config{Listen: "127.0.0.1:0", RequestTimeout: time.Minute, Logger: logger, Meter: meter},
		mreg, usage.Keys{Checker: keys}, nil)
	if err != nil {
		return "", "", nil, nil, fmt.Errorf("server: %w", err)
	}
	if err := srv.Listen(); err != nil {
		return "", "", nil, nil, fmt.Errorf("server: %w", err)
	}
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(sctx) }()
	return srv.Addr(), key, log, func() {
		cancel()
		<-done
		_ = log.Close(context.Background())
	}, nil
}

// requestLog measures RequestLogFigures for getAsset drawn by d, the
// unmetered server being m.ps.rpc.
func (m *measurer) requestLog(ctx context.Context, d draw, clients int) error {
	addr, key, log, stop, err := startMeteredServer(ctx, m.ps.s, m.say)
	if err != nil {
		return err
	}
	defer stop()
	on := paths{s: m.ps.s, rpc: newRPCClient(addr, key, clients+8)}
	f := RequestLogFigures{Clients: clients}
	conc := m.cfg.Concurrent
	conc.Time = min(conc.Time, 4*time.Second)
	one := m.cfg.Single
	one.Time = min(one.Time, 4*time.Second)
	var offs, ons, oneOffs, oneOns []Series
	for round := range 2 {
		m.say("request log: getAsset, %d clients and one, log off and on (round %d of 2)", clients, round+1)
		s, err := concurrent(ctx, clients, conc, m.ps.http(d))
		if err != nil {
			return fmt.Errorf("request log off: %w", err)
		}
		offs = append(offs, s)
		if s, err = concurrent(ctx, clients, conc, on.http(d)); err != nil {
			return fmt.Errorf("request log on: %w", err)
		}
		ons = append(ons, s)
		if s, err = sequential(ctx, one, m.ps.http(d)); err != nil {
			return fmt.Errorf("request log off, one client: %w", err)
		}
		oneOffs = append(oneOffs, s)
		if s, err = sequential(ctx, one, on.http(d)); err != nil {
			return fmt.Errorf("request log on, one client: %w", err)
		}
		oneOns = append(oneOns, s)
	}
	f.Off, f.On, f.OneOff, f.OneOn = mean(offs), mean(ons), mean(oneOffs), mean(oneOns)
	if err := log.Flush(ctx); err != nil {
		return err
	}
	st := log.Stats()
	f.Written, f.Dropped = st.Written, st.Dropped
	m.rep.RequestLog = f
	m.say("request log: %.0f req/s on, %.0f off (ratio %.3f); one client p99 %s on, %s off; %d rows written, %d dropped",
		f.On.Throughput, f.Off.Throughput, f.ThroughputRatio(), f.OneOn.P99, f.OneOff.P99, f.Written, f.Dropped)
	return nil
}

// mean averages rounds of one series.
func mean(ss []Series) Series {
	var out Series
	for _, s := range ss {
		out.N += s.N
		out.P50 += s.P50 / time.Duration(len(ss))
		out.P99 += s.P99 / time.Duration(len(ss))
		out.Throughput += s.Throughput / float64(len(ss))
		out.Clients = s.Clients
	}
	return out
}

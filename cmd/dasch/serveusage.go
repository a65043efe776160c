package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/dasch-labs/dasch/admin"
	"github.com/dasch-labs/dasch/api/methods"
	"github.com/dasch-labs/dasch/api/parsedevents"
	"github.com/dasch-labs/dasch/auth"
	"github.com/dasch-labs/dasch/billing"
	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/metrics"
	"github.com/dasch-labs/dasch/reqlog"
	"github.com/dasch-labs/dasch/store/arrowstore"
	"github.com/dasch-labs/dasch/usage"
)

// usageFlags are serve's flags for usage: the admin listener, the price
// list and plans, rate limits and the request log.
type usageFlags struct {
	admin, billing *string
	adminToken     *string
	limits, log    *bool
	watch          *time.Duration
	printBilling   *bool
}

func addUsageFlags(fs *flag.FlagSet) *usageFlags {
	return &usageFlags{
		admin:        fs.String("admin-listen", "", "serve the admin API (GET /v0/admin/projects/ID/usage) and /metrics on this address (empty = off)"),
		adminToken:   fs.String("admin-token", "", "operator token of the admin API's key routes (/v0/admin/keys: create, list, revoke at once; default $DASCH_ADMIN_TOKEN, empty = off)"),
		billing:      fs.String("billing", "", "JSON file of method prices and plans over the built-in ones (print those with --print-billing)"),
		limits:       fs.Bool("plan-limits", false, "enforce each plan's rate limits per service class (DAS, compressed state, RPC)"),
		log:          fs.Bool("request-log", true, "write every request to the request_log table"),
		watch:        fs.Duration("keys-watch", 250*time.Millisecond, "how often keys and projects are checked for changes (a revoked key fails from the next check)"),
		printBilling: fs.Bool("print-billing", false, "print the billing configuration in effect (built-in prices and plans, with --billing over them) and exit"),
	}
}

// billingConfig is the built-in configuration with --billing over it.
func (f *usageFlags) billingConfig() (billing.Config, error) {
	cfg := billing.Defaults(billing.Families{DAS: methods.Names(methods.DAS), Photon: methods.Names(methods.Photon | methods.Indexer),
		Enhanced: parsedevents.Methods()})
	if *f.billing == "" {
		return cfg, nil
	}
	return billing.Load(cfg, *f.billing)
}

// usageRun is the metering of one serve: its meter, request log, metrics
// and admin service.
type usageRun struct {
	cfg   billing.Config
	meter *usage.Meter
	log   *reqlog.Log
	reg   *metrics.Registry
	admin *admin.Server
}

func (f *usageFlags) setup(e *env, cfg billing.Config, s arrowstore.Store, keys *auth.Checker, mo *methods.Options) (*usageRun, error) {
	u := &usageRun{cfg: cfg, reg: metrics.New()}
	if *f.log {
		l, err := reqlog.New(s, reqlog.Options{Logger: e.log, OnInsert: u.reg.RequestLogInsert})
		if err != nil {
			return nil, err
		}
		u.log = l
		u.reg.RequestLog(func() (uint64, uint64, uint64, int) {
			st := l.Stats()
			return st.Written, st.Dropped, st.Lost, st.Buffered
		})
	}
	u.meter = usage.NewMeter(usage.Options{Config: &u.cfg, Log: u.log, Metrics: u.reg, Limits: *f.limits})
	registerGauges(u.reg, s, mo.Slots, mo.Tip, keys)
	mo.Store = metrics.TimeQueries(mo.Store, u.reg)
	if *f.admin != "" {
		token := *f.adminToken
		if token == "" {
			token = os.Getenv("DASCH_ADMIN_TOKEN")
		}
		a, err := admin.New(admin.Options{Listen: *f.admin, Keys: keys, Store: s, Config: &u.cfg, Meter: u.meter,
			Log: u.log, Metrics: u.reg, Logger: e.log, Token: token, KeyStore: s, Forget: keys.Forget})
		if err != nil {
			return nil, err
		}
		u.admin = a
	}
	return u, nil
}

// registerGauges adds the metrics read from the store and the caches at
// each scrape.
func registerGauges(reg *metrics.Registry, s arrowstore.Store, slots *checkpoint.SlotCache, tip func(context.Context) (uint64, error), keys *auth.Checker) {
	reg.Gauge(`dasch_indexed_slot`, func(ctx context.Context) (float64, error) {
		v, err := slots.IndexedSlot(ctx)
		return float64(v), err
	})
	if tip != nil {
		reg.Gauge(`dasch_indexed_slot_lag`, func(ctx context.Context) (float64, error) {
			t, err := tip(ctx)
			if err != nil {
				return 0, err
			}
			v, err := slots.IndexedSlot(ctx)
			return float64(t) - float64(v), err
		})
	}
	reg.Gauge(`dasch_dead_letters`, func(ctx context.Context) (float64, error) {
		res, err := s.Query(ctx, `SELECT count() FROM dead_letters`, nil)
		if err != nil {
			return 0, err
		}
		return float64(res.Rows[0][0].(uint64)), nil
	})
	// Rows stored per table: its rate is the ingest rate per table (net
	// of the rows merges fold).
	reg.Lines(func(ctx context.Context, w io.Writer) {
		res, err := s.Query(ctx, `SELECT table, sum(rows) FROM system.parts
			WHERE active AND database = currentDatabase() GROUP BY table ORDER BY table`, nil)
		if err != nil {
			return
		}
		for _, r := range res.Rows {
			fmt.Fprintf(w, "dasch_table_rows{table=%s} %d\n", strconv.Quote(r[0].(string)), r[1].(uint64))
		}
	})
	reg.CacheCounts("indexed_slot", slots.Counts)
	reg.CacheCounts("api_keys", keys.Counts)
}

// listen binds the admin listener, printing its line.
func (u *usageRun) listen(e *env) error {
	if u.admin == nil {
		return nil
	}
	if err := u.admin.Listen(); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "admin API on http://%s\n", u.admin.Addr())
	return nil
}

// serve runs the admin service until ctx ends; done is closed after.
func (u *usageRun) serve(ctx context.Context, e *env) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		if u.admin == nil {
			return
		}
		if err := u.admin.Serve(ctx); err != nil {
			e.log.Error("admin API stopped", "err", err)
		}
	}()
	return done
}

// close writes the request log's last rows: after the server stopped,
// every request it answered is in the log.
func (u *usageRun) close(e *env) {
	if u.log == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := u.log.Close(ctx); err != nil {
		e.log.Error("request log not flushed", "err", err)
	}
	if st := u.log.Stats(); st.Dropped > 0 || st.Lost > 0 {
		e.log.Warn("request log rows missing", "dropped", st.Dropped, "lost", st.Lost)
	}
}

// printBillingConfig prints cfg as a --billing file would state it.
func printBillingConfig(e *env, cfg billing.Config) error {
	b, err := cfg.JSON()
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "%s\n", b)
	return err
}

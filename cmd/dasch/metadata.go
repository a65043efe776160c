package main

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest/assetstate"
	"github.com/dasch-labs/dasch/ingest/offchain"
	"github.com/dasch-labs/dasch/metrics"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// metadataFlags are the off-chain metadata fetcher's flags, which dasch
// ingest and serve --ingest take.
type metadataFlags struct {
	fetch, ipfs, arweave, cdn, mirror         *string
	concurrency, perHost, redirects, attempts *int
	maxKB                                     *int64
	timeout, connect, refresh                 *time.Duration
	allowPrivate                              *bool
}

func addMetadataFlags(fs *flag.FlagSet) *metadataFlags {
	d := offchain.DefaultLimits
	return &metadataFlags{
		fetch: fs.String("metadata-fetch", "auto", "fetch the off-chain JSON documents assets name (json_uri) and fold them into their content: on, off, "+
			"or auto (on when following a node, rpc or grpc without --to)"),
		concurrency:  fs.Int("metadata-concurrency", 64, "metadata documents fetched at once"),
		perHost:      fs.Int("metadata-per-host", d.PerHost, "metadata documents fetched at once from one host"),
		timeout:      fs.Duration("metadata-timeout", d.Timeout, "time one document's fetch may take, redirects and body included"),
		connect:      fs.Duration("metadata-connect-timeout", d.ConnectTimeout, "time a connection (and its TLS handshake) may take"),
		maxKB:        fs.Int64("metadata-max-kb", d.MaxBytes>>10, "largest document kept, in KiB (a larger one is recorded as too_large)"),
		redirects:    fs.Int("metadata-redirects", d.MaxRedirects, "redirects one fetch follows"),
		attempts:     fs.Int("metadata-attempts", 5, "tries of a document failing in a way that may pass (timeouts, 429, 5xx) before it is recorded as failed"),
		refresh:      fs.Duration("metadata-refresh", 0, "fetch again documents older than this (and failures given up on longer ago); 0 never"),
		allowPrivate: fs.Bool("metadata-allow-private", false, "let the fetcher connect to private, loopback and link-local addresses (refused by default, after DNS resolution and on every redirect)"),
		ipfs:         fs.String("ipfs-gateway", offchain.DefaultGateways.IPFS, "fetch ipfs:// URIs and IPFS gateway URLs from this gateway prefix"),
		arweave:      fs.String("arweave-gateway", offchain.DefaultGateways.Arweave, "fetch ar:// URIs and arweave.net URLs from this gateway prefix"),
		cdn:          fs.String("cdn-template", "", "give each image file a cdn_uri: this template with {uri} replaced by the file's uri (default: none)"),
		mirror:       fs.String("metadata-mirror", "", "read the documents this directory's index.json maps URIs to instead of fetching them (the demo's, offline)"),
	}
}

// metadataPlan is the fetcher an ingest runs, once its flags are checked.
type metadataPlan struct {
	f       *metadataFlags
	on      bool
	content asset.ContentOptions
	stats   *offchain.Stats
	// reg, when set, reports the fetcher's figures (serve's metrics).
	reg     *metrics.Registry
	regOnce sync.Once
}

// checkMetadata validates the flags; follow tells whether the source
// follows a node.
func (f *metadataFlags) check(follow bool) (*metadataPlan, error) {
	p := &metadataPlan{f: f, stats: &offchain.Stats{}, content: asset.ContentOptions{CDNTemplate: *f.cdn}}
	switch *f.fetch {
	case "on":
		p.on = true
	case "off":
	case "auto":
		p.on = follow
	default:
		return nil, usagef("--metadata-fetch %q: want on, off or auto", *f.fetch)
	}
	if *f.concurrency <= 0 || *f.concurrency > 4096 || *f.perHost <= 0 {
		return nil, usagef("--metadata-concurrency (at most 4096) and --metadata-per-host must be positive")
	}
	if *f.timeout <= 0 || *f.connect <= 0 || *f.maxKB <= 0 || *f.maxKB > 1<<20 || *f.redirects < 0 || *f.attempts <= 0 || *f.refresh < 0 {
		return nil, usagef("--metadata-timeout, --metadata-connect-timeout, --metadata-max-kb (at most 1048576) and --metadata-attempts must be positive, --metadata-redirects and --metadata-refresh not negative")
	}
	if *f.cdn != "" && !strings.Contains(*f.cdn, "{uri}") {
		return nil, usagef("--cdn-template %q: want a template holding {uri}", *f.cdn)
	}
	if err := offchain.CheckGateways(offchain.Gateways{IPFS: *f.ipfs, Arweave: *f.arweave}); err != nil {
		return nil, usagef("%v", err)
	}
	return p, nil
}

// fetcher returns the fetcher folding through fold, or nil when fetching
// is off.
func (p *metadataPlan) fetcher(e *env, s arrowstore.Writer, fold *assetstate.FoldStep) (*offchain.Fetcher, func(), error) {
	if p == nil || !p.on || fold == nil {
		return nil, func() {}, nil
	}
	maxBytes := *p.f.maxKB << 10
	var mirror *offchain.Mirror
	if *p.f.mirror != "" {
		m, err := offchain.OpenMirror(*p.f.mirror, maxBytes)
		if err != nil {
			return nil, nil, err
		}
		mirror = m
	}
	redirects := *p.f.redirects
	if redirects == 0 {
		redirects = -1 // NewClient reads 0 as its default
	}
	client := offchain.NewClient(offchain.Limits{ConnectTimeout: *p.f.connect, Timeout: *p.f.timeout, MaxBytes: maxBytes,
		MaxRedirects: redirects, PerHost: *p.f.perHost, AllowPrivate: *p.f.allowPrivate},
		offchain.Gateways{IPFS: *p.f.ipfs, Arweave: *p.f.arweave}, mirror)
	f, err := offchain.New(offchain.Config{Store: s, Client: client, Concurrency: *p.f.concurrency,
		MaxAttempts: *p.f.attempts, Refresh: *p.f.refresh, Logger: e.log, Stats: p.stats,
		Refold: func(ctx context.Context, keys []solana.Pubkey) (int, error) { return fold.RefoldURIs(ctx, s, keys) }})
	if err != nil {
		client.Close()
		return nil, nil, err
	}
	if p.reg != nil {
		p.regOnce.Do(func() { p.reg.Metadata(p.stats) })
	}
	return f, client.Close, nil
}

// note is the fetcher's figures for progress lines, empty when it is off.
func (p *metadataPlan) note() string {
	if p == nil || !p.on {
		return ""
	}
	return p.stats.String()
}

// drainWait is how long a one-shot ingest waits, after the last block,
// for retries of documents to come due.
const drainWait = 10 * time.Second

// summary is the line a one-shot ingest ends with.
func (p *metadataPlan) summary() string {
	return fmt.Sprint(p.stats)
}

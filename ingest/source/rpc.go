package source

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest/decode"
)

// RPCOptions tune an RPC source. Zero values take the defaults noted.
type RPCOptions struct {
	// From is the first slot read. Required: the caller picks it (a
	// stored checkpoint, the node's newest slot, or the user's choice).
	From uint64
	// To is the last slot read; 0 follows the node's newest slot at
	// Commitment until the context ends.
	To uint64
	// Commitment of getSlot and getBlock: "confirmed" (default, as
	// Photon indexes) or "finalized", which never rolls back.
	Commitment string
	// Fetchers is the getBlock requests in flight at once (default 8):
	// a node answers one in tens of milliseconds to seconds, and blocks
	// go out in slot order whatever order they arrive in. Eight keep
	// well ahead of mainnet's few blocks a second even from a slow node
	// (BenchmarkRPCSource, docs/performance.md).
	Fetchers int
	// Poll is the wait between getSlot calls once the source is caught
	// up with the node (default 400ms, a slot's time).
	Poll time.Duration
	// Attempts bounds the tries of one request that fails in a way that
	// may pass (a timeout, HTTP 429 or 5xx, a block not available yet)
	// before Read fails (default 10). Backoff is the first wait between
	// tries (default 250ms), doubled each time up to 5s.
	Attempts int
	Backoff  time.Duration
	// Timeout bounds one HTTP request (default 60s); an account listing,
	// which streams, is bounded by its silences instead.
	Timeout time.Duration

	// Owners are the programs whose accounts are read back after each
	// block (rpc_accounts.go): the decoders' decode.Interest
	// AccountOwners. None: blocks only.
	Owners []solana.Pubkey
	// Bootstrap lists the accounts first (rpc_bootstrap.go), with Reads
	// (default: each owner whole), then follows from the slot after the
	// listing's; From is then not read.
	Bootstrap bool
	Reads     []decode.AccountRead
	// AccountFetchers is the getMultipleAccounts requests of one block in
	// flight at once (default 4); PageSize the accounts of one
	// getProgramAccountsV2 page (default 10000, its most).
	AccountFetchers int
	PageSize        int
	// Logger receives the retries of account reads and the accounts
	// dead-lettered (default slog.Default()).
	Logger *slog.Logger
}

func (o RPCOptions) withDefaults() RPCOptions {
	if o.Commitment == "" {
		o.Commitment = "confirmed"
	}
	if o.Fetchers <= 0 {
		o.Fetchers = 8
	}
	if o.Poll <= 0 {
		o.Poll = 400 * time.Millisecond
	}
	if o.Attempts <= 0 {
		o.Attempts = 10
	}
	if o.Backoff <= 0 {
		o.Backoff = 250 * time.Millisecond
	}
	if o.Timeout <= 0 {
		o.Timeout = time.Minute
	}
	if o.AccountFetchers <= 0 {
		o.AccountFetchers = 4
	}
	if o.PageSize <= 0 || o.PageSize > 10_000 {
		o.PageSize = 10_000
	}
	return o
}

// maxBlockBytes bounds one getBlock answer read into memory (Fetchers of
// them at most). Mainnet blocks in base64 run to tens of MB.
const maxBlockBytes = 256 << 20

// RPC reads blocks from a Solana JSON-RPC node with getBlock (base64
// transactions, as the corpus fixtures hold them) and emits them as the
// files source emits a block file: the header, then its transactions,
// then a seal of the slot.
// Slots go out in order; skipped slots emit nothing. A block that does
// not parse goes out as a bad item (a dead letter) and reading goes on;
// a node that keeps failing stops Read with an error naming the slot.
//
// A confirmed block that the cluster later drops is not taken back:
// use the finalized commitment where that matters.
type RPC struct {
	url    string
	opts   RPCOptions
	client *http.Client
	// lister streams account answers: no overall timeout (see stream).
	lister   *http.Client
	accounts *accountDecoder
	owners   map[solana.Pubkey]bool
	noV2     atomic.Bool // the node has no getProgramAccountsV2
	noZstd   atomic.Bool // the node refused base64+zstd: listings ask for base64
}

// NewRPC returns a source reading from the node at rawURL (http or https).
func NewRPC(rawURL string) (*RPC, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("source rpc:%s: want an http or https URL, e.g. rpc:http://127.0.0.1:8899", rawURL)
	}
	return &RPC{url: rawURL, opts: RPCOptions{}.withDefaults()}, nil
}

// Configure sets the options; call it before Read.
func (r *RPC) Configure(o RPCOptions) error {
	o = o.withDefaults()
	if o.Commitment != "confirmed" && o.Commitment != "finalized" {
		return fmt.Errorf("source %s: commitment %q: want confirmed or finalized", r.Spec(), o.Commitment)
	}
	if o.To != 0 && o.To < o.From {
		return fmt.Errorf("source %s: last slot %d is before the first, %d", r.Spec(), o.To, o.From)
	}
	r.opts = o
	if r.client != nil {
		r.client.CloseIdleConnections() // a source configured again
	}
	r.client = &http.Client{
		Timeout:   o.Timeout,
		Transport: &http.Transport{MaxIdleConnsPerHost: o.Fetchers, Proxy: http.ProxyFromEnvironment},
	}
	if r.lister != nil {
		r.lister.CloseIdleConnections()
	}
	r.lister = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: o.Fetchers * o.AccountFetchers,
		Proxy: http.ProxyFromEnvironment, ResponseHeaderTimeout: o.Timeout}}
	if r.accounts == nil {
		var err error
		if r.accounts, err = newAccountDecoder(); err != nil {
			return fmt.Errorf("source %s: %w", r.Spec(), err)
		}
	}
	r.owners = map[solana.Pubkey]bool{}
	for _, k := range o.Owners {
		r.owners[k] = true
	}
	return nil
}

// log is where the source reports what it works around.
func (r *RPC) log() *slog.Logger {
	if r.opts.Logger != nil {
		return r.opts.Logger
	}
	return slog.Default()
}

// Spec implements Source.
func (r *RPC) Spec() string { return "rpc:" + r.url }

// fetched is one slot's getBlock answer, parsed where it was fetched
// (blocks parse in parallel; the reader only emits): raw is nil for a
// skipped slot, perr says why a block does not parse.
type fetched struct {
	slot    uint64
	raw     []byte
	block   *solana.Block
	entries [][]byte
	perr    error
	err     error
	// accounts are the items of what the block wrote (blockAccounts).
	accounts []Item
}

// Read implements Source. It returns nil once To is read, and ctx's
// error when ctx ends first (following, that is how it stops).
func (r *RPC) Read(ctx context.Context, emit func(Item) error) error {
	if r.client == nil {
		if err := r.Configure(r.opts); err != nil {
			return err
		}
	}
	e := emitter{emit: emit}
	next, tip := r.opts.From, uint64(0)
	if r.opts.Bootstrap {
		slot, err := r.bootstrap(ctx, &e, emit)
		if err != nil {
			return err
		}
		if next = slot + 1; r.opts.To != 0 && next > r.opts.To {
			return nil
		}
	} else if err := r.checkHistory(ctx); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()      // stops the fetches still in flight
	var tipAt time.Time // when tip was asked
	var queue []chan fetched
	for {
		if r.opts.To != 0 && next > r.opts.To && len(queue) == 0 {
			return nil
		}
		// Slots past the node's newest are not asked for: it would only
		// answer that they are not available yet. At the tip, the newest
		// slot is asked again once the fetched blocks are out or a poll
		// interval has passed, not before each block goes out: that
		// round trip would delay every block.
		if next > tip && (r.opts.To == 0 || next <= r.opts.To) && (len(queue) == 0 || time.Since(tipAt) >= r.opts.Poll) {
			t, err := r.Tip(ctx)
			if err != nil {
				return err
			}
			tip, tipAt = t, time.Now()
			if next > tip && len(queue) == 0 {
				if err := sleep(ctx, r.opts.Poll); err != nil {
					return err
				}
				continue
			}
		}
		for len(queue) < r.opts.Fetchers && next <= tip && (r.opts.To == 0 || next <= r.opts.To) {
			ch := make(chan fetched, 1)
			go func(slot uint64) {
				f := fetched{slot: slot}
				f.raw, f.err = r.block(ctx, slot)
				if f.raw != nil {
					f.block, f.entries, f.perr = solana.ParseBlock(f.raw, slot)
					if f.perr == nil && f.err == nil && len(r.owners) > 0 {
						f.accounts, f.err = r.blockAccounts(ctx, slot, f.entries)
					}
				}
				ch <- f
			}(next)
			queue = append(queue, ch)
			next++
		}
		if len(queue) == 0 {
			continue
		}
		var f fetched
		select {
		case f = <-queue[0]:
		case <-ctx.Done():
			return ctx.Err()
		}
		queue = queue[1:]
		if f.err != nil {
			return f.err
		}
		if f.raw != nil {
			if err := e.parsed(fmt.Sprintf("%s#%d", r.Spec(), f.slot), f.slot, f.raw, f.block, f.entries, f.perr); err != nil {
				return err
			}
			for _, it := range f.accounts {
				if err := e.send(it); err != nil {
					return err
				}
			}
			// The block is whole: its slot is complete now, not when the
			// next block arrives.
			if err := emit(Item{Kind: KindSeal, Slot: f.slot}); err != nil {
				return err
			}
		}
	}
}

// checkHistory fails when From is older than the node's first available
// block: a node that purged its older blocks answers for them as it does
// for skipped slots (-32009), so reading on would skip them silently. A
// node without getFirstAvailableBlock is not checked.
func (r *RPC) checkHistory(ctx context.Context) error {
	a, err := r.call(ctx, "getFirstAvailableBlock", "[]")
	var first uint64
	if err == nil {
		err = json.Unmarshal(a.Result, &first)
	}
	if err != nil {
		if ne := (*nodeError)(nil); errors.As(err, &ne) && ne.code == codeMethodNotFound {
			return nil
		}
		return fmt.Errorf("source %s: getFirstAvailableBlock: %w", r.Spec(), err)
	}
	if r.opts.From < first {
		return fmt.Errorf("source %s: slot %d is older than the node's first available block, %d: it has purged older blocks "+
			"(read them from an archival node, or start at --from %d)", r.Spec(), r.opts.From, first, first)
	}
	return nil
}

// rpcAnswer is a JSON-RPC response.
type rpcAnswer struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// Node error codes getBlock answers with (solana-rpc-client-api).
const (
	codeBlockNotAvailable  = -32004 // not produced or not confirmed yet: ask again
	codeSlotSkipped        = -32007
	codeLongTermSkipped    = -32009 // skipped, or missing from long-term storage
	codeStatusNotAvailable = -32014 // block status not yet available: ask again
	codeMinContextSlot     = -32016 // the node is behind: ask again
)

// nodeError is an error the node answered.
type nodeError struct {
	code int
	msg  string
}

func (e *nodeError) Error() string { return fmt.Sprintf("node error %d: %s", e.code, e.msg) }

// codeMethodNotFound is JSON-RPC's: a node without the method.
const (
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
)

// errRetry marks a failure worth another try.
type errRetry struct{ err error }

func (e errRetry) Error() string { return e.err.Error() }
func (e errRetry) Unwrap() error { return e.err }

// block returns slot's getBlock result, or nil when the slot was skipped.
func (r *RPC) block(ctx context.Context, slot uint64) ([]byte, error) {
	params := `[` + strconv.FormatUint(slot, 10) + `,{"encoding":"base64","commitment":"` + r.opts.Commitment +
		`","maxSupportedTransactionVersion":0,"transactionDetails":"full","rewards":false}]`
	a, err := r.call(ctx, "getBlock", params)
	if err != nil {
		return nil, fmt.Errorf("source %s: getBlock %d: %w", r.Spec(), slot, err)
	}
	if bytes.Equal(bytes.TrimSpace(a.Result), []byte("null")) || a.skipped {
		return nil, nil
	}
	return a.Result, nil
}

// Tip returns the node's newest slot at the commitment.
func (r *RPC) Tip(ctx context.Context) (uint64, error) {
	if r.client == nil {
		if err := r.Configure(r.opts); err != nil {
			return 0, err
		}
	}
	a, err := r.call(ctx, "getSlot", `[{"commitment":"`+r.opts.Commitment+`"}]`)
	if err != nil {
		return 0, fmt.Errorf("source %s: getSlot: %w", r.Spec(), err)
	}
	var s uint64
	if err := json.Unmarshal(a.Result, &s); err != nil {
		return 0, fmt.Errorf("source %s: getSlot: result %.100q is not a slot", r.Spec(), a.Result)
	}
	return s, nil
}

// answer is a call's result; skipped is set for a skipped slot's error.
type answer struct {
	Result  json.RawMessage
	skipped bool
}

// call sends one request, trying again while the failure may pass.
func (r *RPC) call(ctx context.Context, method, params string) (answer, error) {
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":` + params + `}`)
	wait := r.opts.Backoff
	var err error
	for try := 1; ; try++ {
		var a answer
		a, err = r.once(ctx, body)
		var retry errRetry
		if err == nil || !errors.As(err, &retry) || ctx.Err() != nil {
			return a, err
		}
		if try >= r.opts.Attempts {
			return a, fmt.Errorf("%w (gave up after %d tries)", err, try)
		}
		if err := sleep(ctx, wait); err != nil {
			return a, err
		}
		wait = min(2*wait, 5*time.Second)
	}
}

// once sends one request and classifies its failure.
func (r *RPC) once(ctx context.Context, body []byte) (answer, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.url, bytes.NewReader(body))
	if err != nil {
		return answer{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := r.client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return answer{}, ctx.Err()
		}
		return answer{}, errRetry{err}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxBlockBytes+1))
	if err != nil {
		return answer{}, errRetry{fmt.Errorf("read answer: %w", err)}
	}
	if len(raw) > maxBlockBytes {
		return answer{}, fmt.Errorf("answer larger than %d MiB", maxBlockBytes>>20)
	}
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
		return answer{}, errRetry{fmt.Errorf("HTTP %d: %.200s", resp.StatusCode, raw)}
	}
	if resp.StatusCode != http.StatusOK {
		return answer{}, fmt.Errorf("HTTP %d: %.200s", resp.StatusCode, raw)
	}
	var a rpcAnswer
	if err := json.Unmarshal(raw, &a); err != nil {
		return answer{}, errRetry{fmt.Errorf("answer is not JSON-RPC: %w", err)}
	}
	if a.Error != nil {
		nerr := &nodeError{a.Error.Code, a.Error.Message}
		switch a.Error.Code {
		case codeSlotSkipped, codeLongTermSkipped:
			return answer{skipped: true}, nil
		case codeBlockNotAvailable, codeStatusNotAvailable, codeMinContextSlot:
			return answer{}, errRetry{nerr}
		}
		return answer{}, nerr
	}
	if len(a.Result) == 0 {
		return answer{}, errRetry{errors.New("answer has neither result nor error")}
	}
	return answer{Result: a.Result}, nil
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

package source

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/dasch-labs/dasch/chain/solana"
	pb "github.com/dasch-labs/dasch/internal/geyserpb"
)

// GRPCOptions tune a gRPC source. Zero values take the defaults noted.
type GRPCOptions struct {
	// From is the first slot read, replayed by the server (from_slot) as
	// far back as it keeps slots; nil starts with the first slot the
	// stream carries whole after subscribing.
	From *uint64
	// To ends Read once every slot up to it is out; 0 follows the stream
	// until the context ends.
	To uint64
	// Commitment a slot must reach before its items go out: "processed",
	// "confirmed" (default) or "finalized". A processed slot may later be
	// dropped by the cluster; its rows are not taken back.
	Commitment string
	// XToken is sent as the x-token metadata of every call.
	XToken string
	// RootCAs, for an https URL, are the authorities the server's
	// certificate must chain to (nil: the system's): a self-hosted
	// validator's private CA or a self-signed certificate.
	RootCAs *x509.CertPool
	// AccountOwners and TxPrograms are the subscription: writes of
	// accounts these programs own, and transactions (failed ones too,
	// votes not) with any of these among their account keys, loaded
	// ones included. An empty list subscribes to none.
	AccountOwners, TxPrograms []solana.Pubkey
	// Attempts bounds the streams in a row that fail without a slot
	// going out before Read fails (default 10). Backoff is the first wait
	// between them (default 250ms), doubled each time up to MaxBackoff
	// (default 30s).
	Attempts            int
	Backoff, MaxBackoff time.Duration
	// Idle drops a stream that sent nothing, not even a slot status or a
	// ping, for this long (default 30s): slots come every 400ms.
	Idle time.Duration
	// MaxBuffer bounds the bytes of slots held until they reach the
	// commitment (default 512 MiB); a stream past it is dropped and
	// opened again.
	MaxBuffer int
	// MaxMessage bounds one update (default 64 MiB; account data alone
	// may reach 10 MiB).
	MaxMessage int
	// Logger receives reconnections and dropped input (default: none).
	Logger *slog.Logger
}

func (o GRPCOptions) withDefaults() GRPCOptions {
	if o.Commitment == "" {
		o.Commitment = "confirmed"
	}
	if o.Attempts <= 0 {
		o.Attempts = 10
	}
	if o.Backoff <= 0 {
		o.Backoff = 250 * time.Millisecond
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = 30 * time.Second
	}
	if o.Idle <= 0 {
		o.Idle = 30 * time.Second
	}
	if o.MaxBuffer <= 0 {
		o.MaxBuffer = 512 << 20
	}
	if o.MaxMessage <= 0 {
		o.MaxMessage = 64 << 20
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// commitmentLevel is the protocol's level of a commitment name.
func commitmentLevel(name string) (pb.CommitmentLevel, bool) {
	switch name {
	case "processed":
		return pb.CommitmentLevel_PROCESSED, true
	case "confirmed":
		return pb.CommitmentLevel_CONFIRMED, true
	case "finalized":
		return pb.CommitmentLevel_FINALIZED, true
	}
	return 0, false
}

// GRPC follows a Yellowstone gRPC (Geyser) stream: account writes and
// transactions of the configured programs, block metadata and slot
// statuses. A slot's items are held until the slot reaches the
// commitment, then go out as the rpc source sends a block: the header,
// the transactions in block order, the account writes in write order,
// and a seal. Slots that never reach it (forks, dead slots) go nowhere.
//
// A failed stream is opened again with from_slot after the last sealed
// slot, so nothing is lost; items of a slot already out, and repeated
// updates within a slot, are dropped, so nothing is doubled. An update
// that does not convert goes out as a bad item (a dead letter) with its
// slot, and the stream goes on.
type GRPC struct {
	raw    string
	target string
	secure bool
	opts   GRPCOptions

	mu   sync.Mutex
	conn *grpc.ClientConn
}

// NewGRPC returns a source reading the server at rawURL: https for TLS,
// http for plaintext; the port defaults to 443 and 80.
func NewGRPC(rawURL string) (*GRPC, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("source grpc:%s: want an http or https URL, e.g. grpc:http://127.0.0.1:10000", rawURL)
	}
	if strings.Trim(u.Path, "/") != "" || u.RawQuery != "" {
		return nil, fmt.Errorf("source grpc:%s: a gRPC URL has no path or query (give the token with --x-token)", rawURL)
	}
	host := u.Host
	if u.Port() == "" {
		port := "80"
		if u.Scheme == "https" {
			port = "443"
		}
		host = net.JoinHostPort(u.Hostname(), port)
	}
	return &GRPC{raw: rawURL, target: host, secure: u.Scheme == "https", opts: GRPCOptions{}.withDefaults()}, nil
}

// Configure sets the options; call it before Read.
func (g *GRPC) Configure(o GRPCOptions) error {
	o = o.withDefaults()
	if _, ok := commitmentLevel(o.Commitment); !ok {
		return fmt.Errorf("source %s: commitment %q: want processed, confirmed or finalized", g.Spec(), o.Commitment)
	}
	if o.To != 0 && o.From != nil && o.To < *o.From {
		return fmt.Errorf("source %s: last slot %d is before the first, %d", g.Spec(), o.To, *o.From)
	}
	g.opts = o
	return nil
}

// Spec implements Source. The token is not part of it.
func (g *GRPC) Spec() string { return "grpc:" + g.raw }

// Close closes the connection Read and Tip share.
func (g *GRPC) Close() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.conn == nil {
		return nil
	}
	err := g.conn.Close()
	g.conn = nil
	return err
}

// client returns the Geyser client, connecting lazily: gRPC dials in the
// background and each call waits for the connection.
func (g *GRPC) client() (pb.GeyserClient, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.conn == nil {
		creds := insecure.NewCredentials()
		if g.secure {
			creds = credentials.NewTLS(&tls.Config{MinVersion: tls.VersionTLS12, RootCAs: g.opts.RootCAs})
		}
		conn, err := grpc.NewClient(g.target, grpc.WithTransportCredentials(creds), grpc.WithUserAgent("dasch"),
			grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(g.opts.MaxMessage)))
		if err != nil {
			return nil, fmt.Errorf("source %s: %w", g.Spec(), err)
		}
		g.conn = conn
	}
	return pb.NewGeyserClient(g.conn), nil
}

func (g *GRPC) withToken(ctx context.Context) context.Context {
	if g.opts.XToken == "" {
		return ctx
	}
	return metadata.AppendToOutgoingContext(ctx, "x-token", g.opts.XToken)
}

// Tip returns the server's newest slot at the commitment.
func (g *GRPC) Tip(ctx context.Context) (uint64, error) {
	c, err := g.client()
	if err != nil {
		return 0, err
	}
	level, _ := commitmentLevel(g.opts.Commitment)
	r, err := c.GetSlot(g.withToken(ctx), &pb.GetSlotRequest{Commitment: &level})
	if err != nil {
		return 0, fmt.Errorf("source %s: GetSlot: %w", g.Spec(), err)
	}
	return r.GetSlot(), nil
}

// emitError is a failure of the consumer, which a new stream cannot cure.
type emitError struct{ err error }

func (e emitError) Error() string { return e.err.Error() }
func (e emitError) Unwrap() error { return e.err }

// Read implements Source. It returns nil once To is out, and ctx's error
// when ctx ends first (following, that is how it stops).
func (g *GRPC) Read(ctx context.Context, emit func(Item) error) error {
	c, err := g.client()
	if err != nil {
		return err
	}
	f := newFollower(g.Spec(), g.opts, func(it Item) error {
		if err := emit(it); err != nil {
			return emitError{err}
		}
		return nil
	})
	fails, wait := 0, g.opts.Backoff
	for {
		before := f.progress()
		err := g.stream(ctx, c, f)
		switch {
		case err == nil:
			return nil
		case ctx.Err() != nil:
			return ctx.Err()
		case errors.As(err, new(emitError)):
			return err
		}
		if perr := g.permanent(err, f); perr != nil {
			return perr
		}
		if f.progress() != before {
			fails, wait = 0, g.opts.Backoff
		}
		fails++
		if fails >= g.opts.Attempts {
			return fmt.Errorf("source %s: %w (gave up after %d streams in a row without a slot)", g.Spec(), err, fails)
		}
		g.opts.Logger.Warn("gRPC stream failed; opening it again", "source", g.Spec(), "err", err,
			"resume_slot", f.resumeSlot(), "retry_in", wait)
		if err := sleep(ctx, wait); err != nil {
			return err
		}
		wait = min(2*wait, g.opts.MaxBackoff)
	}
}

// permanent returns the error to fail Read with when a new stream would
// fail the same way, nil when one may succeed.
func (g *GRPC) permanent(err error, f *follower) error {
	// The status itself: wrapped, FromError would give the wrapper's text.
	var se interface{ GRPCStatus() *status.Status }
	if !errors.As(err, &se) {
		return nil
	}
	st := se.GRPCStatus()
	from := "the stream"
	if s := f.resumeSlot(); s != nil {
		from = fmt.Sprintf("slot %d", *s)
	}
	switch st.Code() {
	case codes.OutOfRange:
		return fmt.Errorf("source %s: the server cannot replay from %s: %s (it keeps a limited number of slots; "+
			"index the gap from a node with rpc:URL, or start the stream with --from latest and accept it)", g.Spec(), from, st.Message())
	case codes.Internal:
		if strings.Contains(st.Message(), "from_slot is not supported") {
			return fmt.Errorf("source %s: the server does not replay past slots (from_slot), so it cannot resume at %s "+
				"without a gap: start the stream with --from latest to accept it", g.Spec(), from)
		}
	case codes.Unauthenticated, codes.PermissionDenied:
		return fmt.Errorf("source %s: refused: %s (check --x-token)", g.Spec(), st.Message())
	case codes.InvalidArgument, codes.Unimplemented, codes.FailedPrecondition:
		return fmt.Errorf("source %s: %s", g.Spec(), st.Message())
	}
	return nil
}

// errIdle says the stream went silent.
var errIdle = errors.New("no update")

// stream runs one subscription until it fails, or To is out (nil).
func (g *GRPC) stream(parent context.Context, c pb.GeyserClient, f *follower) error {
	ctx, cancel := context.WithCancelCause(g.withToken(parent))
	defer cancel(nil)
	idle := time.AfterFunc(g.opts.Idle, func() { cancel(fmt.Errorf("%w for %s", errIdle, g.opts.Idle)) })
	defer idle.Stop()
	s, err := c.Subscribe(ctx)
	if err != nil {
		return g.failed(ctx, "subscribe", err)
	}
	f.restart()
	if err := s.Send(g.request(f.resumeSlot())); err != nil {
		return g.failed(ctx, "subscribe", err)
	}
	var pings int32
	for {
		u, err := s.Recv()
		if err != nil {
			return g.failed(ctx, "receive", err)
		}
		idle.Reset(g.opts.Idle)
		done, err := f.update(u)
		if err != nil || done {
			return err
		}
		if _, ok := u.GetUpdateOneof().(*pb.SubscribeUpdate_Ping); ok {
			// Servers and the proxies before them drop streams that
			// do not answer.
			pings++
			if err := s.Send(&pb.SubscribeRequest{Ping: &pb.SubscribeRequestPing{Id: pings}}); err != nil {
				return g.failed(ctx, "answer ping", err)
			}
		}
	}
}

// failed names a stream failure, the idle timeout for one it caused.
func (g *GRPC) failed(ctx context.Context, what string, err error) error {
	if cause := context.Cause(ctx); cause != nil && errors.Is(cause, errIdle) {
		return fmt.Errorf("%s: %w", what, cause)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// request is the subscription: the programs' accounts and transactions,
// block metadata and slot statuses at every level (a slot's content goes
// out before its status at the commitment), replayed from from.
func (g *GRPC) request(from *uint64) *pb.SubscribeRequest {
	level, _ := commitmentLevel(g.opts.Commitment)
	no, yes := false, true
	r := &pb.SubscribeRequest{
		Commitment: &level,
		FromSlot:   from,
		Slots:      map[string]*pb.SubscribeRequestFilterSlots{"dasch": {FilterByCommitment: &no, InterslotUpdates: &yes}},
		BlocksMeta: map[string]*pb.SubscribeRequestFilterBlocksMeta{"dasch": {}},
	}
	// An empty list would match everything, not nothing.
	if len(g.opts.AccountOwners) > 0 {
		r.Accounts = map[string]*pb.SubscribeRequestFilterAccounts{"dasch": {Owner: keyStrings(g.opts.AccountOwners)}}
	}
	if len(g.opts.TxPrograms) > 0 {
		r.Transactions = map[string]*pb.SubscribeRequestFilterTransactions{"dasch": {
			Vote: &no, Failed: &yes, AccountInclude: keyStrings(g.opts.TxPrograms),
		}}
	}
	return r
}

func keyStrings(keys []solana.Pubkey) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k.String()
	}
	return out
}

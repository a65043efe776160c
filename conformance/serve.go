package conformance

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/dasch-labs/dasch/api/methods"
	"github.com/dasch-labs/dasch/auth"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/server"
	"github.com/dasch-labs/dasch/server/jsonrpc"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// harness is the server every case is sent to: an emptied store, a real API
// key and the methods mo picks, served on loopback.
type harness struct {
	reg  *jsonrpc.Registry
	cl   *client
	stop func()
}

// startHarness migrates and empties s, creates a key and serves the
// methods of mo.
// Close with h.stop.
func startHarness(ctx context.Context, s arrowstore.Store, log *slog.Logger, mo methods.Options) (*harness, error) {
	if _, err := schema.Migrate(ctx, s); err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	if err := reset(ctx, s); err != nil {
		return nil, err
	}
	key, _, err := auth.CreateKey(ctx, s, "conformance")
	if err != nil {
		return nil, fmt.Errorf("create api key: %w", err)
	}
	reg := methods.New(mo)
	srv, err := server.New(server.Config{Listen: "127.0.0.1:0", Logger: log}, reg, auth.NewChecker(s), nil)
	if err != nil {
		return nil, fmt.Errorf("conformance server: %w", err)
	}
	if err := srv.Listen(); err != nil {
		return nil, err
	}
	sctx, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(sctx) }()
	return &harness{reg: reg, cl: newClient(srv.Addr(), key), stop: func() {
		stop()
		<-served
	}}, nil
}

// record counts one case's outcome and prints its line.
func (s *Summary) record(out io.Writer, name string, o outcome) {
	switch o.kind {
	case pass:
		s.Passed++
		fmt.Fprintf(out, "PASS %s\n", name)
	case skip:
		s.Skipped++
		fmt.Fprintf(out, "SKIP %s: %s\n", name, o.msg)
	case deviation:
		s.Deviations++
		fmt.Fprintf(out, "DEVIATION %s: %s\n", name, o.msg)
	default:
		s.Failed++
		fmt.Fprintf(out, "FAIL %s: %s\n", name, o.msg)
	}
}

package server

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// SignalContext returns a context cancelled on SIGTERM or SIGINT, which is
// how Serve learns to shut down gracefully. Call stop to release the signal
// handlers; a second signal after stop kills the process as usual.
func SignalContext(parent context.Context) (ctx context.Context, stop context.CancelFunc) {
	return signal.NotifyContext(parent, syscall.SIGTERM, os.Interrupt)
}

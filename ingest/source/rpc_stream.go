package source

import (
	"bufio"
	"bytes"
	"context"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

// stream sends one request and hands the answer's result to result as it
// arrives, never holding the whole answer: account listings run to
// gigabytes. A failure that may pass (as call's, or an answer cut short
// or of the wrong shape) is tried again, up to Attempts, each retry
// logged; result may then see part of a result more than once.
func (r *RPC) stream(ctx context.Context, method, params string, result func(dec *stdjson.Decoder, lim *entryLimit) error) error {
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":` + params + `}`)
	wait := r.opts.Backoff
	for try := 1; ; try++ {
		err := r.streamOnce(ctx, body, result)
		var retry errRetry
		if err == nil || !errors.As(err, &retry) || ctx.Err() != nil {
			return err
		}
		if try >= r.opts.Attempts {
			return fmt.Errorf("%w (gave up after %d tries)", err, try)
		}
		r.log().Warn("node answer unusable; asking again", "source", r.Spec(), "method", method, "try", try, "err", err, "retry_in", wait)
		if err := sleep(ctx, wait); err != nil {
			return err
		}
		wait = min(2*wait, 5*time.Second)
	}
}

// streamOnce sends the request once. A node that sends nothing for
// Timeout, before or within its answer, is given up on (and asked again).
func (r *RPC) streamOnce(parent context.Context, body []byte, result func(dec *stdjson.Decoder, lim *entryLimit) error) error {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	idle := time.AfterFunc(r.opts.Timeout, cancel)
	defer idle.Stop()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := r.lister.Do(req)
	if err != nil {
		if parent.Err() != nil {
			return parent.Err()
		}
		return errRetry{err}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		head, _ := io.ReadAll(io.LimitReader(resp.Body, 200))
		err := fmt.Errorf("HTTP %d: %.200s", resp.StatusCode, head)
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
			return errRetry{err}
		}
		return err
	}
	lim := &entryLimit{r: bufio.NewReaderSize(idleReader{resp.Body, idle, r.opts.Timeout}, 256<<10)}
	dec := stdjson.NewDecoder(lim)
	err = walkAnswer(dec, lim, func(dec *stdjson.Decoder) error { return result(dec, lim) })
	if parent.Err() != nil {
		return parent.Err()
	}
	if ctx.Err() != nil {
		return errRetry{fmt.Errorf("the node sent nothing for %s", r.opts.Timeout)}
	}
	var ne *nodeError
	if errors.As(err, &ne) {
		switch ne.code {
		case codeBlockNotAvailable, codeStatusNotAvailable, codeMinContextSlot:
			return errRetry{ne}
		}
	}
	return err
}

// idleReader pushes the idle timer back with every read that brings data.
type idleReader struct {
	r       io.Reader
	timer   *time.Timer
	timeout time.Duration
}

func (i idleReader) Read(p []byte) (int, error) {
	n, err := i.r.Read(p)
	if n > 0 {
		i.timer.Reset(i.timeout)
	}
	return n, err
}

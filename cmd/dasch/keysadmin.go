package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/goccy/go-json"
)

// adminFlags point a keys command at a running server's admin API
// instead of the store: the way to manage keys while dasch serve holds
// an embedded store, and to have a revoked key fail at once.
type adminFlags struct{ url, token *string }

func addAdminFlags(fs *flag.FlagSet) adminFlags {
	return adminFlags{
		url:   fs.String("admin", "", "a running server's admin API (http://HOST:PORT of serve --admin-listen) instead of --store"),
		token: fs.String("admin-token", "", "with --admin: the operator token (default $DASCH_ADMIN_TOKEN)"),
	}
}

func (a adminFlags) on() bool { return *a.url != "" }

// call sends one request to the admin API and decodes a 2xx answer into
// out; any other answer is an error with the server's message.
func (a adminFlags) call(ctx context.Context, method, path string, in, out any) error {
	token := *a.token
	if token == "" {
		token = os.Getenv("DASCH_ADMIN_TOKEN")
	}
	if token == "" {
		return usagef("--admin needs the operator token: --admin-token or $DASCH_ADMIN_TOKEN")
	}
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimRight(*a.url, "/")+path, body)
	if err != nil {
		return usagef("--admin %q: %v", *a.url, err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("admin API: %w", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return fmt.Errorf("admin API: %w", err)
	}
	if resp.StatusCode/100 != 2 {
		var e struct {
			Error string `json:"error"`
		}
		if json.Unmarshal(b, &e) == nil && e.Error != "" {
			return fmt.Errorf("admin API: %s (HTTP %d)", e.Error, resp.StatusCode)
		}
		return fmt.Errorf("admin API: HTTP %d", resp.StatusCode)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			return fmt.Errorf("admin API answer: %w", err)
		}
	}
	return nil
}

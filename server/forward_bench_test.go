package server_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// BenchmarkForward measures a forwarded getSlot through the server
// against the same call sent to the node directly, on loopback: the cost
// of one endpoint for every method.
func BenchmarkForward(b *testing.B) {
	n, _ := testNode(b)
	s := forwardingServer(b, n.URL(), 5*time.Second)
	body := `{"jsonrpc":"2.0","id":1,"method":"getSlot"}`
	c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	for _, bc := range []struct{ name, url string }{{"direct", n.URL()}, {"forwarded", s.url + "/?api-key=good"}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				resp, err := c.Post(bc.url, "application/json", strings.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					b.Fatalf("status %d", resp.StatusCode)
				}
			}
		})
	}
}

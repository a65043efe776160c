package offchain

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// docServer is a loopback HTTP server of metadata documents, the real
// ones of testdata/offchain/docs under /docs/NAME.json, and hostile
// answers under their own paths. It counts requests per path.
type docServer struct {
	*httptest.Server
	mu   sync.Mutex
	hits map[string]int
	// delay, when set, is waited before answering /docs/ paths.
	delay time.Duration
	// override, when set for a path, is served instead of the file.
	override map[string]string
}

const docsDir = "../../testdata/offchain/docs"

func newDocServer(t testing.TB) *docServer {
	t.Helper()
	d := &docServer{hits: map[string]int{}, override: map[string]string{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/docs/", func(w http.ResponseWriter, r *http.Request) {
		d.mu.Lock()
		delay, body, over := d.delay, d.override[r.URL.Path], d.override[r.URL.Path] != ""
		d.mu.Unlock()
		if delay > 0 {
			select {
			case <-time.After(delay):
			case <-r.Context().Done():
				return
			}
		}
		if over {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, body)
			return
		}
		name := filepath.Base(r.URL.Path)
		raw, err := os.ReadFile(filepath.Join(docsDir, name))
		if err != nil {
			// Documents made up per test: /docs/gen-N.json.
			if strings.HasPrefix(name, "gen-") {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprintf(w, `{"name":%q,"description":"generated %s","image":"https://example.org/%s.png","attributes":[{"trait_type":"n","value":%q}]}`,
					name, name, name, name)
				return
			}
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Write(raw)
	})
	mux.HandleFunc("/404", func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })
	mux.HandleFunc("/410", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusGone) })
	mux.HandleFunc("/500", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(500) })
	mux.HandleFunc("/503-retry-after", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "7")
		w.WriteHeader(503)
	})
	// 429 twice, then the document.
	mux.HandleFunc("/429-then-ok", func(w http.ResponseWriter, r *http.Request) {
		if d.count(r.URL.Path) <= 2 {
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		fmt.Fprint(w, `{"description":"after 429s"}`)
	})
	// 500, 404: a failure that may pass, then one that will not.
	mux.HandleFunc("/500-then-404", func(w http.ResponseWriter, r *http.Request) {
		if d.count(r.URL.Path) == 1 {
			w.WriteHeader(500)
			return
		}
		http.NotFound(w, r)
	})
	mux.HandleFunc("/huge", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"description":"`+strings.Repeat("x", 2<<20)+`"}`)
	})
	// No Content-Length: the cap must hold while reading.
	mux.HandleFunc("/huge-chunked", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"description":"`)
		chunk := strings.Repeat("y", 64<<10)
		for range 40 {
			if _, err := fmt.Fprint(w, chunk); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
		fmt.Fprint(w, `"}`)
	})
	mux.HandleFunc("/slow-header", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(5 * time.Second):
		case <-r.Context().Done():
			return
		}
		fmt.Fprint(w, `{}`)
	})
	mux.HandleFunc("/slow-body", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"description":"`)
		w.(http.Flusher).Flush()
		for range 50 {
			select {
			case <-time.After(100 * time.Millisecond):
			case <-r.Context().Done():
				return
			}
			fmt.Fprint(w, "z")
			w.(http.Flusher).Flush()
		}
		fmt.Fprint(w, `"}`)
	})
	mux.HandleFunc("/not-utf8", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte("{\"description\":\"caf\xe9\"}"))
	})
	mux.HandleFunc("/json-says-html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `{"description":"served as text/html"}`)
	})
	mux.HandleFunc("/html-says-json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `<html><body>Gateway timeout</body></html>`)
	})
	mux.HandleFunc("/png", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"))
	})
	mux.HandleFunc("/text", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "hello")
	})
	mux.HandleFunc("/bom", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, "\xef\xbb\xbf{\"description\":\"bom\"}")
	})
	mux.HandleFunc("/gzip", func(w http.ResponseWriter, r *http.Request) {
		var b bytes.Buffer
		z := gzip.NewWriter(&b)
		fmt.Fprint(z, `{"description":"gzipped"}`)
		z.Close()
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(b.Bytes())
	})
	// A small gzip body that inflates past the cap.
	mux.HandleFunc("/gzip-bomb", func(w http.ResponseWriter, r *http.Request) {
		var b bytes.Buffer
		z := gzip.NewWriter(&b)
		fmt.Fprint(z, `{"description":"`+strings.Repeat("0", 4<<20)+`"}`)
		z.Close()
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(b.Bytes())
	})
	mux.HandleFunc("/redirect-ok", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/docs/core_asset.json", http.StatusFound)
	})
	mux.HandleFunc("/redirect-loop", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/redirect-loop", http.StatusFound)
	})
	mux.HandleFunc("/redirect-metadata-service", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
	})
	mux.HandleFunc("/redirect-loopback", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://127.0.0.2:1/x.json", http.StatusFound)
	})
	mux.HandleFunc("/redirect-ipv6-loopback", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://[::1]:1/x.json", http.StatusFound)
	})
	mux.HandleFunc("/redirect-file", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
	})
	// Path gateway forms land here after a rewrite.
	mux.HandleFunc("/ipfs/", func(w http.ResponseWriter, r *http.Request) {
		d.count(r.URL.Path)
		fmt.Fprintf(w, `{"description":"ipfs %s"}`, strings.TrimPrefix(r.URL.Path, "/ipfs/"))
	})
	mux.HandleFunc("/ar/", func(w http.ResponseWriter, r *http.Request) {
		d.count(r.URL.Path)
		fmt.Fprintf(w, `{"description":"arweave %s"}`, strings.TrimPrefix(r.URL.Path, "/ar/"))
	})
	d.Server = httptest.NewServer(countHits(d, mux))
	t.Cleanup(d.Close)
	return d
}

// countHits counts every request but those whose handler counts itself.
func countHits(d *docServer, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/429-then-ok", r.URL.Path == "/500-then-404",
			strings.HasPrefix(r.URL.Path, "/ipfs/"), strings.HasPrefix(r.URL.Path, "/ar/"):
		default:
			d.count(r.URL.Path)
		}
		h.ServeHTTP(w, r)
	})
}

func (d *docServer) count(path string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.hits[path]++
	return d.hits[path]
}

func (d *docServer) hitsOf(path string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.hits[path]
}

func (d *docServer) set(path, body string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.override[path] = body
}

package source

import (
	"crypto/x509"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/ingest/source/geyser/geysertest"
)

// Over TLS (an https URL) the stream is read as over plain HTTP/2 when
// the certificate chains to the given authorities, with the x-token; a
// certificate the client does not trust fails the read with the reason.
func TestGRPCOverTLS(t *testing.T) {
	cfg, pem := geysertest.SelfSigned(t)
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		t.Fatal("the certificate does not parse")
	}
	srv := geysertest.Start(t, geysertest.Script{Slots: synthSlots(100, 3), Token: "s3cret", TLS: cfg})
	if !strings.HasPrefix(srv.URL, "https://") {
		t.Fatalf("server URL %s", srv.URL)
	}
	g, err := collect(t, grpcSource(t, srv.URL, GRPCOptions{From: new(uint64(100)), To: 102, XToken: "s3cret", RootCAs: pool}))
	if err != nil {
		t.Fatal(err)
	}
	if want := []uint64{100, 101, 102}; !slices.Equal(g.seals, want) {
		t.Fatalf("seals %v, want %v", g.seals, want)
	}
	_, err = collect(t, grpcSource(t, srv.URL, GRPCOptions{From: new(uint64(100)), To: 102, XToken: "s3cret",
		Attempts: 1, Backoff: time.Millisecond}))
	if err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("an untrusted certificate: %v", err)
	}
}

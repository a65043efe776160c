package chserver

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"io"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/internal/chserve"
	"github.com/dasch-labs/dasch/internal/chtest"
)

// countingProxy forwards loopback connections to target and counts the
// bytes the server sends back.
type countingProxy struct {
	ln   net.Listener
	down atomic.Int64
	wg   sync.WaitGroup
}

func startProxy(t *testing.T, target string) *countingProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &countingProxy{ln: ln}
	t.Cleanup(func() { ln.Close(); p.wg.Wait() })
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			p.wg.Add(2)
			go func() { defer p.wg.Done(); io.Copy(s, c); s.Close() }()
			go func() {
				defer p.wg.Done()
				n, _ := io.Copy(c, s)
				p.down.Add(n)
				c.Close()
			}()
		}
	}()
	return p
}

// TestIntegrationCompression checks on the wire that results travel LZ4
// compressed unless the DSN turns compression off.
func TestIntegrationCompression(t *testing.T) {
	srv := testServer(t)
	const size = 1_000_000
	for _, tc := range []struct {
		name, params string
		compressed   bool
	}{
		{"default", "", true},
		{"lz4", "compress=lz4", true},
		{"off", "compress=false", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := startProxy(t, "127.0.0.1:"+strconv.Itoa(srv.TCPPort))
			dsn := strings.Replace(srv.DSN(tc.params), "127.0.0.1:"+strconv.Itoa(srv.TCPPort), p.ln.Addr().String(), 1)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			s, err := Open(ctx, dsn, Options{MaxOpenConns: 1})
			if err != nil {
				t.Fatal(err)
			}
			res, err := s.Query(ctx, "SELECT repeat('a', {n:UInt32}) AS v", map[string]string{"n": strconv.Itoa(size)})
			if err != nil {
				t.Fatal(err)
			}
			if got := len(res.Rows[0][0].(string)); got != size {
				t.Fatalf("result of %d bytes, want %d", got, size)
			}
			s.Close()
			p.ln.Close()
			p.wg.Wait()
			down := p.down.Load()
			if tc.compressed && down > size/10 {
				t.Errorf("%d bytes from the server for a %d-byte result: not compressed", down, size)
			}
			if !tc.compressed && down < size {
				t.Errorf("%d bytes from the server for a %d-byte result with compression off", down, size)
			}
		})
	}
}

// selfSigned writes a fresh self-signed certificate for 127.0.0.1 and its
// key into dir and returns the certificate in PEM.
func selfSigned(t *testing.T, dir string) (certFile, keyFile string, certPEM []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, certPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		t.Fatal(err)
	}
	return certFile, keyFile, certPEM
}

// TestIntegrationTLS connects with secure=true to the server's TLS native
// port, serving a self-signed certificate.
func TestIntegrationTLS(t *testing.T) {
	cert, key, _ := selfSigned(t, t.TempDir())
	ports, err := chtest.FreePorts(1)
	if err != nil {
		t.Fatal(err)
	}
	srv := chtest.Start(t, chtest.Options{TLS: &chserve.TLS{CertFile: cert, KeyFile: key, Port: ports[0]}})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	s, err := Open(ctx, srv.TLSDSN(""), Options{MaxOpenConns: 2})
	if err != nil {
		t.Fatalf("open over TLS: %v", err)
	}
	defer s.Close()
	res, err := s.Query(ctx, "SELECT 'over tls' AS v", nil)
	if err != nil || len(res.Rows) != 1 || res.Rows[0][0] != "over tls" {
		t.Fatalf("query over TLS: %v %v", res, err)
	}

	for _, tc := range []struct {
		name, dsn, want string
	}{
		// Verification on: the self-signed certificate is no CA the
		// client trusts.
		{"verified", strings.Replace(srv.TLSDSN(""), "&skip_verify=true", "", 1), "certificate"},
		// The engine user logs in without a password from 127.0.0.1,
		// as forwarded TLS connections do: the TLS port drops that login.
		{"engine user", strings.Replace(srv.TLSDSN(""), chtest.User+":"+srv.Password+"@", "default:@", 1), "handshake"},
		// Plain native protocol on the TLS port.
		{"plain", strings.Replace(srv.TLSDSN(""), "secure=true&skip_verify=true", "", 1), "clickhouse server at"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Open(ctx, tc.dsn, Options{DialTimeout: 2 * time.Second})
			if err == nil {
				s.Close()
				t.Fatalf("open %s succeeded", tc.name)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestIntegrationPoolExhausted holds the only connection of a pool with a
// slow query: the next statement fails with an error that names the pool.
func TestIntegrationPoolExhausted(t *testing.T) {
	srv := testServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := Open(ctx, srv.DSN(""), Options{MaxOpenConns: 1, DialTimeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	started := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		close(started)
		_, err := s.Query(ctx, "SELECT sleepEachRow(0.5) FROM numbers(4)", nil)
		done <- err
	}()
	<-started
	time.Sleep(200 * time.Millisecond)
	_, err = s.Query(ctx, "SELECT 1", nil)
	if !errors.Is(err, ErrPoolExhausted) {
		t.Fatalf("second query with the pool held: %v, want ErrPoolExhausted", err)
	}
	for _, want := range []string{"all 1 connections", "max_open_conns", "300ms"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if err := <-done; err != nil {
		t.Fatalf("slow query: %v", err)
	}
	if _, err := s.Query(ctx, "SELECT 1", nil); err != nil {
		t.Errorf("after the pool freed: %v", err)
	}
}

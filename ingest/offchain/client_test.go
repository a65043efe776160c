package offchain

import (
	"context"
	"encoding/base64"
	"net/netip"
	"strings"
	"testing"
	"time"
)

// onlyTestServer accepts 127.0.0.1, where the test server listens, and
// nothing else a guarded client would refuse: redirects to other
// loopback addresses, the metadata service or private ranges are
// refused as they would be on a public host.
func onlyTestServer(a netip.Addr) bool {
	return a.Unmap() == netip.MustParseAddr("127.0.0.1") || Public(a)
}

func testClient(l Limits, g Gateways) *Client {
	if l.Timeout == 0 {
		l.Timeout = 2 * time.Second
	}
	return newClient(l, g, nil, onlyTestServer)
}

func TestFetchOutcomes(t *testing.T) {
	srv := newDocServer(t)
	c := testClient(Limits{Timeout: 700 * time.Millisecond}, Gateways{})
	defer c.Close()
	for _, tc := range []struct {
		path, kind, reason string
		status             int
		docHas             string
	}{
		{"/docs/token_metadata_nft.json", outcomeOK, "", 200, `"Degen Ape #1234"`},
		{"/docs/wrong_types.json", outcomeOK, "", 200, `"Background: Blue"`},
		{"/docs/not_object.json", outcomeOK, "", 200, `[{"image"`},
		{"/404", outcomeFail, "http_404", 404, ""},
		{"/410", outcomeFail, "http_410", 410, ""},
		{"/500", outcomeRetry, "http_500", 500, ""},
		{"/503-retry-after", outcomeRetry, "http_503", 503, ""},
		{"/huge", outcomeFail, "too_large", 200, ""},
		{"/huge-chunked", outcomeFail, "too_large", 200, ""},
		{"/gzip-bomb", outcomeFail, "too_large", 200, ""},
		{"/slow-header", outcomeRetry, "timeout", 0, ""},
		{"/slow-body", outcomeRetry, "timeout", 200, ""},
		{"/not-utf8", outcomeFail, "not_utf8", 200, ""},
		{"/json-says-html", outcomeOK, "", 200, `"served as text/html"`},
		{"/html-says-json", outcomeFail, "invalid_json", 200, ""},
		{"/png", outcomeFail, "not_utf8", 200, ""},
		{"/text", outcomeFail, "not_json", 200, ""},
		{"/bom", outcomeOK, "", 200, `{"description":"bom"}`},
		{"/gzip", outcomeOK, "", 200, `"gzipped"`},
		{"/redirect-ok", outcomeOK, "", 200, `"Core Explorer #7"`},
		{"/redirect-loop", outcomeFail, "too_many_redirects", 0, ""},
		{"/redirect-metadata-service", outcomeFail, "private_address", 0, ""},
		{"/redirect-loopback", outcomeFail, "private_address", 0, ""},
		{"/redirect-ipv6-loopback", outcomeFail, "private_address", 0, ""},
		{"/redirect-file", outcomeFail, "redirect_unsupported_scheme", 0, ""},
	} {
		t.Run(tc.path, func(t *testing.T) {
			out, err := c.Fetch(context.Background(), srv.URL+tc.path)
			if err != nil {
				t.Fatal(err)
			}
			if out.Kind != tc.kind || out.Reason != tc.reason || out.HTTPStatus != tc.status {
				t.Errorf("got %s %q status %d, want %s %q status %d", out.Kind, out.Reason, out.HTTPStatus, tc.kind, tc.reason, tc.status)
			}
			if !strings.Contains(string(out.Doc), tc.docHas) || (tc.docHas == "") != (out.Doc == nil) {
				t.Errorf("document %.80q, want one holding %q", out.Doc, tc.docHas)
			}
			if tc.path == "/503-retry-after" && out.RetryAfter != 7*time.Second {
				t.Errorf("retry after %s, want 7s", out.RetryAfter)
			}
		})
	}
}

// TestFetchRefusesPrivate: without the test's allowance, the guard
// refuses the loopback server itself, a literal private address and a
// name resolving to loopback.
func TestFetchRefusesPrivate(t *testing.T) {
	srv := newDocServer(t)
	c := NewClient(Limits{Timeout: time.Second}, Gateways{}, nil)
	defer c.Close()
	port := srv.URL[strings.LastIndex(srv.URL, ":"):]
	for _, uri := range []string{srv.URL + "/docs/core_asset.json", "http://localhost" + port + "/docs/core_asset.json",
		"http://10.1.2.3/x.json", "http://169.254.169.254/latest/meta-data/", "http://[fd00:ec2::254]/", "http://100.100.100.200/"} {
		out, err := c.Fetch(context.Background(), uri)
		if err != nil {
			t.Fatal(err)
		}
		if out.Kind != outcomeFail || out.Reason != "private_address" {
			t.Errorf("%s: got %s %q, want failed private_address", uri, out.Kind, out.Reason)
		}
	}
	if n := srv.hitsOf("/docs/core_asset.json"); n != 0 {
		t.Errorf("the server was reached %d times", n)
	}
	allowed := NewClient(Limits{Timeout: time.Second, AllowPrivate: true}, Gateways{}, nil)
	defer allowed.Close()
	if out, _ := allowed.Fetch(context.Background(), srv.URL+"/docs/core_asset.json"); out.Kind != outcomeOK {
		t.Errorf("with AllowPrivate: %+v", out)
	}
}

func TestPublic(t *testing.T) {
	for addr, want := range map[string]bool{
		"8.8.8.8": true, "1.1.1.1": true, "2606:4700:4700::1111": true,
		"127.0.0.1": false, "10.0.0.1": false, "172.16.5.4": false, "192.168.1.1": false,
		"169.254.169.254": false, "100.64.0.1": false, "0.0.0.0": false, "::1": false, "::": false,
		"fe80::1": false, "fc00::1": false, "::ffff:127.0.0.1": false, "::ffff:10.0.0.1": false,
		"224.0.0.1": false, "255.255.255.255": false, "198.18.0.1": false, "64:ff9b::a00:1": false,
	} {
		if got := Public(netip.MustParseAddr(addr)); got != want {
			t.Errorf("Public(%s) = %v, want %v", addr, got, want)
		}
	}
}

func TestFetchGatewaysAndData(t *testing.T) {
	srv := newDocServer(t)
	c := testClient(Limits{}, Gateways{IPFS: srv.URL + "/ipfs/", Arweave: srv.URL + "/ar/"})
	defer c.Close()
	cid := "bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi"
	for uri, want := range map[string]string{
		"ipfs://" + cid + "/1.json":                           `"ipfs ` + cid + `/1.json"`,
		"ipfs://ipfs/" + cid:                                  `"ipfs ` + cid + `"`,
		"https://nftstorage.link/ipfs/" + cid + "/2.json":     `"ipfs ` + cid + `/2.json"`,
		"https://" + cid + ".ipfs.w3s.link/3.json":            `"ipfs ` + cid + `/3.json"`,
		"ar://Wj8VxYx1k7cbv0P2n5L6mOqz0cYtXcWkq6b7kD5mT2E":    `"arweave Wj8VxYx1k7cbv0P2n5L6mOqz0cYtXcWkq6b7kD5mT2E"`,
		"https://arweave.net/Wj8VxYx1k7cbv0P2n5L6mOqz0cYtXcW": `"arweave Wj8VxYx1k7cbv0P2n5L6mOqz0cYtXcW"`,
		"data:application/json;base64," + base64.StdEncoding.EncodeToString([]byte(`{"description":"inline"}`)): `"inline"`,
		`data:application/json,{"description":"plain%20inline"}`:                                                `"plain inline"`,
	} {
		out, err := c.Fetch(context.Background(), uri)
		if err != nil {
			t.Fatal(err)
		}
		if out.Kind != outcomeOK || !strings.Contains(string(out.Doc), want) {
			t.Errorf("%s: %+v, want a document holding %s", uri, out, want)
		}
	}
	for uri, reason := range map[string]string{
		"ftp://example.org/x.json":         "unsupported_scheme",
		"file:///etc/passwd":               "unsupported_scheme",
		"not a uri":                        "bad_uri",
		"https:///nohost":                  "bad_uri",
		"data:application/json;base64,!!!": "bad_uri",
	} {
		out, _ := c.Fetch(context.Background(), uri)
		if out.Kind != outcomeFail || !strings.HasPrefix(out.Reason, reason) {
			t.Errorf("%s: %+v, want failed %s", uri, out, reason)
		}
	}
}

func TestRewrite(t *testing.T) {
	g := Gateways{IPFS: "https://gw.example/ipfs/", Arweave: "https://ar.example/"}
	cid := "QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG"
	for in, want := range map[string]string{
		"ipfs://" + cid + "/a.json?x=1":           "https://gw.example/ipfs/" + cid + "/a.json?x=1",
		"https://cloudflare-ipfs.com/ipfs/" + cid: "https://gw.example/ipfs/" + cid,
		"https://example.org/ipfs/not-a-cid/x":    "https://example.org/ipfs/not-a-cid/x",
		"ar://abc/def":                            "https://ar.example/abc/def",
		"https://www.arweave.net/abc?ext=png":     "https://ar.example/abc?ext=png",
		"https://example.org/m.json":              "https://example.org/m.json",
		"  https://example.org/space.json ":       "https://example.org/space.json",
	} {
		got, _, err := Rewrite(in, g)
		if err != nil || got != want {
			t.Errorf("Rewrite(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	// Without gateways, content-addressed URIs cannot be fetched and
	// gateway forms are fetched as they are.
	if _, _, err := Rewrite("ipfs://"+cid, Gateways{}); err == nil {
		t.Error("ipfs:// without a gateway rewrote")
	}
	if got, _, _ := Rewrite("https://arweave.net/abc", Gateways{}); got != "https://arweave.net/abc" {
		t.Errorf("got %q", got)
	}
}

func FuzzRewrite(f *testing.F) {
	for _, s := range []string{"ipfs://QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG/1", "ar://x", "https://a.ipfs.b/c",
		"https://arweave.net/", "data:,x", "data:;base64,eA==", "http://[::1", "ipfs://ipfs/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, uri string) {
		target, isData, err := Rewrite(uri, DefaultGateways)
		if err != nil || isData {
			if isData {
				_, _, _ = decodeDataURI(target, 1<<20)
			}
			return
		}
		if !strings.HasPrefix(target, "http://") && !strings.HasPrefix(target, "https://") {
			t.Fatalf("Rewrite(%q) = %q: not http(s)", uri, target)
		}
	})
}

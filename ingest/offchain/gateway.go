package offchain

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// Gateways are where content-addressed URIs are fetched from: each is a
// URL prefix the content's path is appended to.
type Gateways struct {
	// IPFS takes a CID and path: ipfs://CID/path, a path gateway
	// (https://host/ipfs/CID/path) or a subdomain gateway
	// (https://CID.ipfs.host/path).
	IPFS string
	// Arweave takes a transaction id and path: ar://TX/path, or
	// https://arweave.net/TX/path.
	Arweave string
}

// DefaultGateways are the public gateways.
var DefaultGateways = Gateways{IPFS: "https://ipfs.io/ipfs/", Arweave: "https://arweave.net/"}

// Errors of Rewrite, recorded as the reason a URI is not fetched.
var (
	errBadURI      = errors.New("bad_uri")
	errUnsupported = errors.New("unsupported_scheme")
)

// Rewrite returns the URL to fetch uri from: content-addressed forms go
// to the gateways g names (an empty one leaves its forms as they are),
// http and https URLs are fetched as they are, data: URIs are not
// fetched (isData), anything else is errUnsupported.
func Rewrite(uri string, g Gateways) (target string, isData bool, err error) {
	uri = strings.TrimSpace(uri)
	if strings.HasPrefix(strings.ToLower(uri), "data:") {
		return uri, true, nil
	}
	u, err := url.Parse(uri)
	if err != nil || u.Scheme == "" {
		return "", false, errBadURI
	}
	switch strings.ToLower(u.Scheme) {
	case "ipfs":
		// ipfs://CID/path, and the ipfs://ipfs/CID/path some tools write.
		rest := strings.TrimPrefix(u.Host+u.EscapedPath(), "ipfs/")
		if rest == "" || g.IPFS == "" {
			return "", false, errBadURI
		}
		return join(g.IPFS, rest, u.RawQuery), false, nil
	case "ar":
		rest := u.Host + u.EscapedPath()
		if rest == "" || g.Arweave == "" {
			return "", false, errBadURI
		}
		return join(g.Arweave, rest, u.RawQuery), false, nil
	case "http", "https":
	default:
		return "", false, errUnsupported
	}
	if u.Host == "" {
		return "", false, errBadURI
	}
	host := strings.ToLower(u.Hostname())
	if g.IPFS != "" {
		if i := strings.Index(host, ".ipfs."); i > 0 && looksLikeCID(host[:i]) {
			return join(g.IPFS, host[:i]+u.EscapedPath(), u.RawQuery), false, nil
		}
		if rest, ok := strings.CutPrefix(u.EscapedPath(), "/ipfs/"); ok {
			cid, _, _ := strings.Cut(rest, "/")
			if looksLikeCID(cid) {
				return join(g.IPFS, rest, u.RawQuery), false, nil
			}
		}
	}
	if g.Arweave != "" && (host == "arweave.net" || host == "www.arweave.net") {
		if rest := strings.TrimPrefix(u.EscapedPath(), "/"); rest != "" {
			return join(g.Arweave, rest, u.RawQuery), false, nil
		}
	}
	return u.String(), false, nil
}

func join(prefix, rest, query string) string {
	out := strings.TrimSuffix(prefix, "/") + "/" + strings.TrimPrefix(rest, "/")
	if query != "" {
		out += "?" + query
	}
	return out
}

// looksLikeCID reports whether s has the shape of an IPFS CID: a v0
// (Qm and 44 base58 characters) or a v1 in base32 (b and lower-case
// base32) or base36 (k and base36).
func looksLikeCID(s string) bool {
	switch {
	case len(s) == 46 && strings.HasPrefix(s, "Qm"):
		return strings.IndexFunc(s, func(r rune) bool { return !strings.ContainsRune(base58Alphabet, r) }) < 0
	case len(s) > 8 && (s[0] == 'b' || s[0] == 'k'):
		return strings.IndexFunc(s, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }) < 0
	}
	return false
}

const base58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

// CheckGateways validates gateway prefixes given on the command line:
// each empty or an http or https URL.
func CheckGateways(g Gateways) error {
	if err := checkGateway("ipfs", g.IPFS); err != nil {
		return err
	}
	return checkGateway("arweave", g.Arweave)
}

func checkGateway(name, prefix string) error {
	if prefix == "" {
		return nil
	}
	u, err := url.Parse(prefix)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%s gateway %q: want an http or https URL prefix", name, prefix)
	}
	return nil
}

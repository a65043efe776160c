package offchain

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"time"
)

// errPrivate is an address the fetcher refuses: the reason it records.
var errPrivate = errors.New("private_address")

// blocked are the ranges besides the loopback, private, link-local,
// unspecified and multicast ones (netip tells those) that reach a
// host's own network: shared address space (where some clouds put their
// metadata service), benchmarking, reserved and the IPv6 prefixes that
// embed IPv4 addresses.
var blocked = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("64:ff9b::/96"),
	netip.MustParsePrefix("64:ff9b:1::/48"),
	netip.MustParsePrefix("2002::/16"),
	netip.MustParsePrefix("fec0::/10"),
}

// Public reports whether a is an address the fetcher may connect to: a
// global unicast address outside every private, loopback, link-local
// (169.254.169.254, the metadata service, is one) and reserved range.
func Public(a netip.Addr) bool {
	a = a.Unmap()
	if !a.IsValid() || a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsInterfaceLocalMulticast() || a.IsMulticast() || a.IsUnspecified() || !a.IsGlobalUnicast() {
		return false
	}
	for _, p := range blocked {
		if p.Contains(a) {
			return false
		}
	}
	return true
}

// guardedDialer dials only public addresses (unless allowPrivate): it
// resolves the host itself, refuses when any address it resolves to is
// not public, and connects to the checked address, so a name cannot
// resolve to another address between the check and the connection.
// Every connection goes through it, those of redirects too.
type guardedDialer struct {
	dialer   net.Dialer
	resolver *net.Resolver
	allow    func(netip.Addr) bool
}

// newGuardedDialer returns a dialer connecting to the addresses allow
// accepts: Public when nil, any with allowPrivate.
func newGuardedDialer(connectTimeout time.Duration, allowPrivate bool, allow func(netip.Addr) bool) *guardedDialer {
	switch {
	case allowPrivate:
		allow = func(netip.Addr) bool { return true }
	case allow == nil:
		allow = Public
	}
	return &guardedDialer{dialer: net.Dialer{Timeout: connectTimeout}, resolver: net.DefaultResolver, allow: allow}
}

func (d *guardedDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{a}
	} else {
		ips, err := d.resolver.LookupNetIP(ctx, "ip", host)
		if err != nil {
			return nil, fmt.Errorf("resolve %s: %w", host, err)
		}
		addrs = ips
	}
	if len(addrs) == 0 {
		return nil, fmt.Errorf("resolve %s: no addresses", host)
	}
	for _, a := range addrs {
		if !d.allow(a) {
			return nil, fmt.Errorf("%w: %s resolves to %s", errPrivate, host, a)
		}
	}
	var last error
	for _, a := range addrs {
		c, err := d.dialer.DialContext(ctx, network, net.JoinHostPort(a.Unmap().String(), port))
		if err == nil {
			return c, nil
		}
		last = err
		if ctx.Err() != nil {
			break
		}
	}
	return nil, last
}

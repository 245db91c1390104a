// Package netpolicy is the operator's outbound network policy for http,
// MCP and a2a tools: the networks runsvc may connect to. It is enforced when a
// connection is dialled, on the resolved address, so neither a DNS name
// nor a redirect can lead around it; a URL naming a literal address can
// also be checked before anything is sent.
package netpolicy

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
)

// Metadata are the cloud metadata addresses, refused unless a listed
// network other than "everything" contains them.
var Metadata = []netip.Prefix{
	netip.MustParsePrefix("169.254.169.254/32"),
	netip.MustParsePrefix("fd00:ec2::254/128"),
}

// Policy is a set of allowed networks. The zero value and nil allow every
// address except the Metadata ones.
type Policy struct {
	allowed []netip.Prefix
}

// Parse reads networks written as CIDR prefixes or single addresses.
// An empty list is the default policy (everything but Metadata).
func Parse(networks []string) (*Policy, error) {
	p := &Policy{}
	for _, n := range networks {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		pre, err := netip.ParsePrefix(n)
		if err != nil {
			a, aerr := netip.ParseAddr(n)
			if aerr != nil {
				return nil, &errs.ConfigurationInvalid{Subject: "allowed network " + n, Description: "not a CIDR prefix or an IP address"}
			}
			pre = netip.PrefixFrom(a, a.BitLen())
		}
		p.allowed = append(p.allowed, pre.Masked())
	}
	return p, nil
}

// Networks returns the listed networks; empty means the default.
func (p *Policy) Networks() []netip.Prefix {
	if p == nil {
		return nil
	}
	return append([]netip.Prefix(nil), p.allowed...)
}

// Allows reports whether runsvc may connect to a.
func (p *Policy) Allows(a netip.Addr) bool {
	a = a.Unmap().WithZone("")
	metadata := false
	for _, m := range Metadata {
		metadata = metadata || m.Contains(a)
	}
	if p == nil || len(p.allowed) == 0 {
		return !metadata
	}
	for _, n := range p.allowed {
		if n.Contains(a) && (!metadata || n.Bits() > 0) {
			return true
		}
	}
	return false
}

// Refused is a connection the policy did not allow. It becomes
// *errs.AccessDenied through Denied.
type Refused struct {
	Addr netip.Addr
}

// Error returns the error's message.
func (e *Refused) Error() string {
	return fmt.Sprintf("the outbound network policy does not allow connecting to %s", e.Addr)
}

// Control is a net.Dialer Control func refusing addresses the policy does
// not allow, before the connection is made.
func (p *Policy) Control(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("netpolicy: unexpected dial address %q: %w", address, err)
	}
	if !p.Allows(ap.Addr()) {
		return &Refused{Addr: ap.Addr().Unmap()}
	}
	return nil
}

// Transport returns an http.Transport like http.DefaultTransport whose
// every connection, redirects and proxies included, is checked.
func (p *Policy) Transport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, Control: p.Control}
	t.DialContext = d.DialContext
	return t
}

// CheckURL refuses a URL whose host is a literal address the policy does
// not allow, with *errs.AccessDenied naming subject. Host names pass:
// they are checked when dialled.
func (p *Policy) CheckURL(subject, raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return nil // the Spec's validation reports unusable URLs
	}
	a, err := netip.ParseAddr(u.Hostname())
	if err != nil {
		return nil
	}
	if !p.Allows(a) {
		return &errs.AccessDenied{Subject: subject, Reason: (&Refused{Addr: a.Unmap()}).Error()}
	}
	return nil
}

// Denied turns a refused dial found in err into *errs.AccessDenied for
// subject; ok is false when err holds no refusal.
func Denied(subject string, err error) (denied error, ok bool) {
	var r *Refused
	if !errors.As(err, &r) {
		return nil, false
	}
	return &errs.AccessDenied{Subject: subject, Reason: r.Error()}, true
}

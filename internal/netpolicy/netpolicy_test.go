package netpolicy_test

import (
	"errors"
	"net/netip"
	"testing"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/netpolicy"
)

func TestAllows(t *testing.T) {
	tests := []struct {
		name  string
		allow []string
		addr  string
		want  bool
	}{
		{"default allows public", nil, "192.0.2.10", true},
		{"default allows loopback", nil, "127.0.0.1", true},
		{"default refuses IPv4 metadata", nil, "169.254.169.254", false},
		{"default refuses IPv6 metadata", nil, "fd00:ec2::254", false},
		{"default refuses mapped metadata", nil, "::ffff:169.254.169.254", false},
		{"default allows other link-local", nil, "169.254.1.1", true},
		{"listed network", []string{"127.0.0.0/8"}, "127.0.0.1", true},
		{"outside listed network", []string{"10.0.0.0/8"}, "127.0.0.1", false},
		{"mapped address in IPv4 network", []string{"127.0.0.0/8"}, "::ffff:127.0.0.1", true},
		{"everything still refuses metadata", []string{"0.0.0.0/0", "::/0"}, "169.254.169.254", false},
		{"everything allows others", []string{"0.0.0.0/0"}, "203.0.113.5", true},
		{"metadata listed explicitly", []string{"169.254.169.254/32"}, "169.254.169.254", true},
		{"metadata network listed", []string{"169.254.0.0/16"}, "169.254.169.254", true},
		{"single address", []string{"127.0.0.1"}, "127.0.0.1", true},
		{"single address only", []string{"127.0.0.1"}, "127.0.0.2", false},
		{"zoned address", []string{"fe80::/10"}, "fe80::1%eth0", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := netpolicy.Parse(tt.allow)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Allows(netip.MustParseAddr(tt.addr)); got != tt.want {
				t.Fatalf("Allows(%s) with %v = %v, want %v", tt.addr, tt.allow, got, tt.want)
			}
		})
	}
}

func TestParseRefusesGarbage(t *testing.T) {
	for _, bad := range []string{"10.0.0.0/33", "example.com", "10.0.0"} {
		t.Run(bad, func(t *testing.T) {
			_, err := netpolicy.Parse([]string{bad})
			var ci *errs.ConfigurationInvalid
			if !errors.As(err, &ci) {
				t.Fatalf("Parse(%q) = %v, want *errs.ConfigurationInvalid", bad, err)
			}
		})
	}
}

func TestCheckURL(t *testing.T) {
	tests := []struct {
		url    string
		denied bool
	}{
		{"http://169.254.169.254/latest/meta-data", true},
		{"http://[fd00:ec2::254]/", true},
		{"https://169.254.169.254:8443/x", true},
		{"http://metadata.example/", false}, // a name: checked when dialled
		{"http://127.0.0.1:8080/", false},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			err := (*netpolicy.Policy)(nil).CheckURL("tool t", tt.url)
			var denied *errs.AccessDenied
			if got := errors.As(err, &denied); got != tt.denied {
				t.Fatalf("CheckURL(%s) = %v, want denied %v", tt.url, err, tt.denied)
			}
		})
	}
}

func TestControlRefusesBeforeConnecting(t *testing.T) {
	p, _ := netpolicy.Parse([]string{"10.0.0.0/8"})
	err := p.Control("tcp4", "127.0.0.1:80", nil)
	var r *netpolicy.Refused
	if !errors.As(err, &r) || r.Addr != netip.MustParseAddr("127.0.0.1") {
		t.Fatalf("Control = %v, want *Refused for 127.0.0.1", err)
	}
	if err := p.Control("tcp4", "10.1.2.3:80", nil); err != nil {
		t.Fatalf("Control(10.1.2.3) = %v, want nil", err)
	}
	if d, ok := netpolicy.Denied("tool t", err); !ok || !errors.As(d, new(*errs.AccessDenied)) {
		t.Fatalf("Denied(%v) = %v, %v; want *errs.AccessDenied", err, d, ok)
	}
	if _, ok := netpolicy.Denied("tool t", errors.New("connection refused")); ok {
		t.Fatal("Denied reported a refusal in an unrelated error")
	}
}

package scenario_test

import (
	"context"
	"strings"
	"testing"

	"connectrpc.com/connect"

	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/proxytest"
	"github.com/runsvc/runsvc/internal/testing/scenario"
	"github.com/runsvc/runsvc/internal/testing/scenario/servers"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// httpProtocol is one way to reach the HTTP API: the transport it makes
// calls with, given a server's HTTP URL, and whether it can make a call.
type httpProtocol struct {
	name string
	via  func(url string) scenario.Transport
	// form reports whether the protocol has a form of the method; a
	// scenario calling one it has not is listed, not run.
	form func(method string) bool
	// front, when set, puts a proxy in front of a server's HTTP URL and
	// returns the proxy's.
	front func(t testing.TB, url string) string
}

var httpProtocols = []httpProtocol{
	{name: "rest", via: rest, form: scenario.RESTForm},
	{name: "rest through nginx", via: rest, form: scenario.RESTForm, front: func(t testing.TB, u string) string {
		return proxytest.NginxHTTP(t, strings.TrimPrefix(u, "http://"))
	}},
	{name: "grpc-web", via: func(u string) scenario.Transport {
		return scenario.ConnectGo{URL: u, Options: []connect.ClientOption{connect.WithGRPCWeb()}}
	}, form: func(string) bool { return true }},
}

func rest(url string) scenario.Transport { return scenario.REST{URL: url} }

// TestScenariosOverHTTP runs the scenarios file over each protocol of
// the HTTP API (--http-listen), and over REST through nginx's default
// proxy_pass: every scenario must end in the status it
// does over gRPC, code, reason, metadata, retry bit and delay (the
// pushback trailer, or over REST the HTTP status and Retry-After).
func TestScenariosOverHTTP(t *testing.T) {
	f, err := scenario.Load(repoFile(t, "testdata/scenarios.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range httpProtocols {
		t.Run(p.name, func(t *testing.T) {
			on := startHTTP(t, f)
			if p.front != nil {
				for _, srv := range on {
					srv.HTTPURL = p.front(t, srv.HTTPURL)
				}
			}
			runScenarios(t, f, p, on)
		})
	}
}

// startHTTP starts the default server and one per server setting, all
// with the HTTP API, by setting name ("" the default).
func startHTTP(t *testing.T, f *scenario.File) servers.Servers {
	t.Helper()
	srv := testserver.Start(t, testserver.WithHTTP(), func(c *server.Config) { c.PolicyFile = repoFile(t, "testdata/policy.json") })
	started := servers.Start(t, f, testserver.WithHTTP())
	started[""] = &servers.Started{Addr: srv.Addr, Conn: srv.Conn, HTTPURL: srv.HTTPURL}
	return started
}

// runScenarios runs every scenario over p against the servers' HTTP
// URLs, in parallel, after publishing the file's Specs over p.
func runScenarios(t *testing.T, f *scenario.File, p httpProtocol, on servers.Servers) {
	t.Helper()
	ctx := testserver.Context(t)
	if err := (&scenario.Runner{Via: p.via(on[""].HTTPURL), Suite: p.name}).Setup(ctx, f); err != nil {
		t.Fatal(err)
	}
	var without []string
	for _, s := range f.Scenarios {
		if m := formless(s, p); m != "" {
			without = append(without, s.Name+" ("+m+")")
			continue
		}
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancel(ctx)
			defer cancel()
			srv := on[s.Server]
			r := &scenario.Runner{Via: p.via(srv.HTTPURL), Suite: p.name, Vars: srv.Vars}
			o, err := r.Run(ctx, s)
			if err != nil {
				t.Fatal(err)
			}
			problems := s.Problems(o)
			for _, problem := range problems {
				t.Errorf("over %s, %s: %s", p.name, s.Reason, problem)
			}
			if len(problems) > 0 {
				t.Logf("the status: %v", o.Status)
			}
		})
	}
	if len(without) > 0 {
		t.Logf("%d scenarios call a method %s has no form of, not run: %s", len(without), p.name, strings.Join(without, "; "))
	}
}

// formless is the first method a scenario calls that p has no form of.
func formless(s scenario.Scenario, p httpProtocol) string {
	for _, step := range s.Steps {
		if step.Call != "" && !p.form(step.Call) {
			return step.Call
		}
	}
	return ""
}

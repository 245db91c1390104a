package scenario_test

import (
	"context"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/proxytest"
	"github.com/runsvc/runsvc/internal/testing/scenario"
	"github.com/runsvc/runsvc/internal/testing/scenario/servers"
	"github.com/runsvc/runsvc/internal/testing/testserver"
	"github.com/runsvc/runsvc/internal/testing/wirecheck"
)

// TestThroughProxies: every scenario's status arrives intact through
// nginx's grpc_pass and through HAProxy, both with default buffers,
// pushback trailer included, and an error stays Trailers-Only.
func TestThroughProxies(t *testing.T) {
	f, err := scenario.Load(repoFile(t, "testdata/scenarios.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range proxytest.All {
		t.Run(p.Name, func(t *testing.T) {
			srv := testserver.Start(t, func(c *server.Config) { c.PolicyFile = repoFile(t, "testdata/policy.json") })
			proxy := p.Start(t, srv.Addr)
			r := &scenario.Runner{Conn: testserver.Dial(t, proxy), Suite: p.Name}
			ctx := testserver.Context(t)
			if err := r.Setup(ctx, f); err != nil {
				t.Fatal(err)
			}
			// Every server setting's server, behind a proxy of its own;
			// proxytest waits for SERVING, which a server whose store is
			// closed never says, so that one is reached directly.
			runners := map[string]*scenario.Runner{"": r}
			for name, on := range servers.Start(t, f) {
				addr := on.Addr
				if f.Servers[name].Store == "" {
					addr = p.Start(t, on.Addr)
				}
				runners[name] = &scenario.Runner{Conn: testserver.Dial(t, addr), Suite: p.Name, Vars: on.Vars}
			}
			t.Run("scenarios", func(t *testing.T) {
				for _, s := range f.Scenarios {
					t.Run(s.Name, func(t *testing.T) {
						t.Parallel()
						ctx, cancel := context.WithCancel(ctx)
						defer cancel()
						o, err := runners[s.Server].Run(ctx, s)
						if err != nil {
							t.Fatal(err)
						}
						for _, problem := range s.Problems(o) {
							t.Errorf("through %s, %s: %s", p.Name, s.Reason, problem)
						}
					})
				}
			})
			t.Run("the largest errors fit the wire budget", func(t *testing.T) {
				largestErrors(t, [][2]string{{"runsvc", srv.Addr}, {p.Name, proxy}})
			})
			t.Run("Trailers-Only survives the proxy", func(t *testing.T) {
				for _, addr := range []string{srv.Addr, proxy} {
					resp, err := wirecheck.Call(ctx, addr, "/runsvc.v1.RunService/GetRun", &runsvcv1.GetRunRequest{RunId: "run_missing"})
					if err != nil {
						t.Fatal(err)
					}
					if !resp.TrailersOnly {
						t.Errorf("via %s: the error came as %d header blocks and %d data frames, not Trailers-Only: %v", addr, len(resp.Headers), resp.DataFrames, resp.Headers)
					}
					last := resp.Last()
					if last["grpc-status"] != "5" || last[errdetails.PushbackTrailer] != "-1" || last["grpc-status-details-bin"] == "" {
						t.Errorf("via %s: trailers %v", addr, last)
					}
				}
			})
		})
	}
}

// largestErrors sends the wire-budget scenarios' requests on raw HTTP/2
// streams, to the server and through the proxy, and measures what came
// back: a Trailers-Only error of at most 3,072 bytes of grpc-message plus
// grpc-status-details-bin, with its code and reason.
func largestErrors(t *testing.T, via [][2]string) {
	t.Helper()
	long := strings.Repeat("a", 4000)
	delegates := make([]string, 999)
	for i := range delegates {
		delegates[i] = "9"
	}
	cases := []struct {
		name, method, status, reason string
		req                          proto.Message
	}{
		{"1,000 violations", "/runsvc.v1.SpecService/PublishSpec", "3", "SPEC_INVALID",
			&runsvcv1.PublishSpecRequest{Spec: &runsvcv1.Spec{Name: "many-problems", Delegates: delegates}}},
		{"PublishSpec of a 4,000-character name", "/runsvc.v1.SpecService/PublishSpec", "3", "SPEC_INVALID",
			&runsvcv1.PublishSpecRequest{Spec: &runsvcv1.Spec{Name: long}}},
		{"GetSpec of a 4,000-character name", "/runsvc.v1.SpecService/GetSpec", "5", "SPEC_NOT_FOUND",
			&runsvcv1.GetSpecRequest{Name: long}},
	}
	ctx := testserver.Context(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, v := range via {
				name, addr := v[0], v[1]
				resp, err := wirecheck.Call(ctx, addr, tc.method, tc.req)
				if err != nil {
					t.Fatalf("via %s: %v", name, err)
				}
				last := resp.Last()
				if !resp.TrailersOnly || last["grpc-status"] != tc.status {
					t.Fatalf("via %s: Trailers-Only %v, trailers %v", name, resp.TrailersOnly, last)
				}
				if n := resp.WireSize(); n > 3072 {
					t.Errorf("via %s: %d bytes on the wire, over 3,072", name, n)
				}
				st, err := wirecheck.DecodeStatus(last["grpc-status-details-bin"])
				if err != nil {
					t.Fatalf("via %s: %v", name, err)
				}
				if c := errdetails.ClassifyStatus(st); c.Reason != tc.reason {
					t.Errorf("via %s: reason %q, want %q", name, c.Reason, tc.reason)
				}
				t.Logf("via %s: %d bytes on the wire", name, resp.WireSize())
			}
		})
	}
}

package scenario_test

import (
	"testing"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/proxytest"
	"github.com/runsvc/runsvc/internal/scenario"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testserver"
	"github.com/runsvc/runsvc/internal/wirecheck"
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
			t.Run("scenarios", func(t *testing.T) {
				for _, s := range f.Scenarios {
					t.Run(s.Name, func(t *testing.T) {
						t.Parallel()
						o, err := r.Run(ctx, s)
						if err != nil {
							t.Fatal(err)
						}
						for _, problem := range s.Problems(o) {
							t.Errorf("through %s, %s: %s", p.Name, s.Reason, problem)
						}
					})
				}
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

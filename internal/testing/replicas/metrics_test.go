package replicas_test

import (
	"strings"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestRunsActiveIsStoreWide: Runs suspended through replica B, which
// replica A never touched, are in A's runsvc_runs_active as in B's: the
// gauge counts the shared store, not one process's events.
func TestRunsActiveIsStoreWide(t *testing.T) {
	cluster := pgtest.Start(t)
	withMetrics := func(c *server.Config) { c.Ops.MetricsListen = "127.0.0.1:0" }
	b := testserver.Start(t, onReplica(cluster, "replica-b"), withMetrics)
	for range 3 {
		waitingRun(t, b)
	}
	a := testserver.Start(t, onReplica(cluster, "replica-a"), withMetrics)
	const want = `runsvc_runs_active{state="SUSPENDED",suspension="TOOL_RESULTS"} 3`
	for _, replica := range []struct {
		name string
		srv  *testserver.Server
	}{{"replica A", a}, {"replica B", b}} {
		t.Run(replica.name, func(t *testing.T) {
			deadline := time.Now().Add(15 * time.Second) // one count lasts 5s
			for {
				body := scrapeMetrics(t, replica.srv.MetricsAddr)
				if strings.Contains(body, want+"\n") {
					return
				}
				if time.Now().After(deadline) {
					t.Fatalf("%s's /metrics lacks %s", replica.name, want)
				}
				time.Sleep(200 * time.Millisecond)
			}
		})
	}
}

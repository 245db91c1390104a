package server_test

import (
	"testing"

	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestStartRunTakesTheNewestVersionPublishedOnAnotherReplica: on
// PostgreSQL, a replica remembers each Spec's newest Version, so a
// StartRun naming no version reads no Spec; a Version published on
// another replica is still the one the next StartRun runs, because the
// store refuses a Run on a superseded newest and the replica reads again.
func TestStartRunTakesTheNewestVersionPublishedOnAnotherReplica(t *testing.T) {
	dsn := pgtest.Start(t).NewDatabase(t)
	opt := func(c *server.Config) {
		c.Store = dsn
		c.Ops.MetricsListen = "127.0.0.1:0"
	}
	a, b := testserver.Start(t, opt), testserver.Start(t, opt)
	first := a.Publish(t, `{"name": "evolving", "model": {"provider": "scripted", "script": {"turns": [{"text": "first"}]}}}`).GetVersion()
	a.Start(t, "evolving", "warm")
	var second string
	steps := []struct {
		name string
		// publish, when set, is published on replica b first.
		publish string
		// want is the Version the Run must have; reads the Spec reads
		// replica a makes for it.
		want  *string
		reads float64
	}{
		{name: "the remembered newest", want: &first, reads: 0},
		{name: "after b published a newer one", publish: `{"name": "evolving", "model": {"provider": "scripted", "script": {"turns": [{"text": "second"}]}}}`, want: &second, reads: 1},
		{name: "the newer one, remembered", want: &second, reads: 0},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			if st.publish != "" {
				second = b.Publish(t, st.publish).GetVersion()
			}
			before := specReads(t, a.MetricsAddr)
			run := a.Start(t, "evolving", st.name)
			if run.GetVersion() != *st.want {
				t.Errorf("the Run has version %q, want %q", run.GetVersion(), *st.want)
			}
			if reads := specReads(t, a.MetricsAddr) - before; reads != st.reads {
				t.Errorf("StartRun read the Spec %v times, want %v", reads, st.reads)
			}
			if got := a.Wait(t, run.GetRunId()).GetVersion(); got != *st.want {
				t.Errorf("the stored Run has version %q, want %q", got, *st.want)
			}
		})
	}
}

// specReads is how many GetSpec calls of the server's store succeeded.
func specReads(t *testing.T, addr string) float64 {
	t.Helper()
	v, _ := metricValue(t, addr, `runsvc_store_operation_duration_seconds_count{operation="GetSpec",outcome="ok"}`)
	return v
}

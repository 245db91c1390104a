package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
)

// TestClaimLongestWaiting: Claim takes the runnable Run that has waited
// longest, counted from when it became runnable (or was created so), not
// from when it was created: a Run created early that became runnable
// late waits behind one created runnable between the two, whatever the
// appends to the Runs meanwhile.
func TestClaimLongestWaiting(t *testing.T) {
	t.Parallel()
	db := open(t, pgtest.Start(t).NewDatabase(t))
	ctx := context.Background()
	const tenant = store.DefaultTenant
	t0 := time.Now().UTC()
	create := func(id string, at time.Time, runnable bool) {
		t.Helper()
		state := "QUEUED"
		if !runnable {
			state = "SUSPENDED"
		}
		_, _, err := db.CreateRun(ctx, store.NewRun{
			Run: store.Run{Tenant: tenant, RunID: id, Spec: "s", Version: "v1", RootRunID: id, CreateTime: at,
				Index: store.Index{State: state, Runnable: runnable}},
			Records: []store.Record{{Seq: 1, Time: at, Kind: "admitted", Body: []byte(`{}`)}},
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	appendAt := func(id string, seq int64, at time.Time, runnable bool) {
		t.Helper()
		err := db.Append(ctx, store.Append{Tenant: tenant, RunID: id, Index: store.Index{State: "QUEUED", Runnable: runnable},
			Records: []store.Record{{Seq: seq, Time: at, Kind: "x", Body: []byte(`{}`)}}})
		if err != nil {
			t.Fatal(err)
		}
	}
	create("run_early", t0, false)
	create("run_between", t0.Add(time.Second), true)
	appendAt("run_early", 2, t0.Add(2*time.Second), true) // runnable from now on
	// An append to a Run that was runnable already keeps its place.
	appendAt("run_between", 2, t0.Add(3*time.Second), true)
	create("run_late", t0.Add(4*time.Second), true)
	want := []string{"run_between", "run_early", "run_late"}
	for i, id := range want {
		t.Run(id, func(t *testing.T) {
			leases, err := db.Claim(ctx, "w", t0.Add(5*time.Second), time.Minute, 1)
			if err != nil {
				t.Fatal(err)
			}
			if len(leases) != 1 || leases[0].RunID != id {
				t.Errorf("claim %d took %+v, want %s", i+1, leases, id)
			}
		})
	}
}

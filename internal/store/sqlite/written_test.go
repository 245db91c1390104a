package sqlite

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
)

// TestCreateRunTellsWrittenBeforeTheCommit: CreateRun calls
// NewRun.Written once, with the row it then returns, while the Run is not
// yet visible to readers (before the commit); a write queued from
// Written (a handed-over Run's first append) commits after it; and a
// request id that finds an earlier Run calls nothing.
func TestCreateRunTellsWrittenBeforeTheCommit(t *testing.T) {
	db, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	now := time.Unix(1700000000, 0)
	newRun := func(runID string) store.NewRun {
		return store.NewRun{
			Run: store.Run{Tenant: "t", RunID: runID, Spec: "s", Version: "v1", RequestID: "req", CreateTime: now,
				Index: store.Index{State: "RUNNING", Runnable: true}, LeaseOwner: "w1", LeaseExpires: now.Add(time.Minute)},
			Records: []store.Record{{Seq: 1, Time: now, Kind: "admitted", Body: []byte(`{}`)}},
		}
	}
	var told []store.Run
	var seenBefore error
	queued := make(chan error, 1)
	nr := newRun("run_1")
	nr.Written = func(r store.Run) {
		told = append(told, r)
		_, seenBefore = db.GetRun(ctx, "t", "run_1")
		go func() {
			queued <- db.Append(ctx, store.Append{Tenant: "t", RunID: "run_1",
				Records: []store.Record{{Seq: 2, Time: now, Kind: "attempt_started", Body: []byte(`{}`)}},
				Index:   store.Index{State: "RUNNING", Runnable: true},
				Lease:   &store.Lease{Tenant: "t", RunID: "run_1", Owner: "w1", Token: 1, Expires: now.Add(time.Minute)}})
		}()
	}
	row, created, err := db.CreateRun(ctx, nr)
	if err != nil || !created {
		t.Fatalf("CreateRun: created %v, err %v", created, err)
	}
	if len(told) != 1 {
		t.Fatalf("Written called %d times, want once", len(told))
	}
	if told[0].RunID != row.RunID || told[0].LeaseOwner != row.LeaseOwner || !told[0].LeaseExpires.Equal(row.LeaseExpires) || told[0].LastSeq != row.LastSeq {
		t.Errorf("Written told %+v, CreateRun returned %+v", told[0], row)
	}
	var notFound *errs.RunNotFound
	if !errors.As(seenBefore, &notFound) {
		t.Errorf("a reader inside Written got %v, want RunNotFound (the Run not committed yet)", seenBefore)
	}
	if err := <-queued; err != nil {
		t.Errorf("the append queued from Written: %v", err)
	}
	recs, err := db.ReadLog(ctx, "t", "run_1", 1, 0)
	if err != nil || len(recs) != 2 {
		t.Errorf("log after both: %d records, err %v; want 2", len(recs), err)
	}

	again := newRun("run_2")
	again.Written = func(store.Run) { t.Error("Written called for a request id that found an earlier Run") }
	if got, created, err := db.CreateRun(ctx, again); err != nil || created || got.RunID != "run_1" {
		t.Errorf("CreateRun with a used request id: %s, created %v, err %v; want run_1, not created", got.RunID, created, err)
	}
}

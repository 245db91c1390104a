package postgres_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
)

// TestAnEndingAppendSignalsItsRow: the append that settles or suspends a
// Run announces, to this process's waiters for its end, the row GetRun
// returns after it; an append that does not end the Run, and the other
// replica's signal of the same append, carry no row.
func TestAnEndingAppendSignalsItsRow(t *testing.T) {
	t.Parallel()
	cluster := pgtest.Start(t)
	tests := []struct {
		name   string
		thread string
		// kind and state are those of the appended Record and index.
		kind, state string
		// row is whether the writer's subscriber gets the row.
		row bool
	}{
		{name: "settled, on no thread", kind: "settled", state: "COMPLETED", row: true},
		{name: "suspended, on no thread", kind: "suspended", state: "SUSPENDED", row: true},
		{name: "suspended, on a thread", thread: "th_1", kind: "suspended", state: "SUSPENDED", row: true},
		{name: "settled, on a thread (its handover changes the row further)", thread: "th_1", kind: "settled", state: "COMPLETED"},
		{name: "a step that does not end the Run", kind: "step", state: "RUNNING"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dsn := cluster.NewDatabase(t)
			db, replica := open(t, dsn), open(t, dsn)
			ctx := context.Background()
			t0 := time.Now().UTC().Truncate(time.Microsecond)
			run := store.NewRun{
				Run: store.Run{Tenant: store.DefaultTenant, RunID: "run_a", Spec: "s", Version: "v1", RootRunID: "run_a", CreateTime: t0,
					ThreadID: tt.thread, Index: store.Index{State: "QUEUED", Runnable: true}},
				Records: []store.Record{{Seq: 1, Time: t0, Kind: "admitted", Body: []byte(`{}`)}},
			}
			if _, _, err := db.CreateRun(ctx, run); err != nil {
				t.Fatal(err)
			}
			topic := store.RunTopic(store.DefaultTenant, "run_a")
			if tt.row {
				topic = store.RunEndTopic(store.DefaultTenant, "run_a")
			}
			here, there := db.Notifier().Subscribe(topic), replica.Notifier().Subscribe(topic)
			defer here.Close()
			defer there.Close()
			settled := tt.kind == "settled"
			err := db.Append(ctx, store.Append{Tenant: store.DefaultTenant, RunID: "run_a", Index: store.Index{State: tt.state, Settled: settled},
				Ends:    settled || tt.kind == "suspended",
				Records: []store.Record{{Seq: 2, Time: t0.Add(time.Millisecond), Kind: tt.kind, Body: []byte(`{}`)}}})
			if err != nil {
				t.Fatalf("%v: %#v", err, err)
			}
			if recs, err := db.ReadLog(ctx, store.DefaultTenant, "run_a", 2, 0); err != nil || len(recs) != 1 || recs[0].Kind != tt.kind {
				t.Fatalf("ReadLog from seq 2 = %v, %v; want the appended %s Record", recs, err, tt.kind)
			}
			wait(t, "the append, in the writing process", here)
			wait(t, "the append, in the other replica", there)
			if _, ok := there.Run(); ok {
				t.Error("the other replica's signal carries a row; only a write of this process may")
			}
			got, ok := here.Run()
			if ok != tt.row {
				t.Fatalf("the writer's signal carries a row: %v, want %v", ok, tt.row)
			}
			if !ok {
				return
			}
			want, err := db.GetRun(ctx, store.DefaultTenant, "run_a")
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("the signalled row differs from GetRun's:\n signalled %+v\n GetRun    %+v", got, want)
			}
			if got.LastSeq != 2 || got.Index.State != tt.state {
				t.Errorf("signalled row at seq %d in %s, want seq 2 in %s", got.LastSeq, got.Index.State, tt.state)
			}
		})
	}
}

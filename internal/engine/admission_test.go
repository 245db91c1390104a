package engine_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/engine"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/logwriter"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/spec/versions"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/sqlite"
)

// keepingLocal is the engine's slots as the Manager's local worker,
// keeping a copy of each Handover it is given before the Attempt
// touches it.
type keepingLocal struct {
	*engine.Slots
	mu   sync.Mutex
	kept map[string]runs.Handover
}

func (l *keepingLocal) Adopt(lease *store.Lease, adm *runs.Handover) {
	l.mu.Lock()
	l.kept[lease.RunID] = runs.Handover{State: adm.State.Clone(), Row: adm.Row}
	l.mu.Unlock()
	l.Slots.Adopt(lease, adm)
}

// startKeepingEngine runs an engine on a SQLite store as the Manager's
// local worker, through a keepingLocal, until the test ends.
func startKeepingEngine(t *testing.T) (*sqlite.DB, *versions.Registry, *runs.Manager, *keepingLocal) {
	t.Helper()
	errs.SetFailureEncoder(errdetails.StoredFailure)
	db, err := sqlite.Open(t.TempDir(), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	var local *keepingLocal
	reg, mgr := startEngineAs(t, db, stepTool{}, "keeping", nil, func(sl *engine.Slots) runs.Local {
		local = &keepingLocal{Slots: sl, kept: map[string]runs.Handover{}}
		return local
	})
	return db, reg, mgr, local
}

// TestAnAdoptedRunStartsFromWhatWasStored checks that what a Run's
// admission hands the local worker, which then reads nothing back, is
// what reading the Run gives: its log folded to the same State, and its
// row (with the thread fields a continued Run's history is read from)
// as stored.
func TestAnAdoptedRunStartsFromWhatWasStored(t *testing.T) {
	db, reg, mgr, local := startKeepingEngine(t)
	ctx := context.Background()
	sp := spec.Spec{
		Name: "answers", Instructions: "Answer.",
		Model: spec.Model{Provider: spec.ProviderScripted, Script: []spec.Turn{{Text: "Done."}}},
	}
	if _, _, err := reg.Publish(ctx, store.DefaultTenant, sp); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		req  runs.StartRequest
		// continues is the Run the row must say this one continues.
		continues string
	}{
		{name: "a Run on no thread", req: runs.StartRequest{RunID: "run_alone", RequestID: "req-1"}},
		{name: "a thread's first Run", req: runs.StartRequest{RunID: "run_t1", ThreadID: "thr"}},
		{name: "a Run continuing a thread", req: runs.StartRequest{RunID: "run_t2", ThreadID: "thr"}, continues: "run_t1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := tt.req
			req.Tenant, req.Spec, req.Input = store.DefaultTenant, sp.Name, "go"
			if _, _, err := mgr.Start(ctx, req); err != nil {
				t.Fatal(err)
			}
			if _, err := mgr.WaitSettled(ctx, store.DefaultTenant, req.RunID, 20*time.Second); err != nil {
				t.Fatal(err)
			}
			local.mu.Lock()
			adm, ok := local.kept[req.RunID]
			local.mu.Unlock()
			if !ok {
				t.Fatal("the Run was not handed to the local worker")
			}
			stored, err := db.ReadLog(ctx, store.DefaultTenant, req.RunID, 1, int(adm.State.Seq))
			if err != nil {
				t.Fatal(err)
			}
			recs, err := logwriter.FromStore(req.RunID, stored)
			if err != nil {
				t.Fatal(err)
			}
			folded, err := runlog.Fold(req.RunID, recs)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal(folded)
			got, _ := json.Marshal(adm.State)
			if string(got) != string(want) {
				t.Errorf("admission State differs from the stored log's fold:\n got %s\nwant %s", got, want)
			}
			if adm.Row.ContinuesRunID != tt.continues {
				t.Errorf("admission row continues %q, want %q", adm.Row.ContinuesRunID, tt.continues)
			}
			row, err := db.GetRun(ctx, store.DefaultTenant, req.RunID)
			if err != nil {
				t.Fatal(err)
			}
			if a, r := adm.Row, row; a.ThreadID != r.ThreadID || a.ThreadSeq != r.ThreadSeq || a.ContinuesRunID != r.ContinuesRunID ||
				a.RootRunID != r.RootRunID || a.Spec != r.Spec || a.Version != r.Version || a.RequestID != r.RequestID {
				t.Errorf("admission row %+v differs from the stored row %+v", a, r)
			}
		})
	}
}

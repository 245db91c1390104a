package logwriter_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/logwriter"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/sqlite"
)

const tenant = store.DefaultTenant

// newRun opens a SQLite store with one admitted Run and a Writer on it.
func newRun(t *testing.T) (store.Store, *logwriter.Writer, string) {
	t.Helper()
	return newRunWith(t, logwriter.Options{})
}

// newRunWith is newRun with a Writer made with o.
func newRunWith(t *testing.T, o logwriter.Options) (store.Store, *logwriter.Writer, string) {
	t.Helper()
	db, err := sqlite.Open(t.TempDir(), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	now := time.Now().UTC()
	st := runlog.New("run_a")
	recs := logwriter.Stamp(st, 0, now, &runlog.Admitted{Tenant: tenant, Spec: "s", Version: "v1", Input: "hi", Deadline: now.Add(time.Hour), RootRunID: "run_a"})
	if err := st.ApplyAll(recs); err != nil {
		t.Fatal(err)
	}
	stored, err := logwriter.ToStore(recs)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.CreateRun(context.Background(), store.NewRun{Run: store.Run{Tenant: tenant, RunID: "run_a", Spec: "s", Version: "v1", RootRunID: "run_a", CreateTime: now, Index: logwriter.Index(st)}, Records: stored}); err != nil {
		t.Fatal(err)
	}
	return db, logwriter.New(db, o), "run_a"
}

// TestWorkerPolicy: a worker's append that meets an outsider's Record
// folds it in and asks decide again on the State after it; one that meets
// another worker's Record ends with ErrSuperseded and writes nothing.
func TestWorkerPolicy(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		foreign func(w *logwriter.Writer, s store.Store) error
		want    error
		kinds   []string
	}{
		{"outsider folded in, decided again", func(w *logwriter.Writer, _ store.Store) error {
			_, err := w.Mutate(ctx, tenant, "run_a", logwriter.Ops(&runlog.MessageQueued{Text: "hello", Mode: runlog.ModeFollowUp}))
			return err
		}, nil, []string{"admitted", "attempt_started", "message_queued", "turn_started"}},
		{"another worker supersedes", func(_ *logwriter.Writer, s store.Store) error {
			rec, _ := logwriter.ToStore([]runlog.Record{{Seq: 3, Time: time.Now(), Attempt: 2, Op: &runlog.AttemptStarted{Attempt: 2, WorkerID: "other"}}})
			return s.Append(ctx, store.Append{Tenant: tenant, RunID: "run_a", Records: rec, Index: store.Index{State: "RUNNING"}})
		}, logwriter.ErrSuperseded, []string{"admitted", "attempt_started", "attempt_started"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, w, runID := newRun(t)
			l, err := w.Open(ctx, tenant, runID, logwriter.Worker(nil, 1))
			if err != nil {
				t.Fatal(err)
			}
			if err := l.Append(ctx, false, logwriter.Ops(&runlog.AttemptStarted{Attempt: 1, WorkerID: "me"})); err != nil {
				t.Fatal(err)
			}
			if err := tc.foreign(w, s); err != nil {
				t.Fatal(err)
			}
			var asked []int
			err = l.Append(ctx, false, func(st *runlog.State) ([]runlog.Op, error) {
				asked = append(asked, len(st.Queued))
				return []runlog.Op{&runlog.TurnStarted{Turn: 1}}, nil
			})
			if !errors.Is(err, tc.want) {
				t.Fatalf("append: %v, want %v", err, tc.want)
			}
			if tc.want == nil && (len(asked) != 2 || asked[1] != 1) {
				t.Errorf("decide saw %v queued messages on its tries, want [0 1]", asked)
			}
			log, err := s.ReadLog(ctx, tenant, runID, 1, 0)
			if err != nil {
				t.Fatal(err)
			}
			var kinds []string
			for _, r := range log {
				kinds = append(kinds, r.Kind)
			}
			if fmt.Sprint(kinds) != fmt.Sprint(tc.kinds) {
				t.Errorf("log %v, want %v", kinds, tc.kinds)
			}
		})
	}
}

// TestOutsidersContend: outsiders writing at once all get in, each once.
func TestOutsidersContend(t *testing.T) {
	s, w, runID := newRun(t)
	ctx := context.Background()
	const n = 50
	var wg sync.WaitGroup
	errc := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := w.Mutate(ctx, tenant, runID, logwriter.Ops(&runlog.MessageQueued{Text: fmt.Sprint(i), Mode: runlog.ModeSteer}))
			errc <- err
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		if err != nil {
			t.Error(err)
		}
	}
	st, _, err := w.Load(ctx, tenant, runID)
	if err != nil || len(st.Queued) != n {
		t.Fatalf("%d messages queued (%v), want %d", len(st.Queued), err, n)
	}
	if run, _ := s.GetRun(ctx, tenant, runID); run.LastSeq != n+1 {
		t.Errorf("last seq %d, want %d", run.LastSeq, n+1)
	}
}

// TestCorruptLogFailsBesideTheLog: a writer meeting a corrupt log returns
// the corruption, appends nothing, and leaves the index FAILED with it;
// the Run's OnSettle hook hears of it once.
func TestCorruptLogFailsBesideTheLog(t *testing.T) {
	var settled []runlog.Status
	s, w, runID := newRunWith(t, logwriter.Options{OnSettle: func(_ context.Context, st *runlog.State) { settled = append(settled, st.Status) }})
	ctx := context.Background()
	bad, _ := logwriter.ToStore([]runlog.Record{{Seq: 2, Time: time.Now(), Op: &runlog.Resumed{Reason: runlog.ReasonQuestion, Answer: "x"}}})
	if err := s.Append(ctx, store.Append{Tenant: tenant, RunID: runID, Records: bad, Index: store.Index{State: "QUEUED", Runnable: true}}); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		_, err := w.Mutate(ctx, tenant, runID, logwriter.Ops(&runlog.MessageQueued{Text: "x", Mode: runlog.ModeSteer}))
		var corrupt *errs.CorruptLog
		if !errors.As(err, &corrupt) || corrupt.Seq != 2 || corrupt.Reason != errs.CorruptResumeWithoutSuspend {
			t.Fatalf("mutate of a corrupt log: %v", err)
		}
	}
	run, err := s.GetRun(ctx, tenant, runID)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := logwriter.DecodeSummary(run.Index.Summary)
	if err != nil || run.LastSeq != 2 || run.Index.State != "FAILED" || run.Index.Runnable || sum.Failure == nil {
		t.Fatalf("run %+v summary %+v %v", run, sum, err)
	}
	if f := sum.Failure; f.Reason != "LOG_CORRUPT" || f.Metadata["corruption"] != string(errs.CorruptResumeWithoutSuspend) {
		t.Errorf("failure %+v, want LOG_CORRUPT with corruption %s", f, errs.CorruptResumeWithoutSuspend)
	}
	if fmt.Sprint(settled) != "[FAILED]" {
		t.Errorf("OnSettle heard %v, want FAILED once", settled)
	}
}

// TestOutsiderGivesUpAtTheCallersDeadline: an outsider that keeps losing
// to other writers retries, with pauses, until its caller's deadline and
// then returns that deadline's error, never *errs.SeqConflict.
func TestOutsiderGivesUpAtTheCallersDeadline(t *testing.T) {
	s, w, runID := newRun(t)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	tries := 0
	_, err := w.Mutate(ctx, tenant, runID, func(st *runlog.State) ([]runlog.Op, error) {
		tries++
		// Another outsider gets in first, every time.
		rec, _ := logwriter.ToStore([]runlog.Record{{Seq: st.Seq + 1, Time: time.Now(), Op: &runlog.MessageQueued{Text: "first", Mode: runlog.ModeSteer}}})
		if err := s.Append(context.Background(), store.Append{Tenant: tenant, RunID: runID, Records: rec, Index: store.Index{State: "QUEUED"}}); err != nil {
			return nil, err
		}
		return []runlog.Op{&runlog.MessageQueued{Text: "mine", Mode: runlog.ModeSteer}}, nil
	})
	var conflict *errs.SeqConflict
	if !errors.Is(err, context.DeadlineExceeded) || errors.As(err, &conflict) {
		t.Fatalf("after %d tries: %v, want the caller's deadline", tries, err)
	}
	if tries < 3 {
		t.Errorf("%d tries before the deadline, want several", tries)
	}
	t.Logf("%d tries in 300ms", tries)
}

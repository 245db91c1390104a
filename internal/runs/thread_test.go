package runs_test

import (
	"errors"
	"testing"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/store"
)

// TestThreadStrategies: a start on a thread whose Run is active is
// refused (reject, the default), waits behind it (enqueue) and starts
// continuing it once it settles, or interrupts it (interrupt; a Run no
// worker holds settles ABORTED at once) and takes its place.
func TestThreadStrategies(t *testing.T) {
	h := newHarness(t)
	ctx := ctxOf(t)
	first := h.start(t, "one", "th", "")
	if th, err := h.m.GetThread(ctx, tenant, "th"); err != nil || th.ActiveRunID != first.RunID {
		t.Fatalf("GetThread = %+v, %v; want %s active", th, err, first.RunID)
	}
	_, _, err := h.m.Start(ctx, runs.StartRequest{Tenant: tenant, Spec: "s", Input: "two", ThreadID: "th"})
	if !isA[*errs.ThreadBusy](err) {
		t.Fatalf("a second start with reject: %v, want ThreadBusy", err)
	}

	queued := h.start(t, "two", "th", runs.StrategyEnqueue)
	if !queued.Waiting || queued.ThreadID != "th" {
		t.Errorf("enqueued Run waiting %v on thread %q, want waiting on th", queued.Waiting, queued.ThreadID)
	}
	h.finish(t, first.RunID, 1)
	promoted := h.get(t, queued.RunID)
	if promoted.Waiting || promoted.ContinuesRunID != first.RunID {
		t.Errorf("after the first settled, the enqueued Run waits %v and continues %q; want it started, continuing %s", promoted.Waiting, promoted.ContinuesRunID, first.RunID)
	}
	if th, _ := h.m.GetThread(ctx, tenant, "th"); th.ActiveRunID != queued.RunID {
		t.Errorf("thread's active Run %s, want %s", th.ActiveRunID, queued.RunID)
	}

	third := h.start(t, "three", "th", runs.StrategyInterrupt)
	if got := h.get(t, queued.RunID); got.Status != runlog.StatusAborted {
		t.Errorf("the interrupted Run is %s, want ABORTED", got.Status)
	}
	if got := h.get(t, third.RunID); got.Waiting || got.ContinuesRunID != queued.RunID {
		t.Errorf("the interrupting Run waits %v and continues %q; want started, continuing %s", got.Waiting, got.ContinuesRunID, queued.RunID)
	}
	threads, _, err := h.m.ListThreads(ctx, tenant, store.ThreadQuery{PageSize: 10})
	if err != nil || len(threads) != 1 || threads[0].ThreadID != "th" {
		t.Errorf("ListThreads = %+v, %v; want th alone", threads, err)
	}
	if _, err := h.m.GetThread(ctx, tenant, "missing"); !isA[*errs.ThreadNotFound](err) {
		t.Errorf("GetThread(missing) = %v, want ThreadNotFound", err)
	}
}

// TestThreadStartValidation: thread fields a start may not carry.
func TestThreadStartValidation(t *testing.T) {
	h := newHarness(t)
	for _, tc := range []struct {
		name string
		req  runs.StartRequest
	}{
		{"strategy without thread", runs.StartRequest{Spec: "s", Strategy: runs.StrategyEnqueue}},
		{"unknown strategy", runs.StartRequest{Spec: "s", ThreadID: "th", Strategy: "shout"}},
		{"long thread id", runs.StartRequest{Spec: "s", ThreadID: string(make([]byte, runs.MaxThreadIDBytes+1))}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.Tenant = tenant
			if _, _, err := h.m.Start(ctxOf(t), tc.req); !isA[*errs.InvalidRequest](err) {
				t.Errorf("Start = %v, want InvalidRequest", err)
			}
		})
	}
}

// TestSteer: a steer start gives its input to the thread's active Run as
// a steer message instead of starting one; repeated with the same request
// id it returns the same Run and steers once; the id with another body is
// REQUEST_ID_REUSED; on a thread with no active Run it starts one.
func TestSteer(t *testing.T) {
	h := newHarness(t)
	ctx := ctxOf(t)
	active := h.start(t, "one", "th", "")
	steer := runs.StartRequest{Tenant: tenant, Spec: "s", Input: "and also", ThreadID: "th", Strategy: runs.StrategySteer, RequestID: "steer-1"}
	for range 2 {
		run, created, err := h.m.Start(ctx, steer)
		if err != nil || created || !run.Steered || run.RunID != active.RunID {
			t.Fatalf("steer start = %s steered %v created %v, %v; want %s steered", run.RunID, run.Steered, created, err, active.RunID)
		}
	}
	st, _ := h.records(t, active.RunID)
	if len(st.Queued) != 1 || st.Queued[0].Text != "and also" || st.Queued[0].Mode != runlog.ModeSteer {
		t.Errorf("the active Run's queued messages %+v, want one steer \"and also\"", st.Queued)
	}
	steer.Input = "something else"
	if _, _, err := h.m.Start(ctx, steer); !isA[*errs.RequestIDReused](err) {
		t.Errorf("steer with a reused request id: %v, want RequestIDReused", err)
	}
	h.finish(t, active.RunID, 1)
	steer.RequestID = ""
	run, created, err := h.m.Start(ctx, steer)
	if err != nil || !created || run.Steered || run.ContinuesRunID != active.RunID {
		t.Errorf("steer with no active Run = created %v steered %v continuing %q, %v; want a new Run continuing %s", created, run.Steered, run.ContinuesRunID, err, active.RunID)
	}
}

// steerStart is a Start with strategy steer on thread.
func (h *harness) steerStart(t *testing.T, thread, requestID, input string) (runs.Run, bool, error) {
	return h.m.Start(ctxOf(t), runs.StartRequest{Tenant: tenant, Spec: "s", Input: input, ThreadID: thread, RequestID: requestID, Strategy: runs.StrategySteer})
}

// queuedTexts lists the texts of a Run's message_queued Records.
func (h *harness) queuedTexts(t *testing.T, runID string) []string {
	_, recs := h.records(t, runID)
	var out []string
	for _, r := range recs {
		if m, ok := r.Op.(*runlog.MessageQueued); ok {
			out = append(out, m.Text)
		}
	}
	return out
}

// TestSteerStartIdempotentByRequestID: a steered start retried with
// its request id and body returns the same steered Run without steering
// it again, while the Run is active and after it settled; the request id
// with another body is REQUEST_ID_REUSED naming that Run; a steer start
// that created its Run (no active one), retried, returns that Run, not
// steered into it.
func TestSteerStartIdempotentByRequestID(t *testing.T) {
	h := newHarness(t)
	first, created, err := h.steerStart(t, "steer-retry", "start-1", "begin")
	if err != nil || !created || first.Steered {
		t.Fatalf("first start: %+v created %v, %v", first, created, err)
	}
	runID := first.RunID
	cases := []struct {
		name, requestID, input string
		created, steered       bool
		reused                 bool
		queued                 int
	}{
		{name: "steer", requestID: "steer-1", input: "more", steered: true, queued: 1},
		{name: "retried steer", requestID: "steer-1", input: "more", steered: true, queued: 1},
		{name: "retried again", requestID: "steer-1", input: "more", steered: true, queued: 1},
		{name: "another body", requestID: "steer-1", input: "other", reused: true, queued: 1},
		{name: "retried creating start", requestID: "start-1", input: "begin", queued: 1},
		{name: "creating start's id, another body", requestID: "start-1", input: "other", reused: true, queued: 1},
		{name: "second steer", requestID: "steer-2", input: "more", steered: true, queued: 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			run, created, err := h.steerStart(t, "steer-retry", tc.requestID, tc.input)
			if tc.reused {
				var reused *errs.RequestIDReused
				if !errors.As(err, &reused) || reused.RunID != runID {
					t.Fatalf("err %v, want REQUEST_ID_REUSED naming %s", err, runID)
				}
			} else if err != nil || run.RunID != runID || created != tc.created || run.Steered != tc.steered {
				t.Fatalf("got %s created %v steered %v (err %v), want run %s created %v steered %v", run.RunID, created, run.Steered, err, runID, tc.created, tc.steered)
			}
			if q := h.queuedTexts(t, runID); len(q) != tc.queued {
				t.Errorf("the run has %d queued messages %q, want %d", len(q), q, tc.queued)
			}
		})
	}
	h.finish(t, runID, 1)
	t.Run("retried after the run settled", func(t *testing.T) {
		run, created, err := h.steerStart(t, "steer-retry", "steer-1", "more")
		if err != nil || run.RunID != runID || created || !run.Steered {
			t.Fatalf("got %s created %v steered %v (err %v), want run %s steered, not created", run.RunID, created, run.Steered, err, runID)
		}
		list, _, err := h.m.List(ctxOf(t), tenant, store.RunQuery{ThreadID: "steer-retry"})
		if err != nil || len(list) != 1 {
			t.Errorf("the thread has %d Runs (err %v), want 1", len(list), err)
		}
		if q := h.queuedTexts(t, runID); len(q) != 2 {
			t.Errorf("the run has queued %q, want 2 messages", q)
		}
	})
}

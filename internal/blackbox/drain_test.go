package blackbox_test

import (
	"strconv"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/blackbox"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testserver"
)

const drainSpec = `{"name": "waits", "model": {"provider": "scripted", "script": {"turns": [{"toolCalls": [{"name": "ask", "arguments": {}}]}, {"text": "done"}]}},
  "tools": [{"name": "ask", "kind": "TOOL_KIND_CLIENT"}]}`

// watcher is one open WatchRun and how it ended.
type watcher struct {
	lastSeq int64
	err     error
	trailer metadata.MD
}

// TestSIGTERMEndsWatchersAtOnce: with 100 WatchRun streams open on a
// suspended Run (and the default 20s drain timeout), SIGTERM makes the
// process exit in under 2s, and every watcher ends UNAVAILABLE with
// RetryInfo and the seq to resume from (the one after its last Record).
func TestSIGTERMEndsWatchersAtOnce(t *testing.T) {
	const n = 100
	p := blackbox.Serve(t, blackbox.FreePort(t), "--data", t.TempDir())
	conn := p.Dial(t)
	testserver.Publish(t, runsvcv1.NewSpecServiceClient(conn), drainSpec)
	runs := runsvcv1.NewRunServiceClient(conn)
	ctx := testserver.Context(t)
	resp, err := runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "waits", Input: "go"})
	if err != nil {
		t.Fatal(err)
	}
	run := waitState(t, runs, resp.GetRun().GetRunId(), runsvcv1.RunState_RUN_STATE_SUSPENDED)

	watchers := make([]*watcher, n)
	var caughtUp, ended sync.WaitGroup
	for i := range watchers {
		w := &watcher{}
		watchers[i] = w
		caughtUp.Add(1)
		ended.Add(1)
		go func() {
			defer ended.Done()
			stream, err := runs.WatchRun(ctx, &runsvcv1.WatchRunRequest{RunId: run.GetRunId()}, grpc.Trailer(&w.trailer))
			if err != nil {
				w.err = err
				caughtUp.Done()
				return
			}
			signalled := false
			for {
				m, err := stream.Recv()
				if err != nil {
					w.err = err
					if !signalled {
						caughtUp.Done()
					}
					return
				}
				w.lastSeq = m.GetRecord().GetSeq()
				if w.lastSeq == run.GetLastSeq() && !signalled {
					signalled = true
					caughtUp.Done()
				}
			}
		}()
	}
	caughtUp.Wait()

	start := time.Now()
	if code := p.Stop(t); code != 0 {
		t.Errorf("exit code %d\n%s", code, p.Log())
	}
	took := time.Since(start)
	t.Logf("SIGTERM to exit with %d watchers: %v", n, took.Round(time.Millisecond))
	if took >= 2*time.Second {
		t.Errorf("exit took %v, want < 2s", took)
	}
	ended.Wait()
	for i, w := range watchers {
		c := errdetails.Classify(w.err)
		resume := w.trailer.Get(server.ResumeSeqTrailer)
		want := strconv.FormatInt(w.lastSeq+1, 10)
		if c.Code != codes.Unavailable || !c.Retryable || c.RetryDelay <= 0 || len(resume) != 1 || resume[0] != want {
			t.Errorf("watcher %d: ended %v %s retryable=%v delay=%v resume=%v, want UNAVAILABLE with RetryInfo and resume seq %s (err %v)",
				i, c.Code, c.Reason, c.Retryable, c.RetryDelay, resume, want, w.err)
		}
	}
}

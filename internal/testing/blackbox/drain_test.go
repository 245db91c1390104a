package blackbox_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/types/known/structpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/blackbox"
	"github.com/runsvc/runsvc/internal/testing/testserver"
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

// TestRunWatchReconnectsAcrossARestart: `runsvc run watch` follows a
// suspended Run; the server is stopped with SIGTERM and started again on
// the same address and data; the watch says it reconnects, continues
// from the next seq, and prints every Record once, in order, until the
// resumed Run completes (exit 0).
func TestRunWatchReconnectsAcrossARestart(t *testing.T) {
	addr, data := blackbox.FreePort(t), t.TempDir()
	p := blackbox.Serve(t, addr, "--data", data)
	conn := p.Dial(t)
	testserver.Publish(t, runsvcv1.NewSpecServiceClient(conn), drainSpec)
	runs := runsvcv1.NewRunServiceClient(conn)
	resp, err := runs.StartRun(testserver.Context(t), &runsvcv1.StartRunRequest{Spec: "waits", Input: "go"})
	if err != nil {
		t.Fatal(err)
	}
	run := waitState(t, runs, resp.GetRun().GetRunId(), runsvcv1.RunState_RUN_STATE_SUSPENDED)

	watch := exec.Command(blackbox.Binary(t), "--json", "run", "watch", run.GetRunId())
	watch.Env = append(os.Environ(), "RUNSVC_ADDR="+addr)
	stdout, stderr := &testserver.Buffer{}, &testserver.Buffer{}
	watch.Stdout, watch.Stderr = stdout, stderr
	if err := watch.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- watch.Wait() }()
	t.Cleanup(func() { _ = watch.Process.Kill() })
	waitUntil(t, func() bool { return len(seqsOf(t, stdout.String())) == int(run.GetLastSeq()) })

	if code := p.Stop(t); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	p = blackbox.Serve(t, addr, "--data", data)
	runs = runsvcv1.NewRunServiceClient(p.Dial(t))
	if _, err := runs.ResumeRun(testserver.Context(t), &runsvcv1.ResumeRunRequest{RunId: run.GetRunId(), ToolResults: []*runsvcv1.ToolResult{{CallId: "call_1_1", Output: structpb.NewStringValue("here")}}}); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("run watch: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("run watch did not finish after the restart\nstdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
	}
	seqs := seqsOf(t, stdout.String())
	for i, s := range seqs {
		if s != int64(i+1) {
			t.Fatalf("records printed %v: a gap or a repeat at %d", seqs, i)
		}
	}
	final := waitState(t, runs, run.GetRunId(), runsvcv1.RunState_RUN_STATE_COMPLETED)
	if int64(len(seqs)) != final.GetLastSeq() {
		t.Errorf("printed %d records, the Run has %d", len(seqs), final.GetLastSeq())
	}
	if !strings.Contains(stderr.String(), "reconnecting from record "+strconv.FormatInt(run.GetLastSeq()+1, 10)) {
		t.Errorf("run watch did not say it reconnects from record %d:\n%s", run.GetLastSeq()+1, stderr.String())
	}
	t.Logf("run watch stderr:\n%s", stderr.String())
}

// seqsOf reads the seqs of the records `run watch --json` printed.
func seqsOf(t *testing.T, out string) []int64 {
	t.Helper()
	var seqs []int64
	for _, line := range strings.Split(out, "\n") {
		var m struct {
			Record struct {
				Seq string `json:"seq"`
			} `json:"record"`
		}
		if json.Unmarshal([]byte(line), &m) != nil || m.Record.Seq == "" {
			continue
		}
		n, err := strconv.ParseInt(m.Record.Seq, 10, 64)
		if err != nil {
			t.Fatalf("seq %q: %v", m.Record.Seq, err)
		}
		seqs = append(seqs, n)
	}
	return seqs
}

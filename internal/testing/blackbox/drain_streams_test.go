package blackbox_test

import (
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/types/known/structpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/testing/blackbox"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestSIGTERMEndsEveryLongStream: each kind of long stream (StreamText,
// Receive, WatchMemory, ServeTools, WatchRun), open and idle when the
// process gets SIGTERM, ends UNAVAILABLE with RetryInfo.
func TestSIGTERMEndsEveryLongStream(t *testing.T) {
	p := blackbox.Serve(t, blackbox.FreePort(t), "--data", t.TempDir())
	conn := p.Dial(t)
	specs := runsvcv1.NewSpecServiceClient(conn)
	testserver.Publish(t, specs, drainSpec)
	testserver.Publish(t, specs, `{"name": "listener", "model": {"provider": "scripted", "script": {"turns": [{"text": "x"}]}}, "bus": {"enabled": true, "channels": ["quiet"]}}`)
	runs := runsvcv1.NewRunServiceClient(conn)
	ctx := testserver.Context(t)
	started, err := runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "waits", Input: "go"})
	if err != nil {
		t.Fatal(err)
	}
	run := waitState(t, runs, started.GetRun().GetRunId(), runsvcv1.RunState_RUN_STATE_SUSPENDED)
	memory, bus := runsvcv1.NewMemoryServiceClient(conn), runsvcv1.NewBusServiceClient(conn)
	ns := &runsvcv1.MemoryScope{Scope: &runsvcv1.MemoryScope_Namespace{Namespace: "ns"}}
	if _, err := memory.SetValue(ctx, &runsvcv1.SetValueRequest{Scope: ns, Key: "k", Value: structpb.NewStringValue("v")}); err != nil {
		t.Fatal(err)
	}
	if _, err := bus.SendMessage(ctx, &runsvcv1.BusServiceSendMessageRequest{Sender: "listener", Channel: "quiet", Content: structpb.NewStringValue("hi")}); err != nil {
		t.Fatal(err)
	}
	ends := openLongStreams(t, ctx, conn, run.GetRunId(), ns)
	start := time.Now()
	if code := p.Stop(t); code != 0 {
		t.Errorf("exit code %d\n%s", code, p.Log())
	}
	t.Logf("SIGTERM to exit with %d long streams open: %v", len(ends), time.Since(start).Round(time.Millisecond))
	for name, end := range ends {
		t.Run(name, func(t *testing.T) {
			err := <-end
			c := errdetails.Classify(err)
			if c.Code != codes.Unavailable || !c.Retryable || c.RetryDelay <= 0 {
				t.Errorf("%s ended %v %s retryable=%v delay=%v (%v), want UNAVAILABLE with RetryInfo", name, c.Code, c.Reason, c.Retryable, c.RetryDelay, err)
			}
		})
	}
}

// recver is a server stream's receiving half.
type recver[T any] interface{ Recv() (T, error) }

// firstThenDrain waits for a stream's first message, then returns a func
// reading the rest until the stream ends, with its error.
func firstThenDrain[T any](s recver[T], err error) (func() error, error) {
	if err != nil {
		return nil, err
	}
	if _, err := s.Recv(); err != nil {
		return nil, err
	}
	return func() error { return drainRecv(s.Recv) }, nil
}

// drainRecv reads until the stream ends and returns its error.
func drainRecv[T any](recv func() (T, error)) error {
	for {
		if _, err := recv(); err != nil {
			return err
		}
	}
}

package blackbox_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/structpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/testing/blackbox"
	"github.com/runsvc/runsvc/internal/testing/testserver"
	"github.com/runsvc/runsvc/internal/testing/tlstest"
)

// as returns ctx carrying key as the bearer token.
func as(ctx context.Context, key string) context.Context {
	return metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+key)
}

// TestRevokedKeyEndsItsStreams: each kind of long stream (StreamText,
// Receive, WatchMemory, ServeTools, WatchRun), opened with a key that is
// then removed from the keys file of a running `runsvc serve`, ends
// UNAUTHENTICATED once the file reloads (checked every 500 ms); the
// streams of a key still in the file go on.
func TestRevokedKeyEndsItsStreams(t *testing.T) {
	keysFile := filepath.Join(t.TempDir(), "keys.json")
	adminKey, admin := tlstest.Key(t, "operator", "acme", auth.RoleAdmin)
	doomedKey, doomed := tlstest.Key(t, "doomed", "acme", auth.RoleReader, auth.RoleRunner, auth.RoleWorker)
	tlstest.WriteKeys(t, keysFile, []auth.Entry{admin, doomed})
	p := blackbox.Serve(t, blackbox.FreePort(t), "--data", t.TempDir(), "--keys-file", keysFile)
	conn := p.Dial(t)
	ctx := testserver.Context(t)
	actx := as(ctx, adminKey)
	specs := runsvcv1.NewSpecServiceClient(conn)
	for _, s := range []string{drainSpec, `{"name": "listener", "model": {"provider": "scripted", "script": {"turns": [{"text": "x"}]}}, "bus": {"enabled": true, "channels": ["quiet"]}}`} {
		if _, err := specs.PublishSpec(actx, publishRequest(t, s)); err != nil {
			t.Fatal(err)
		}
	}
	runs := runsvcv1.NewRunServiceClient(conn)
	started, err := runs.StartRun(actx, &runsvcv1.StartRunRequest{Spec: "waits", Input: "go"})
	if err != nil {
		t.Fatal(err)
	}
	runID := started.GetRun().GetRunId()
	waitSuspended(t, runs, actx, runID)
	memory, bus := runsvcv1.NewMemoryServiceClient(conn), runsvcv1.NewBusServiceClient(conn)
	ns := &runsvcv1.MemoryScope{Scope: &runsvcv1.MemoryScope_Namespace{Namespace: "ns"}}
	if _, err := memory.SetValue(actx, &runsvcv1.SetValueRequest{Scope: ns, Key: "k", Value: structpb.NewStringValue("v")}); err != nil {
		t.Fatal(err)
	}
	if _, err := bus.SendMessage(actx, &runsvcv1.BusServiceSendMessageRequest{Sender: "listener", Channel: "quiet", Content: structpb.NewStringValue("hi")}); err != nil {
		t.Fatal(err)
	}
	dctx := as(ctx, doomedKey)
	ends := openLongStreams(t, dctx, conn, runID, ns)
	// A stream of the key that stays must go on.
	kept, err := runs.WatchRun(actx, &runsvcv1.WatchRunRequest{RunId: runID})
	if err != nil {
		t.Fatal(err)
	}
	keptEnd := make(chan error, 1)
	go func() { keptEnd <- drainRecv(kept.Recv) }()

	tlstest.WriteKeys(t, keysFile, []auth.Entry{admin})
	removed := time.Now()
	for name, end := range ends {
		t.Run(name, func(t *testing.T) {
			select {
			case err := <-end:
				took := time.Since(removed)
				c := errdetails.Classify(err)
				if c.Code != codes.Unauthenticated || c.Reason != "UNAUTHENTICATED" || c.Retryable {
					t.Fatalf("%s ended %v %s retryable=%v (%v), want UNAUTHENTICATED", name, c.Code, c.Reason, c.Retryable, err)
				}
				t.Logf("%s ended UNAUTHENTICATED %v after the key left the file", name, took.Round(time.Millisecond))
			case <-time.After(10 * time.Second):
				t.Fatalf("%s still open 10 s after its key left the keys file", name)
			}
		})
	}
	select {
	case err := <-keptEnd:
		t.Errorf("the WatchRun of a key still in the file ended: %v", err)
	default:
	}
	if _, err := runs.GetRun(dctx, &runsvcv1.GetRunRequest{RunId: runID}); errdetails.Classify(err).Reason != "UNAUTHENTICATED" {
		t.Errorf("a new call with the removed key: %v, want UNAUTHENTICATED", err)
	}
}

// openLongStreams opens one stream of each long kind with ctx's key,
// each once it got a first message, and returns how each ends.
func openLongStreams(t *testing.T, ctx context.Context, conn *grpc.ClientConn, runID string, ns *runsvcv1.MemoryScope) map[string]chan error {
	t.Helper()
	runs, memory, bus := runsvcv1.NewRunServiceClient(conn), runsvcv1.NewMemoryServiceClient(conn), runsvcv1.NewBusServiceClient(conn)
	openers := map[string]func(context.Context) (func() error, error){
		"StreamText": func(ctx context.Context) (func() error, error) {
			s, err := runs.StreamText(ctx, &runsvcv1.StreamTextRequest{RunId: runID, HeartbeatInterval: durationpb.New(100 * time.Millisecond)})
			return firstThenDrain(s, err)
		},
		"Receive": func(ctx context.Context) (func() error, error) {
			s, err := bus.Receive(ctx, &runsvcv1.ReceiveRequest{Channel: "quiet"})
			return firstThenDrain(s, err)
		},
		"WatchMemory": func(ctx context.Context) (func() error, error) {
			s, err := memory.WatchMemory(ctx, &runsvcv1.WatchMemoryRequest{Scope: ns, IncludeExisting: true})
			return firstThenDrain(s, err)
		},
		"WatchRun": func(ctx context.Context) (func() error, error) {
			s, err := runs.WatchRun(ctx, &runsvcv1.WatchRunRequest{RunId: runID})
			return firstThenDrain(s, err)
		},
		"ServeTools": func(ctx context.Context) (func() error, error) {
			s, err := runsvcv1.NewToolServiceClient(conn).ServeTools(ctx)
			if err != nil {
				return nil, err
			}
			reg := &runsvcv1.ServeToolsRequest_Register{WorkerName: "w", Tools: []*runsvcv1.ToolDefinition{{Name: "idle"}}}
			if err := testserver.Register(s, reg); err != nil {
				return nil, err
			}
			return func() error { return drainRecv(s.Recv) }, nil
		},
	}
	ends := map[string]chan error{}
	for name, open := range openers {
		rest, err := open(ctx)
		if err != nil {
			t.Fatalf("opening %s: %v", name, err)
		}
		end := make(chan error, 1)
		ends[name] = end
		go func() { end <- rest() }()
	}
	return ends
}

// publishRequest is the PublishSpecRequest of a Spec in JSON.
func publishRequest(t *testing.T, specJSON string) *runsvcv1.PublishSpecRequest {
	t.Helper()
	var s runsvcv1.Spec
	if err := protojson.Unmarshal([]byte(specJSON), &s); err != nil {
		t.Fatal(err)
	}
	return &runsvcv1.PublishSpecRequest{Spec: &s}
}

// waitSuspended waits for the Run to suspend.
func waitSuspended(t *testing.T, runs runsvcv1.RunServiceClient, ctx context.Context, id string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		resp, err := runs.WaitRun(ctx, &runsvcv1.WaitRunRequest{RunId: id, Wait: durationpb.New(5 * time.Second)})
		if err == nil && resp.GetRun().GetState() == runsvcv1.RunState_RUN_STATE_SUSPENDED {
			return
		}
	}
	t.Fatal("the Run did not suspend")
}

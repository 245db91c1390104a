package scenario_test

import (
	"context"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/structpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/proxytest"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestIdleWatchThroughNginxHeartbeats: through nginx with
// grpc_read_timeout 30s, a WatchRun that asks for heartbeats stays open
// while the Run is idle for 60s and then gets the Run's next Records; the
// same watch without heartbeats is cut by nginx (the control).
func TestIdleWatchThroughNginxHeartbeats(t *testing.T) {
	if testing.Short() {
		t.Skip("idles for 60s")
	}
	// Keepalive pings would keep nginx reading too: push them past the test
	// so that only heartbeats can.
	srv := testserver.Start(t, func(c *server.Config) { c.Ops.KeepaliveTime = 10 * time.Minute })
	srv.Publish(t, `{"name": "idle", "model": {"provider": "scripted", "script": {"turns": [{"toolCalls": [{"name": "ask", "arguments": {}}]}, {"text": "woke up"}]}},
	  "tools": [{"name": "ask", "kind": "TOOL_KIND_CLIENT"}]}`)
	run := srv.Wait(t, srv.Start(t, "idle", "go").GetRunId())
	proxy := proxytest.NginxWithReadTimeout(t, srv.Addr, 30*time.Second)
	runs := runsvcv1.NewRunServiceClient(testserver.Dial(t, proxy))
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)

	type result struct {
		records, beats int
		err            error
	}
	watch := func(interval *durationpb.Duration, until int64, out chan<- result) {
		stream, err := runs.WatchRun(ctx, &runsvcv1.WatchRunRequest{RunId: run.GetRunId(), HeartbeatInterval: interval})
		var r result
		for err == nil {
			var m *runsvcv1.WatchRunResponse
			if m, err = stream.Recv(); err != nil {
				break
			}
			if m.GetHeartbeatTime() != nil {
				r.beats++
				continue
			}
			r.records++
			if m.GetRecord().GetSeq() >= until {
				break
			}
		}
		r.err = err
		out <- r
	}
	control, beating := make(chan result, 1), make(chan result, 1)
	go watch(nil, 1<<62, control)
	go watch(durationpb.New(10*time.Second), run.GetLastSeq()+2, beating)

	time.Sleep(60 * time.Second)
	select {
	case r := <-control:
		if r.err == nil || r.beats != 0 {
			t.Errorf("control watch without heartbeats: %+v, want it cut by nginx", r)
		}
		t.Logf("control watch without heartbeats was cut: %v", r.err)
	default:
		t.Error("the control watch without heartbeats is still open after 60s: nginx's timeout did not apply")
	}
	_, err := srv.Runs.ResumeRun(ctx, &runsvcv1.ResumeRunRequest{RunId: run.GetRunId(), ToolResults: []*runsvcv1.ToolResult{{CallId: "call_1_1", Output: structpb.NewStringValue("here")}}})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-beating:
		if r.err != nil || r.beats < 4 {
			t.Errorf("heartbeat watch: %+v, want the new Records after >= 4 heartbeats and no error", r)
		}
		t.Logf("heartbeat watch: %d records, %d heartbeats over 60s idle", r.records, r.beats)
	case <-time.After(20 * time.Second):
		t.Error("the heartbeat watch got no Records after the resume")
	}
}

package blackbox_test

import (
	"testing"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/a2ajs"
	"github.com/runsvc/runsvc/internal/testing/blackbox"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// a2aSlowSpec is an A2A agent whose one turn takes 4s.
const a2aSlowSpec = `{"name": "slowagent", "exposure": {"a2a": true}, "model": {"provider": "scripted", "script": {"turns": [{"text": "Finished after all.", "delay": "4s"}]}}}`

// TestA2AResubscribeAfterKill: @a2a-js/sdk's client starts a task on each
// binding, the built binary is killed with SIGKILL mid-turn and started
// again, and the client's SubscribeToTask on each binding follows the
// task, taken over by the new process, until it completes with the
// answer: the task is its Run, so it survives as the Run does.
func TestA2AResubscribeAfterKill(t *testing.T) {
	a2ajs.Available(t)
	data, addr, httpAddr := t.TempDir(), blackbox.FreePort(t), blackbox.FreePort(t)
	args := []string{"--data", data, "--lease-ttl", "2s", "--http-listen", httpAddr}
	p := blackbox.Serve(t, addr, args...)
	conn := p.Dial(t)
	testserver.Publish(t, runsvcv1.NewSpecServiceClient(conn), a2aSlowSpec)
	base := "http://" + httpAddr
	bindings := []string{"JSONRPC", "HTTP+JSON"}
	ids := map[string]string{}
	runs := runsvcv1.NewRunServiceClient(conn)
	for _, b := range bindings {
		var started struct{ ID, State string }
		a2ajs.Run(t, a2ajs.Config{Base: base, Binding: b, Op: "start", Agent: "slowagent"}, &started)
		ids[b] = started.ID
		waitUntil(t, func() bool {
			got, err := runs.GetRun(testserver.Context(t), &runsvcv1.GetRunRequest{RunId: started.ID})
			return err == nil && got.GetRun().GetState() == runsvcv1.RunState_RUN_STATE_RUNNING
		})
	}

	p.Kill()
	blackbox.Serve(t, addr, args...)
	waits := map[string]func(any){}
	for _, b := range bindings {
		waits[b] = a2ajs.Go(t, a2ajs.Config{Base: base, Binding: b, Op: "resubscribe", Agent: "slowagent", ID: ids[b]})
	}
	for _, b := range bindings {
		var got struct {
			Kinds        []string
			Text, Answer string
			Last         string
		}
		waits[b](&got)
		if got.Last != "TASK_STATE_COMPLETED" || got.Answer != "Finished after all." || len(got.Kinds) < 3 || got.Kinds[0] != "task" {
			t.Errorf("%s: resubscribed to %s after the kill and saw %+v; want the task, then its completion with the answer", b, ids[b], got)
		}
	}
}

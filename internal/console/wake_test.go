package console_test

import (
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestWakeNow: a Run asleep on a timer offers "Wake now" to a runner, and
// the button wakes it (ResumeRun with no answer): it completes long
// before its hour is up. A worker, who may not resume, is not offered it.
func TestWakeNow(t *testing.T) {
	s := startSite(t, false)
	ctx := testserver.Context(t)
	testserver.Publish(t, runsvcv1.NewSpecServiceClient(s.srv.Conn), `{"name": "napper", "model": {"provider": "scripted", "script": {"turns": [
	    {"toolCalls": [{"name": "sleep", "arguments": {"duration": "1h"}}]}, {"text": "up"}]}},
	  "tools": [{"name": "sleep", "kind": "TOOL_KIND_BUILTIN"}], "limits": {"deadline": "36000s"}}`)
	id := s.srv.Start(t, "napper", "nap").GetRunId()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		got, err := s.srv.Runs.GetRun(ctx, &runsvcv1.GetRunRequest{RunId: id})
		if err != nil {
			t.Fatal(err)
		}
		if got.GetRun().GetSuspension().GetReason() == runsvcv1.SuspensionReason_SUSPENSION_REASON_TIMER {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the Run never slept: %v", got.GetRun())
		}
	}
	tests := []struct {
		role  string
		offer bool
	}{
		{auth.RoleWorker, false},
		{auth.RoleRunner, true},
	}
	for _, tt := range tests {
		t.Run(tt.role, func(t *testing.T) {
			s.client.Jar, _ = cookiejar.New(nil)
			s.post(t, "/login", url.Values{"csrf": {s.csrf(t)}, "key": {s.keys[tt.role]}})
			_, body := s.get(t, "/runs/"+id)
			if got := strings.Contains(body, `id="resume-wake"`); got != tt.offer {
				t.Fatalf("a %s is offered Wake now: %v, want %v\n%s", tt.role, got, tt.offer, body)
			}
			if !tt.offer {
				return
			}
			token := csrfField.FindStringSubmatch(body[strings.Index(body, `id="resume-wake"`):])[1]
			resp, _ := s.post(t, "/runs/"+id+"/resume", url.Values{"csrf": {token}, "kind": {"wake"}})
			if resp.StatusCode != http.StatusSeeOther {
				t.Fatalf("POST resume: %d", resp.StatusCode)
			}
			run, err := s.srv.Runs.WaitRun(ctx, &runsvcv1.WaitRunRequest{RunId: id})
			if err != nil {
				t.Fatal(err)
			}
			if run.GetRun().GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED {
				t.Fatalf("after Wake now: %v", run.GetRun().GetState())
			}
		})
	}
}

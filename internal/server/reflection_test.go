package server_test

import (
	"os/exec"
	"strings"
	"testing"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestReflectionRendersFailure: grpcurl, knowing runsvc only through
// server reflection, prints the ErrorInfo inside a failed Run's failure.
func TestReflectionRendersFailure(t *testing.T) {
	srv := testserver.Start(t)
	srv.Publish(t, `{"name": "refused", "model": {"provider": "scripted", "script": {"turns": [{"fail": {"httpStatus": 400, "times": 1, "message": "bad request"}}]}}}`)
	run := srv.Wait(t, srv.Start(t, "refused", "hi").GetRunId())
	if run.GetState() != runsvcv1.RunState_RUN_STATE_FAILED {
		t.Fatalf("run is %v, want FAILED", run.GetState())
	}
	cmd := exec.Command("go", "tool", "grpcurl", "-plaintext", "-d", `{"run_id": "`+run.GetRunId()+`"}`, srv.Addr, "runsvc.v1.RunService/GetRun")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("grpcurl: %v\n%s", err, out)
	}
	for _, want := range []string{`"failure": {`, `"@type": "type.googleapis.com/google.rpc.ErrorInfo"`, `"reason": "INFERENCE_REJECTED"`, `"@type": "type.googleapis.com/google.rpc.PreconditionFailure"`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("grpcurl output lacks %s:\n%s", want, out)
		}
	}
}

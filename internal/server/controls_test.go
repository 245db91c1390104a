package server_test

import (
	"strings"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestModelControlsValidatedAtPublish: out-of-range model controls are
// SPEC_INVALID over gRPC, every one in the BadRequest at its field; in
// range, they publish and come back in the Spec.
func TestModelControlsValidatedAtPublish(t *testing.T) {
	srv := testserver.Start(t)
	bad := `{"name":"ctl","model":{"provider":"openai","model":"m","baseUrl":"http://127.0.0.1:1/v1",
		"temperature":3,"topP":0,"maxOutputTokens":-5,"stop":["a",""],"toolChoice":"missing"}}`
	sp := &runsvcv1.Spec{}
	if err := protojson.Unmarshal([]byte(bad), sp); err != nil {
		t.Fatal(err)
	}
	_, err := srv.Specs.PublishSpec(testserver.Context(t), &runsvcv1.PublishSpecRequest{Spec: sp})
	if got := reasonOf(err); got != "SPEC_INVALID" {
		t.Fatalf("reason %q (%v), want SPEC_INVALID", got, err)
	}
	fields := map[string]bool{}
	for _, d := range status.Convert(err).Details() {
		if br, ok := d.(*errdetails.BadRequest); ok {
			for _, v := range br.GetFieldViolations() {
				fields[v.GetField()] = true
			}
		}
	}
	for _, f := range []string{"model.temperature", "model.top_p", "model.max_output_tokens", "model.stop[1]", "model.tool_choice"} {
		if !fields[f] {
			t.Errorf("no violation at %s; got %v", f, fields)
		}
	}

	good := srv.Publish(t, `{"name":"ctl","model":{"provider":"anthropic","model":"claude-test","temperature":0.5,"topP":0.9,
		"maxOutputTokens":100,"stop":["END"],"toolChoice":"none","parallelToolCalls":false}}`)
	m := good.GetModel()
	if m.GetTemperature() != 0.5 || m.GetTopP() != 0.9 || m.GetMaxOutputTokens() != 100 || strings.Join(m.GetStop(), ",") != "END" ||
		m.GetToolChoice() != "none" || m.ParallelToolCalls == nil || m.GetParallelToolCalls() {
		t.Errorf("published model %v", m)
	}
}

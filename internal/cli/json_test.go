package cli_test

import (
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// jsonStep is one command run with --json, its exit code, the message
// type of each line it prints and a check of those messages.
type jsonStep struct {
	name  string
	args  func() []string
	code  int
	empty func() proto.Message // the message type of each line
	check func(t *testing.T, lines []proto.Message)
}

// jsonSteps are TestJSONOutput's steps, in order, publishing the spec file
// hello first; the run start step sets *id, which the later ones read when
// they run.
func jsonSteps(hello string, id *string) []jsonStep {
	return []jsonStep{
		{
			name:  "spec publish",
			args:  func() []string { return []string{"spec", "publish", hello} },
			empty: func() proto.Message { return &runsvcv1.PublishSpecResponse{} },
			check: func(t *testing.T, m []proto.Message) {
				r := m[0].(*runsvcv1.PublishSpecResponse)
				if !r.GetCreated() || r.GetSpec().GetTools()[0].GetKind() != runsvcv1.ToolKind_TOOL_KIND_CLIENT {
					t.Errorf("response %v", r)
				}
			},
		},
		{name: "spec get", args: func() []string { return []string{"spec", "get", "hello"} }, empty: func() proto.Message { return &runsvcv1.GetSpecResponse{} }},
		{name: "spec list", args: func() []string { return []string{"spec", "list"} }, empty: func() proto.Message { return &runsvcv1.ListSpecsResponse{} }},
		{
			name: "run start",
			args: func() []string {
				return []string{"run", "start", "hello", "--input", "weather?", "--request-id", "req-1"}
			},
			empty: func() proto.Message { return &runsvcv1.StartRunResponse{} },
			check: func(t *testing.T, m []proto.Message) { *id = m[0].(*runsvcv1.StartRunResponse).GetRun().GetRunId() },
		},
		{
			name: "run start again with the request id",
			args: func() []string {
				return []string{"run", "start", "hello", "--input", "weather?", "--request-id", "req-1"}
			},
			empty: func() proto.Message { return &runsvcv1.StartRunResponse{} },
			check: func(t *testing.T, m []proto.Message) {
				if r := m[0].(*runsvcv1.StartRunResponse); r.GetCreated() || r.GetRun().GetRunId() != *id {
					t.Errorf("a repeated start returned %v, want run %s not created", r, *id)
				}
			},
		},
		{
			name:  "run watch",
			args:  func() []string { return []string{"run", "watch", *id, "--until-suspended"} },
			empty: func() proto.Message { return &runsvcv1.WatchRunResponse{} },
			check: func(t *testing.T, m []proto.Message) {
				for i, msg := range m {
					if seq := msg.(*runsvcv1.WatchRunResponse).GetRecord().GetSeq(); seq != int64(i+1) {
						t.Errorf("line %d holds seq %d", i, seq)
					}
				}
				if m[len(m)-1].(*runsvcv1.WatchRunResponse).GetRecord().GetSuspended() == nil {
					t.Errorf("the last record is not Suspended: %v", m[len(m)-1])
				}
			},
		},
		{name: "run get", args: func() []string { return []string{"run", "get", *id} }, empty: func() proto.Message { return &runsvcv1.GetRunResponse{} }},
		{
			name:  "run resume",
			args:  func() []string { return []string{"run", "resume", *id, "--results", `{"call_1_1": "sunny"}`} },
			empty: func() proto.Message { return &runsvcv1.ResumeRunResponse{} },
		},
		{
			name:  "run watch to completion",
			args:  func() []string { return []string{"run", "watch", *id} },
			empty: func() proto.Message { return &runsvcv1.WatchRunResponse{} },
			check: func(t *testing.T, m []proto.Message) {
				last := m[len(m)-1].(*runsvcv1.WatchRunResponse).GetRecord().GetSettled()
				if last.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED || last.GetAnswer() != "It is sunny." {
					t.Errorf("the last record settles %v", last)
				}
			},
		},
		{
			name:  "run wait",
			args:  func() []string { return []string{"run", "wait", *id} },
			empty: func() proto.Message { return &runsvcv1.WaitRunResponse{} },
		},
		{name: "run list", args: func() []string { return []string{"run", "list"} }, empty: func() proto.Message { return &runsvcv1.ListRunsResponse{} }},
		{name: "run interrupt", args: func() []string { return []string{"run", "interrupt", *id} }, empty: func() proto.Message { return &runsvcv1.InterruptRunResponse{} }},
	}
}

// TestJSONOutput checks that every command's --json output is protojson of
// its response, one object per line.
func TestJSONOutput(t *testing.T) {
	srv := testserver.Start(t)
	c := newClient(t, srv)
	hello := writeFile(t, "hello.yaml", helloYAML)
	var id string
	steps := jsonSteps(hello, &id)
	for _, s := range steps {
		if !t.Run(s.name, func(t *testing.T) {
			r := c.run(append([]string{"--json"}, s.args()...)...)
			if r.code != s.code {
				t.Fatalf("exit %d, want %d\n%s%s", r.code, s.code, r.stdout, r.stderr)
			}
			var msgs []proto.Message
			for _, line := range strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n") {
				m := s.empty()
				if err := protojson.Unmarshal([]byte(line), m); err != nil {
					t.Fatalf("a line is not protojson of %T: %v\n%s", m, err, line)
				}
				msgs = append(msgs, m)
			}
			if s.check != nil {
				s.check(t, msgs)
			}
		}) {
			t.FailNow()
		}
	}
	t.Run("unset fields are present", func(t *testing.T) {
		out := c.must("--json", "spec", "publish", hello)
		if !strings.Contains(out, `"created":false`) {
			t.Errorf("a republish does not say created false: %s", out)
		}
	})
}

package server_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/fakeopenai"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// badRequest returns the reason and field -> description of a status's
// BadRequest.
func badRequest(t *testing.T, st *status.Status) (string, map[string]string) {
	t.Helper()
	reason := ""
	fields := map[string]string{}
	for _, d := range st.Details() {
		switch d := d.(type) {
		case *errdetails.ErrorInfo:
			reason = d.GetReason()
		case *errdetails.BadRequest:
			for _, v := range d.GetFieldViolations() {
				fields[v.GetField()] = v.GetDescription()
			}
		}
	}
	return reason, fields
}

// TestPublishCompilesSchemas: every tool's parameters and the output
// schema are compiled as JSON Schema at publish, and every problem is one
// violation naming the field path and the schema path.
func TestPublishCompilesSchemas(t *testing.T) {
	srv := testserver.Start(t)
	tests := []struct {
		name string
		spec string
		want map[string]string // field -> fragment of its description
	}{
		{"bad type, undefined required, bad keyword, bad output", `{"name": "bad-schemas", "model": {"provider": "scripted", "script": {"turns": [{"text": "x"}]}},
		  "tools": [
		    {"name": "search", "kind": "TOOL_KIND_WORKER", "parameters": {"type": "object", "properties": {"q": {"type": "strng"}}, "required": ["q", "missing"]}},
		    {"name": "count", "kind": "TOOL_KIND_CLIENT", "parameters": {"type": "object", "properties": {"n": {"minimum": "one"}, "p": {"pattern": "("}}}}],
		  "output": {"schema": {"type": "objekt"}}}`,
			map[string]string{
				"tools[0].parameters.properties.q.type":    "value must be one of 'array', 'boolean', 'integer', 'null', 'number', 'object', 'string' (schema path /properties/q/type)",
				"tools[0].parameters.required[1]":          `requires "missing", which properties does not define (schema path /required/1)`,
				"tools[1].parameters.properties.n.minimum": "got string, want number (schema path /properties/n/minimum)",
				"tools[1].parameters.properties.p.pattern": "is not valid regex",
				"output.schema.type":                       "value must be one of",
			}},
		{"file ref refused", `{"name": "file-ref", "model": {"provider": "scripted", "script": {"turns": [{"text": "x"}]}},
		  "tools": [{"name": "search", "kind": "TOOL_KIND_CLIENT", "parameters": {"type": "object", "$ref": "file:///etc/passwd"}}]}`,
			map[string]string{"tools[0].parameters": `cannot resolve $ref "file:///etc/passwd"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sp := &runsvcv1.Spec{}
			if err := protojson.Unmarshal([]byte(tc.spec), sp); err != nil {
				t.Fatal(err)
			}
			_, err := srv.Specs.PublishSpec(testserver.Context(t), &runsvcv1.PublishSpecRequest{Spec: sp})
			st := status.Convert(err)
			reason, fields := badRequest(t, st)
			if st.Code() != codes.InvalidArgument || reason != "SPEC_INVALID" {
				t.Fatalf("PublishSpec = %v %s, want INVALID_ARGUMENT SPEC_INVALID", st.Code(), reason)
			}
			if len(fields) != len(tc.want) {
				t.Errorf("got %d violations %v, want %d", len(fields), fields, len(tc.want))
			}
			for field, frag := range tc.want {
				if !strings.Contains(fields[field], frag) {
					t.Errorf("violation %s = %q, want it to contain %q", field, fields[field], frag)
				}
			}
		})
	}
}

// TestArgumentsCheckedBeforeTheCall: arguments that break the tool's
// schema (the Spec's, or the one its worker registered) never reach the
// worker or the http endpoint; the model gets an error result saying why,
// and a conforming call goes through.
func TestArgumentsCheckedBeforeTheCall(t *testing.T) {
	srv := testserver.Start(t)
	endpoint := startRecordingHTTPTool(t)
	worker := startRecordingWorker(t, srv,
		&runsvcv1.ToolDefinition{Name: "wsearch", Description: "Searches the web", Parameters: mustStruct(t, `{"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"], "additionalProperties": false}`)},
		&runsvcv1.ToolDefinition{Name: "wdeclared"})
	params := `{"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"], "additionalProperties": false}`
	tests := []struct {
		name, tool, kind string
		args             string
		wantCalls        int
		want             []string // fragments of the result the model sees
	}{
		{"worker, Spec schema", "wdeclared", "TOOL_KIND_WORKER", `{"extra": true, "q": 42}`, 0,
			[]string{"not called", "at /q: got number, want string (schema /properties/q/type)", "additional properties 'extra' not allowed (schema /additionalProperties)"}},
		{"worker, registered schema", "wsearch", "TOOL_KIND_WORKER", `{"q": 42}`, 0, []string{"at /q: got number, want string"}},
		{"http, Spec schema", "hsearch", "TOOL_KIND_HTTP", `{}`, 0, []string{"missing property 'q'"}},
		{"worker, conforming", "wdeclared", "TOOL_KIND_WORKER", `{"q": "runsvc"}`, 1, []string{`"ok":true`}},
		{"http, conforming", "hsearch", "TOOL_KIND_HTTP", `{"q": "runsvc"}`, 1, []string{`"ok":true`}},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			model := fakeopenai.Start(t, fakeopenai.Turn{Calls: []fakeopenai.Call{{ID: "call_a", Name: tc.tool, Args: tc.args}}}, fakeopenai.Turn{Text: "done"})
			toolJSON := fmt.Sprintf(`{"name": %q, "kind": %q, "parameters": %s}`, tc.tool, tc.kind, params)
			switch {
			case tc.kind == "TOOL_KIND_HTTP":
				toolJSON = fmt.Sprintf(`{"name": %q, "kind": %q, "parameters": %s, "http": {"url": %q}}`, tc.tool, tc.kind, params, endpoint.URL)
			case tc.tool == "wsearch":
				toolJSON = fmt.Sprintf(`{"name": %q, "kind": %q}`, tc.tool, tc.kind) // the worker's schema applies
			}
			name := fmt.Sprintf("args-%d", i)
			srv.Publish(t, fmt.Sprintf(`{"name": %q, "model": {"provider": "openai", "model": "fake", "baseUrl": %q}, "tools": [%s]}`, name, model.URL, toolJSON))
			workerBefore, httpBefore := len(worker.IDs()), int(endpoint.calls.Load())
			run := srv.Settled(t, srv.Start(t, name, "go").GetRunId())
			if run.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED {
				t.Fatalf("run %v: %v", run.GetState(), run.GetFailure())
			}
			calls := len(worker.IDs()) - workerBefore + int(endpoint.calls.Load()) - httpBefore
			if calls != tc.wantCalls {
				t.Errorf("the tool was called %d times, want %d", calls, tc.wantCalls)
			}
			reqs := model.Requests()
			if len(reqs) != 2 {
				t.Fatalf("the model was called %d times, want 2", len(reqs))
			}
			msgs := fakeopenai.Messages(reqs[1])
			last := msgs[len(msgs)-1]
			content, _ := last["content"].(string)
			if last["role"] != "tool" || last["tool_call_id"] != "call_a" {
				t.Fatalf("last message to the model = %v, want the tool's result for call_a", last)
			}
			for _, w := range tc.want {
				if !strings.Contains(strings.ReplaceAll(content, " ", ""), strings.ReplaceAll(w, " ", "")) {
					t.Errorf("the model saw %q, want it to contain %q", content, w)
				}
			}
		})
	}
}

// TestWorkerToolDescriptionReachesModel: a worker tool the Spec declares by
// name alone is offered to the model with the description and schema its
// worker registered.
func TestWorkerToolDescriptionReachesModel(t *testing.T) {
	srv := testserver.Start(t)
	startRecordingWorker(t, srv, &runsvcv1.ToolDefinition{Name: "wtool", Description: "Looks things up", Parameters: mustStruct(t, `{"type": "object", "properties": {"q": {"type": "string"}}}`)})
	model := fakeopenai.Start(t, fakeopenai.Turn{Text: "done"})
	srv.Publish(t, fmt.Sprintf(`{"name": "described", "model": {"provider": "openai", "model": "fake", "baseUrl": %q}, "tools": [{"name": "wtool", "kind": "TOOL_KIND_WORKER"}]}`, model.URL))
	srv.Settled(t, srv.Start(t, "described", "go").GetRunId())
	reqs := model.Requests()
	if len(reqs) != 1 {
		t.Fatalf("the model was called %d times, want 1", len(reqs))
	}
	tools, _ := reqs[0]["tools"].([]any)
	if len(tools) != 1 {
		t.Fatalf("tools sent = %v, want one", reqs[0]["tools"])
	}
	fn, _ := tools[0].(map[string]any)["function"].(map[string]any)
	props, _ := fn["parameters"].(map[string]any)["properties"].(map[string]any)
	if fn["name"] != "wtool" || fn["description"] != "Looks things up" || props["q"] == nil {
		t.Errorf("the model was offered %v, want wtool with its registered description and schema", fn)
	}
}

// outputSpec is a Spec whose answers come from model and must match
// {"q": string}.
func outputSpec(name, url string) string {
	return fmt.Sprintf(`{"name": %q, "model": {"provider": "openai", "model": "fake", "baseUrl": %q},
	  "output": {"schema": {"type": "object", "properties": {"q": {"type": "string"}, "items": {"type": "array", "items": {"type": "integer"}}}, "required": ["q"]}}}`, name, url)
}

// TestStructuredOutput: a conforming answer completes; a non-conforming one
// is asked for again once with the mismatches, and a second mismatch fails
// the Run OUTPUT_INVALID with the answer's JSON path in a BadRequest.
func TestStructuredOutput(t *testing.T) {
	srv := testserver.Start(t)
	tests := []struct {
		name       string
		answers    []string
		state      runsvcv1.RunState
		calls      int
		wantFields map[string]string // OUTPUT_INVALID's violations (some of them when count is set)
		count      int               // how many violations, when not len(wantFields)
	}{
		{"conforming", []string{`{"q": "yes"}`}, runsvcv1.RunState_RUN_STATE_COMPLETED, 1, nil, 0},
		{"fenced conforming", []string{"```json\n{\"q\": \"yes\"}\n```"}, runsvcv1.RunState_RUN_STATE_COMPLETED, 1, nil, 0},
		{"fixed when asked again", []string{`{"q": 1}`, `{"q": "fixed"}`}, runsvcv1.RunState_RUN_STATE_COMPLETED, 2, nil, 0},
		{"wrong twice", []string{`{"q": 1}`, `{"q": "x", "items": [1, "two"]}`}, runsvcv1.RunState_RUN_STATE_FAILED, 2,
			map[string]string{"answer.items[1]": "got string, want integer (schema path /properties/items/items/type)"}, 0},
		{"not JSON twice", []string{"sure!", "here you go"}, runsvcv1.RunState_RUN_STATE_FAILED, 2, map[string]string{"answer": "is not valid JSON"}, 0},
		{"many mismatches are counted", []string{`{"q": 1}`, `{"q": "x", "items": [` + strings.Repeat(`"s", `, 24) + `"s"]}`}, runsvcv1.RunState_RUN_STATE_FAILED, 2,
			map[string]string{"answer": "and 5 more mismatches", "answer.items[19]": "got string, want integer"}, 21},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var turns []fakeopenai.Turn
			for _, a := range tc.answers {
				turns = append(turns, fakeopenai.Turn{Text: a})
			}
			model := fakeopenai.Start(t, turns...)
			name := fmt.Sprintf("output-%d", i)
			srv.Publish(t, outputSpec(name, model.URL))
			run := srv.Settled(t, srv.Start(t, name, "go").GetRunId())
			if run.GetState() != tc.state {
				t.Fatalf("run = %v (%v), want %v", run.GetState(), run.GetFailure(), tc.state)
			}
			reqs := model.Requests()
			if len(reqs) != tc.calls {
				t.Fatalf("the model was called %d times, want %d", len(reqs), tc.calls)
			}
			if tc.calls == 2 {
				msgs := fakeopenai.Messages(reqs[1])
				reask, _ := msgs[len(msgs)-1]["content"].(string)
				if msgs[len(msgs)-1]["role"] != "user" || !strings.Contains(reask, "does not match the JSON Schema") || !strings.Contains(reask, "answer") {
					t.Errorf("the model was asked again with %v, want a user message naming the mismatch", msgs[len(msgs)-1])
				}
			}
			if finals := finalTexts(t, srv, run.GetRunId()); tc.wantFields == nil && !slices.Equal(finals, tc.answers[len(tc.answers)-1:]) || tc.wantFields != nil && len(finals) > 0 {
				t.Errorf("StreamText marked %q final", finals)
			}
			if tc.wantFields == nil {
				if run.GetAnswer() != tc.answers[len(tc.answers)-1] {
					t.Errorf("answer = %q", run.GetAnswer())
				}
				return
			}
			count := tc.count
			if count == 0 {
				count = len(tc.wantFields)
			}
			checkOutputInvalid(t, run.GetFailure(), tc.wantFields, count)
		})
	}
}

// finalTexts returns the texts StreamText marks final.
func finalTexts(t *testing.T, srv *testserver.Server, runID string) []string {
	t.Helper()
	stream, err := srv.Runs.StreamText(testserver.Context(t), &runsvcv1.StreamTextRequest{RunId: runID})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for {
		msg, err := stream.Recv()
		if err != nil {
			return out
		}
		if msg.GetFinal() {
			out = append(out, msg.GetText())
		}
	}
}

func checkOutputInvalid(t *testing.T, failure *spb.Status, want map[string]string, count int) {
	t.Helper()
	st := status.FromProto(failure)
	reason, fields := badRequest(t, st)
	if st.Code() != codes.FailedPrecondition || reason != "OUTPUT_INVALID" {
		t.Fatalf("failure = %v %s, want FAILED_PRECONDITION OUTPUT_INVALID", st.Code(), reason)
	}
	if len(fields) != count {
		t.Errorf("%d violations %v, want %d", len(fields), fields, count)
	}
	for f, frag := range want {
		if !strings.Contains(fields[f], frag) {
			t.Errorf("violation %s = %q, want it to contain %q", f, fields[f], frag)
		}
	}
}

// TestRepeatedProviderCallIDs: a provider that names its calls call_0 and
// call_1 every turn still gives the worker and the http tool distinct call
// ids, stable in the log, while the provider gets its own ids back.
func TestRepeatedProviderCallIDs(t *testing.T) {
	srv := testserver.Start(t)
	endpoint := startRecordingHTTPTool(t)
	worker := startRecordingWorker(t, srv, &runsvcv1.ToolDefinition{Name: "wtool"})
	both := fakeopenai.Turn{Calls: []fakeopenai.Call{{ID: "call_0", Name: "wtool", Args: `{}`}, {ID: "call_1", Name: "htool", Args: `{}`}}}
	model := fakeopenai.Start(t, both, both, both, fakeopenai.Turn{Text: "done"})
	srv.Publish(t, fmt.Sprintf(`{"name": "repeats", "model": {"provider": "openai", "model": "fake", "baseUrl": %q},
	  "tools": [{"name": "wtool", "kind": "TOOL_KIND_WORKER"}, {"name": "htool", "kind": "TOOL_KIND_HTTP", "http": {"url": %q}}]}`, model.URL, endpoint.URL))
	run := srv.Settled(t, srv.Start(t, "repeats", "go").GetRunId())
	if run.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED {
		t.Fatalf("run %v: %v", run.GetState(), run.GetFailure())
	}
	atWorker, atHTTP := worker.IDs(), endpoint.IDs()
	all := append(append([]string{}, atWorker...), atHTTP...)
	slices.Sort(all)
	if len(atWorker) != 3 || len(atHTTP) != 3 || len(slices.Compact(all)) != 6 {
		t.Fatalf("call ids at the worker %v and the http tool %v, want three each, all distinct", atWorker, atHTTP)
	}
	// The log names the same ids, each with the provider's beside it.
	var logged []string
	for _, r := range srv.Records(t, run.GetRunId()) {
		for _, c := range r.GetModelCallFinished().GetToolCalls() {
			logged = append(logged, run.GetRunId()+"/"+c.GetCallId())
			if want := map[string]string{"wtool": "call_0", "htool": "call_1"}[c.GetName()]; c.GetProviderCallId() != want {
				t.Errorf("call %s has provider id %q, want %q", c.GetCallId(), c.GetProviderCallId(), want)
			}
		}
	}
	slices.Sort(logged)
	if !slices.Equal(logged, all) {
		t.Errorf("logged call ids %v, want the ids the tools received %v", logged, all)
	}
	// The provider's last request carries its own ids on both sides.
	reqs := model.Requests()
	var sent []string
	for _, m := range fakeopenai.Messages(reqs[len(reqs)-1]) {
		if id, ok := m["tool_call_id"].(string); ok {
			sent = append(sent, "result:"+id)
		}
		calls, _ := m["tool_calls"].([]any)
		for _, c := range calls {
			sent = append(sent, "call:"+fmt.Sprint(c.(map[string]any)["id"]))
		}
	}
	want := strings.Repeat("call:call_0 call:call_1 result:call_0 result:call_1 ", 3)
	if got := strings.Join(sent, " ") + " "; got != want {
		t.Errorf("ids sent back to the provider = %q, want %q", got, want)
	}
}

// TestRegisterCompilesSchemas: a worker registering a tool whose schema
// does not compile is refused, every problem named, as a Spec would be.
func TestRegisterCompilesSchemas(t *testing.T) {
	srv := testserver.Start(t)
	stream, err := srv.Tools.ServeTools(testserver.Context(t))
	if err != nil {
		t.Fatal(err)
	}
	reg := &runsvcv1.ServeToolsRequest_Register{WorkerName: "bad", Tools: []*runsvcv1.ToolDefinition{
		{Name: "ok", Parameters: mustStruct(t, `{"type": "object"}`)},
		{Name: "bad", Parameters: mustStruct(t, `{"type": "object", "properties": {"q": {"type": "strng"}}, "required": ["q", "missing"]}`)},
	}}
	if err := stream.Send(&runsvcv1.ServeToolsRequest{Message: &runsvcv1.ServeToolsRequest_Register_{Register: reg}}); err != nil {
		t.Fatal(err)
	}
	_, err = stream.Recv()
	st := status.Convert(err)
	reason, fields := badRequest(t, st)
	want := map[string]string{
		"register.tools[1].parameters.properties.q.type": "value must be one of 'array', 'boolean', 'integer', 'null', 'number', 'object', 'string' (schema path /properties/q/type)",
		"register.tools[1].parameters.required[1]":       `requires "missing", which properties does not define (schema path /required/1)`,
	}
	if st.Code() != codes.InvalidArgument || reason != "INVALID_REQUEST" || len(fields) != len(want) {
		t.Fatalf("register = %v %s %v, want INVALID_ARGUMENT INVALID_REQUEST with %d violations", st.Code(), reason, fields, len(want))
	}
	for f, d := range want {
		if fields[f] != d {
			t.Errorf("violation %s = %q, want %q", f, fields[f], d)
		}
	}
}

// TestServeToolsHalfClosedBeforeRegister: a worker that half-closes its
// stream before registering made a mistake, and is told so:
// INVALID_REQUEST naming register, not INTERNAL.
func TestServeToolsHalfClosedBeforeRegister(t *testing.T) {
	srv := testserver.Start(t)
	stream, err := srv.Tools.ServeTools(testserver.Context(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := stream.CloseSend(); err != nil {
		t.Fatal(err)
	}
	_, err = stream.Recv()
	st := status.Convert(err)
	reason, fields := badRequest(t, st)
	if st.Code() != codes.InvalidArgument || reason != "INVALID_REQUEST" || fields["register"] == "" {
		t.Fatalf("ServeTools half-closed before register = %v %s %v, want INVALID_ARGUMENT INVALID_REQUEST naming register", st.Code(), reason, fields)
	}
	if strings.Contains(srv.Log.String(), `"level":"ERROR"`) {
		t.Errorf("the client's mistake was logged at ERROR:\n%s", srv.Log.String())
	}
}

package a2a_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// taskReply is a SendMessage or GetTask reply, as much as these tests
// read of it.
type taskReply struct {
	ID        string `json:"id"`
	ContextID string `json:"contextId"`
	Status    struct {
		State   string `json:"state"`
		Message *struct {
			Parts []json.RawMessage `json:"parts"`
		} `json:"message"`
	} `json:"status"`
	Artifacts []struct {
		ArtifactID string `json:"artifactId"`
		Parts      []struct {
			Text *string         `json:"text"`
			Data json.RawMessage `json:"data"`
		} `json:"parts"`
	} `json:"artifacts"`
}

// TestTaskStates: structured output is the answer artifact's data part;
// a failed Run is a FAILED task whose status message carries the failure
// (its text, and its google.rpc.Status as data); a second message in the
// same context continues the thread; ListTasks lists the context's tasks.
func TestTaskStates(t *testing.T) {
	s := testserver.Start(t, testserver.WithHTTP())
	publish(t, s, "",
		`{"name": "shaped", "exposure": {"a2a": true}, "model": {"provider": "scripted", "script": {"turns": [{"text": "{\"n\": 1}"}, {"text": "{\"n\": 2}"}]}},
		  "output": {"schema": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}}}`,
		`{"name": "broken", "exposure": {"a2a": true}, "model": {"provider": "scripted", "script": {"turns": [{"fail": {"httpStatus": 400, "times": 1, "message": "bad request"}}]}}}`)
	send := func(agent, params string) taskReply {
		r := rpc(t, s.HTTPURL, agent, "", "SendMessage", params)
		var res struct {
			Result struct{ Task taskReply } `json:"result"`
		}
		if err := json.Unmarshal(r.body, &res); err != nil || res.Result.Task.ID == "" {
			t.Fatalf("SendMessage: %s", r.body)
		}
		return res.Result.Task
	}
	first := send("shaped", `{"message": {"messageId": "s1", "parts": [{"text": "count"}]}}`)
	if first.Status.State != "TASK_STATE_COMPLETED" || len(first.Artifacts) != 1 || string(first.Artifacts[0].Parts[0].Data) != `{"n":1}` {
		t.Errorf("structured task: %+v", first)
	}
	second := send("shaped", `{"message": {"messageId": "s2", "contextId": "`+first.ContextID+`", "parts": [{"data": {"again": true}}]}}`)
	if second.ContextID != first.ContextID || second.ID == first.ID || second.Status.State != "TASK_STATE_COMPLETED" {
		t.Errorf("second task in the context: %+v", second)
	}
	r := do(t, "GET", s.HTTPURL+"/a2a/shaped/rest/tasks?contextId="+first.ContextID, "", "")
	var list struct{ Tasks []taskReply }
	if err := json.Unmarshal(r.body, &list); err != nil || len(list.Tasks) != 2 {
		t.Errorf("ListTasks of the context: HTTP %d %s", r.code, r.body)
	}
	failed := send("broken", `{"message": {"messageId": "b1", "parts": [{"text": "go"}]}}`)
	if failed.Status.State != "TASK_STATE_FAILED" || failed.Status.Message == nil || len(failed.Status.Message.Parts) != 2 ||
		!strings.Contains(string(failed.Status.Message.Parts[1]), "INFERENCE_REJECTED") {
		t.Errorf("failed task: %+v", failed)
	}
}

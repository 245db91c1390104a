package a2a

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errs"
)

// agent is one exposed Spec answering one A2A call.
type agent struct {
	b    *backend
	spec *runsvcv1.Spec
}

// structured reports whether the Spec's answers are structured output.
func (a *agent) structured() bool { return a.spec.GetOutput().GetSchema() != nil }

// agentFor returns the exposed Spec name as an agent; a Spec that is not
// exposed over A2A is as unknown as one never published.
func agentFor(ctx context.Context, b *backend, name string) (*agent, error) {
	res, err := call(ctx, b.getSpec, &runsvcv1.GetSpecRequest{Name: name})
	if err != nil {
		return nil, err
	}
	if !res.GetSpec().GetExposure().GetA2A() {
		return nil, &errs.SpecNotFound{Name: name}
	}
	return &agent{b: b, spec: res.GetSpec()}, nil
}

// task returns the Run of task id, if it is one of this agent's: another
// Spec's Run, or another tenant's, is TASK_NOT_FOUND.
func (a *agent) task(ctx context.Context, id string) (*runsvcv1.Run, error) {
	if id == "" {
		return nil, errs.BadField("id", "is required: the task's id")
	}
	res, err := call(ctx, a.b.getRun, &runsvcv1.GetRunRequest{RunId: id})
	if reasonOf(err) == "RUN_NOT_FOUND" || (err == nil && res.GetRun().GetSpec() != a.spec.GetName()) {
		return nil, &errs.TaskNotFound{TaskID: id}
	}
	if err != nil {
		return nil, err
	}
	return res.GetRun(), nil
}

// send takes a message: a new task (a Run in the message's context), or,
// naming a task, the answer to its question or approval, or a message
// steering it while it works.
func (a *agent) send(ctx context.Context, req *SendMessageRequest) (*runsvcv1.Run, error) {
	m := req.Message
	if m == nil {
		return nil, errs.BadField("message", "is required")
	}
	if err := acceptable(req.Configuration); err != nil {
		return nil, err
	}
	input, err := inputOf(m)
	if err != nil {
		return nil, err
	}
	if m.TaskID != "" {
		return a.continueTask(ctx, m, input)
	}
	thread := m.ContextID
	if thread == "" {
		thread = "ctx-" + digest(a.spec.GetName(), m.MessageID)
	}
	start := &runsvcv1.StartRunRequest{Spec: target(a.spec), Input: input, ThreadId: thread}
	if m.MessageID != "" {
		start.RequestId = "a2a-" + digest(a.spec.GetName(), m.MessageID)
	}
	res, err := call(ctx, a.b.startRun, start)
	if err != nil {
		return nil, err
	}
	return res.GetRun(), nil
}

// digest is a short stable id derived from parts.
func digest(parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(h[:16])
}

// continueTask delivers a message to the task it names.
func (a *agent) continueTask(ctx context.Context, m *Message, input string) (*runsvcv1.Run, error) {
	run, err := a.task(ctx, m.TaskID)
	if err != nil {
		return nil, err
	}
	if m.ContextID != "" && m.ContextID != contextOf(run) {
		return nil, errs.BadField("message.contextId", "is %q, but task %s is in context %q", m.ContextID, m.TaskID, contextOf(run))
	}
	state := stateOf(run)
	switch {
	case terminal(state):
		return nil, &errs.UnsupportedOperation{Operation: "SendMessage", Detail: "task " + m.TaskID + " is " + state + " and takes no more messages; send one without taskId in context " + contextOf(run) + " to go on"}
	case awaitsInput(run):
		res, err := call(ctx, a.b.resumeRun, resumeRequest(run, input))
		if err != nil {
			return nil, err
		}
		return res.GetRun(), nil
	}
	if _, err := call(ctx, a.b.steer, &runsvcv1.SendMessageRequest{RunId: run.GetRunId(), Text: input}); err != nil {
		return nil, err
	}
	return run, nil
}

// resumeRequest answers a question with the message, or an approval with
// its yes or no (anything else is a denial, with the message as the note).
func resumeRequest(run *runsvcv1.Run, input string) *runsvcv1.ResumeRunRequest {
	req := &runsvcv1.ResumeRunRequest{RunId: run.GetRunId()}
	if run.GetSuspension().GetReason() == runsvcv1.SuspensionReason_SUSPENSION_REASON_QUESTION {
		req.Answer = input
		return req
	}
	switch strings.ToLower(strings.TrimSpace(input)) {
	case "yes", "y", "approve", "approved", "ok", "true":
		yes := true
		req.Approved = &yes
	default:
		no := false
		req.Approved, req.Note = &no, input
	}
	return req
}

// settle waits until a Run's A2A state is final (terminal, or awaiting
// the caller's input), or ctx ends.
func (a *agent) settle(ctx context.Context, run *runsvcv1.Run) (*runsvcv1.Run, error) {
	for !final(stateOf(run)) {
		if run.GetState() == runsvcv1.RunState_RUN_STATE_SUSPENDED {
			// WaitRun returns at once on a suspension no caller answers
			// (tool results, children, a timer): poll it gently.
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(500 * time.Millisecond):
			}
		}
		res, err := call(ctx, a.b.waitRun, &runsvcv1.WaitRunRequest{RunId: run.GetRunId(), Wait: durationpb.New(30 * time.Second)})
		if err != nil {
			return nil, err
		}
		run = res.GetRun()
	}
	return run, nil
}

// cancel interrupts a task and waits until its Run has ended.
func (a *agent) cancel(ctx context.Context, id string) (*runsvcv1.Run, error) {
	run, err := a.task(ctx, id)
	if err != nil {
		return nil, err
	}
	if s := stateOf(run); terminal(s) {
		return nil, &errs.TaskNotCancelable{TaskID: id, State: s}
	}
	res, err := call(ctx, a.b.interrupt, &runsvcv1.InterruptRunRequest{RunId: id, Reason: "canceled by an A2A client"})
	if reasonOf(err) == "RUN_ALREADY_SETTLED" {
		run, err = a.task(ctx, id)
		if err == nil {
			err = &errs.TaskNotCancelable{TaskID: id, State: stateOf(run)}
		}
		return nil, err
	}
	if err != nil {
		return nil, err
	}
	return a.settle(ctx, res.GetRun())
}

// list lists the agent's tasks, newest first, in a context when asked.
func (a *agent) list(ctx context.Context, req *ListTasksRequest) (*ListTasksResponse, error) {
	lr := &runsvcv1.ListRunsRequest{Spec: a.spec.GetName(), ThreadId: req.ContextID, PageToken: req.PageToken}
	if req.PageSize != nil {
		if *req.PageSize < 0 || *req.PageSize > 100 {
			return nil, errs.BadField("pageSize", "is %d; it must be 1 to 100", *req.PageSize)
		}
		lr.PageSize = *req.PageSize
	}
	if !anyState(req.Status) {
		states, ok := runStates[req.Status]
		if !ok {
			return nil, errs.BadField("status", "is not a task state runsvc has: %q", req.Status)
		}
		lr.States = states
	}
	res, err := call(ctx, a.b.listRuns, lr)
	if err != nil {
		return nil, err
	}
	out := &ListTasksResponse{Tasks: []Task{}, NextPageToken: res.GetNextPageToken(), PageSize: lr.GetPageSize()}
	for _, run := range res.GetRuns() {
		if !anyState(req.Status) && stateOf(run) != req.Status {
			continue
		}
		t := taskOf(run, a.structured(), req.HistoryLength)
		if req.IncludeArtifacts == nil || !*req.IncludeArtifacts {
			t.Artifacts = nil
		}
		out.Tasks = append(out.Tasks, t)
	}
	out.TotalSize = int32(len(out.Tasks))
	return out, nil
}

// anyState reports whether a ListTasks status filter lists every state:
// unset, unspecified, or "UNRECOGNIZED", which @a2a-js/sdk 1.3.0's
// JSON-RPC client sends for an unset status.
func anyState(s string) bool {
	return s == "" || s == "TASK_STATE_UNSPECIFIED" || s == "UNRECOGNIZED"
}

// runStates are the Run states an A2A state filter lists.
var runStates = map[string][]runsvcv1.RunState{
	stateSubmitted:     {runsvcv1.RunState_RUN_STATE_QUEUED},
	stateWorking:       {runsvcv1.RunState_RUN_STATE_RUNNING, runsvcv1.RunState_RUN_STATE_SUSPENDED},
	stateInputRequired: {runsvcv1.RunState_RUN_STATE_SUSPENDED},
	stateCompleted:     {runsvcv1.RunState_RUN_STATE_COMPLETED},
	stateFailed:        {runsvcv1.RunState_RUN_STATE_FAILED, runsvcv1.RunState_RUN_STATE_ABORTED},
	stateCanceled:      {runsvcv1.RunState_RUN_STATE_ABORTED},
}

// inputOf is a message's text for the model: its text parts, and its data
// parts as JSON. Files are not taken.
func inputOf(m *Message) (string, error) {
	if len(m.Parts) == 0 {
		return "", errs.BadField("message.parts", "is empty: at least one text or data part is required")
	}
	var texts []string
	for _, p := range m.Parts {
		switch {
		case p.Text != nil:
			texts = append(texts, *p.Text)
		case len(p.Data) > 0:
			texts = append(texts, string(p.Data))
		default:
			mt := p.MediaType
			if mt == "" {
				mt = "a file part"
			}
			return "", &errs.ContentTypeNotSupported{MediaType: mt}
		}
	}
	return strings.Join(texts, "\n"), nil
}

// acceptable refuses output modes runsvc cannot answer in.
func acceptable(c *SendMessageConfiguration) error {
	if c == nil || len(c.AcceptedOutputModes) == 0 {
		return nil
	}
	for _, m := range c.AcceptedOutputModes {
		switch strings.ToLower(m) {
		case "text/plain", "text", "application/json", "*/*", "text/*":
			return nil
		}
	}
	return &errs.ContentTypeNotSupported{MediaType: strings.Join(c.AcceptedOutputModes, ", ")}
}

// target is what the agent's Runs start: the Spec, or `spec@alias` when
// its exposure names an alias (a canary split included).
func target(sp *runsvcv1.Spec) string {
	if alias := sp.GetExposure().GetAlias(); alias != "" {
		return sp.GetName() + "@" + alias
	}
	return sp.GetName()
}

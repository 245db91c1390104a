package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/tool"
)

// An a2a tool call delegates to a remote A2A agent and lasts as long as
// the agent's task, across Attempts and suspensions. What the log holds
// decides each step (c.Remote, the runlog.A2ATask Records):
//
//   - no task recorded: the call is recorded as started (stored), its
//     message sent (id: a2atool.MessageID, the same in every attempt),
//     and the task the agent names recorded at once. A crash between the
//     send and that record leaves the call without a task: an
//     AT_MOST_ONCE call is then in doubt (in_doubt decides, as for any
//     tool); an AT_LEAST_ONCE call sends the message again with the same
//     id, which an agent deduplicating by message id recognises.
//   - a task recorded: the call follows it (GetTask polling), never
//     sending the message again, however often the Run is taken over.
//   - the task asks (INPUT_REQUIRED): the question is recorded, closing
//     the call, and the Run suspends QUESTION on it; ResumeRun's answer
//     is sent as the task's next message, after reading the task to see
//     whether an earlier Attempt's reply already reached it, then the
//     reply is recorded and following goes on.
//   - the task ends: COMPLETED is the call's result; FAILED, REJECTED,
//     CANCELED are the tool's failure the model sees.
//
// The tool's timeout bounds each stretch of following, from a send (or
// takeover) to an answer or a question.

// a2aCall makes or goes on with an a2a call.
func (a *attempt) a2aCall(ctx context.Context, c *runlog.Call, decl spec.Tool) error {
	r := c.Remote
	if r != nil && r.Question != "" && c.Answer == nil {
		// Recorded asking, then the Attempt ended before it suspended.
		return a.askRemote(ctx, c, r.Question)
	}
	agent, err := a.remoteAgent()
	if err != nil {
		return a.answer(ctx, c, decl, nil, err)
	}
	f, err := a.prepare(ctx, c, decl)
	if err != nil {
		return a.answer(ctx, c, decl, nil, err)
	}
	text, err := tool.RemoteText(f.call)
	if err != nil {
		return a.answer(ctx, c, decl, nil, err)
	}
	if a.state.Open == nil || a.state.Open.CallID != c.ID {
		if err := a.append(ctx, false, &runlog.ToolCallStarted{CallID: c.ID, Name: c.Name}); err != nil {
			return err
		}
	}
	a.launch(ctx, f, c, decl)
	task, sending, err := a.remoteStep(ctx, f, agent, c, text)
	f.observed(err)
	f.timedOut = errors.Is(f.ctx.Err(), context.DeadlineExceeded)
	f.cancel()
	if err == nil && task.State == tool.RemoteInputRequired {
		return a.remoteAsks(ctx, c, task)
	}
	f.out, f.err = task.Output, err
	if f.timedOut && !sending && a.e.Clock.Now().Before(a.state.Admission.Deadline) {
		// The task is recorded: it is late, not in doubt. Past the
		// Run's deadline the loop closes the call as orphaned instead,
		// and the abort cancels the task.
		f.timedOut, f.err = false, &errs.ToolFailed{Tool: c.Name, Message: fmt.Sprintf("the agent's task %s gave no answer within %s", a.remoteOf(c.ID).TaskID, f.timeout)}
	}
	return a.landed(ctx, c, decl, f)
}

// remoteStep sends what the call has to send (its message, or the
// answer to the task's question), records the task, and follows it to an
// answer or a question. sending is true while nothing was recorded of
// the send: a failure then may leave the message's delivery in doubt.
func (a *attempt) remoteStep(ctx context.Context, f *flight, agent tool.RemoteAgent, c *runlog.Call, text string) (tool.RemoteTask, bool, error) {
	r := c.Remote
	if r == nil {
		t, err := agent.Send(f.ctx, f.call, tool.RemoteMessage{ID: tool.RemoteMessageID(f.call, 0), Text: text})
		if err != nil || t.ID == "" {
			return t, true, err // no task: a direct answer, or a failure
		}
		if err := a.append(ctx, false, &runlog.A2ATask{CallID: c.ID, TaskID: t.ID, ContextID: t.ContextID}); err != nil {
			return t, false, err
		}
		return a.follow(f, agent, t, "")
	}
	if c.Answer != nil {
		if err := a.reply(ctx, f, agent, c, *c.Answer); err != nil {
			return tool.RemoteTask{}, false, err
		}
	}
	r = a.remoteOf(c.ID)
	return a.follow(f, agent, tool.RemoteTask{ID: r.TaskID, ContextID: r.ContextID, State: tool.RemoteWorking}, r.Answered)
}

// follow follows t until it answers or asks.
func (a *attempt) follow(f *flight, agent tool.RemoteAgent, t tool.RemoteTask, answered string) (tool.RemoteTask, bool, error) {
	t, err := agent.Follow(f.ctx, f.call, t, answered)
	return t, false, err
}

// reply sends the answer to the task's recorded question, unless an
// earlier Attempt's reply reached it already (the task no longer asks
// it), and records the reply.
func (a *attempt) reply(ctx context.Context, f *flight, agent tool.RemoteAgent, c *runlog.Call, answer string) error {
	r := *c.Remote
	now, err := agent.Follow(f.ctx, f.call, tool.RemoteTask{ID: r.TaskID, ContextID: r.ContextID, State: tool.RemoteWorking}, "")
	if err != nil {
		return err
	}
	if now.State == tool.RemoteInputRequired && now.QuestionID == r.QuestionID {
		m := tool.RemoteMessage{ID: tool.RemoteMessageID(f.call, r.Replies+1), TaskID: r.TaskID, ContextID: r.ContextID, Text: answer}
		if _, err := agent.Send(f.ctx, f.call, m); err != nil {
			return err
		}
	}
	next := r
	next.Replies, next.Answered, next.Question, next.QuestionID = r.Replies+1, r.QuestionID, "", ""
	return a.append(ctx, false, &next)
}

// remoteAsks records the task's question, which closes the call, and
// suspends the Run on it.
func (a *attempt) remoteAsks(ctx context.Context, c *runlog.Call, t tool.RemoteTask) error {
	next := *a.remoteOf(c.ID)
	next.Question, next.QuestionID = t.Question, t.QuestionID
	if next.Question == "" {
		next.Question = "The agent needs more input (it asked no question in words)."
	}
	if err := a.append(ctx, false, &next); err != nil {
		return err
	}
	return a.askRemote(ctx, c, next.Question)
}

// askRemote suspends the Run QUESTION on the remote task's question.
func (a *attempt) askRemote(ctx context.Context, c *runlog.Call, question string) error {
	return a.suspend(ctx, &runlog.Suspended{Reason: runlog.ReasonQuestion, CallID: c.ID, Question: question})
}

// remoteOf is the remote task the Run's call id follows, as the State
// holds it now (a Record appended since c was read may have changed it).
func (a *attempt) remoteOf(id string) *runlog.A2ATask {
	if c := a.state.Call(id); c != nil && c.Remote != nil {
		return c.Remote
	}
	return &runlog.A2ATask{CallID: id}
}

// remoteAgent is the executor of a2a tools as the port a Run's a2a calls
// use.
func (a *attempt) remoteAgent() (tool.RemoteAgent, error) {
	x, err := a.e.toolExecutor(spec.KindA2A)
	if err != nil {
		return nil, err
	}
	agent, ok := x.(tool.RemoteAgent)
	if !ok {
		return nil, &errs.DependencyMissing{Dependency: "a2a tools", Description: "this runsvc's a2a executor cannot follow remote tasks"}
	}
	return agent, nil
}

package a2a

import (
	"context"

	"github.com/runsvc/runsvc/internal/errs"
)

// sendMessage is SendMessage: the task, once it ended or awaits input,
// or at once with returnImmediately.
func (h *Handler) sendMessage(ctx context.Context, a *agent, p *SendMessageRequest) (*SendMessageResponse, error) {
	run, err := a.send(ctx, p)
	if err != nil {
		return nil, err
	}
	if err := h.inlinePush(ctx, a, p, run.GetRunId()); err != nil {
		return nil, err
	}
	if p.Configuration == nil || !p.Configuration.ReturnImmediately {
		if run, err = a.settle(ctx, run); err != nil {
			return nil, err
		}
	}
	var history *int32
	if p.Configuration != nil {
		history = p.Configuration.HistoryLength
	}
	t := taskOf(run, a.structured(), history)
	return &SendMessageResponse{Task: &t}, nil
}

// sendStreaming is SendStreamingMessage: the task, then its events.
func (h *Handler) sendStreaming(ctx context.Context, a *agent, p *SendMessageRequest, emit emitter) error {
	run, err := a.send(ctx, p)
	if err != nil {
		return err
	}
	if err := h.inlinePush(ctx, a, p, run.GetRunId()); err != nil {
		return err
	}
	return a.follow(ctx, run, emit)
}

// subscribe is SubscribeToTask: the events of a task that has not ended.
func (h *Handler) subscribe(ctx context.Context, a *agent, p *TaskRequest, emit emitter) error {
	run, err := a.task(ctx, p.ID)
	if err != nil {
		return err
	}
	if s := stateOf(run); terminal(s) {
		return &errs.UnsupportedOperation{Operation: "SubscribeToTask", Detail: "task " + p.ID + " is " + s + "; GetTask reads it"}
	}
	return a.follow(ctx, run, emit)
}

// getTask is GetTask.
func (h *Handler) getTask(ctx context.Context, a *agent, p *TaskRequest) (*Task, error) {
	run, err := a.task(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	t := taskOf(run, a.structured(), p.HistoryLength)
	return &t, nil
}

// cancelTask is CancelTask.
func (h *Handler) cancelTask(ctx context.Context, a *agent, p *TaskRequest) (*Task, error) {
	run, err := a.cancel(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	t := taskOf(run, a.structured(), nil)
	return &t, nil
}

// inlinePush stores the push config a SendMessage's configuration names,
// for the task it started or continued. A Run that settled (or began
// waiting for input) before it was stored is pushed that state at once,
// as createPush does for every config.
func (h *Handler) inlinePush(ctx context.Context, a *agent, p *SendMessageRequest, task string) error {
	if p.Configuration == nil || p.Configuration.TaskPushNotificationConfig == nil {
		return nil
	}
	c := *p.Configuration.TaskPushNotificationConfig
	c.TaskID = task
	_, err := h.createPush(ctx, a, &c)
	return err
}

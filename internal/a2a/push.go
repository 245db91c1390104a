package a2a

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/ids"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/webhook"
)

// Pushes keeps tasks' push-notification configs: the webhook package's
// Manager, whose outbox delivers them.
type Pushes interface {
	// SetPush creates or replaces a config of a Run.
	SetPush(ctx context.Context, tenant, url string, p webhook.Push) error
	// GetPush returns a config of a Run, ok false when none.
	GetPush(ctx context.Context, tenant, run, config string) (webhook.PushConfig, bool, error)
	// ListPush lists a Run's configs.
	ListPush(ctx context.Context, tenant, run string) ([]webhook.PushConfig, error)
	// DeletePush deletes a config of a Run, false when there was none.
	DeletePush(ctx context.Context, tenant, run, config string) (bool, error)
	// NotifyPush puts one push with body to a config in the outbox.
	NotifyPush(ctx context.Context, tenant string, p webhook.Push, body []byte) error
}

// PushConfigRequest is the request of GetTaskPushNotificationConfig and
// DeleteTaskPushNotificationConfig (and, without id, of
// ListTaskPushNotificationConfigs).
type PushConfigRequest struct {
	Tenant    string `json:"tenant,omitempty"`
	TaskID    string `json:"taskId"`
	ID        string `json:"id,omitempty"`
	PageSize  int32  `json:"pageSize,omitempty"`
	PageToken string `json:"pageToken,omitempty"`
}

// ListPushConfigsResponse is the response of
// ListTaskPushNotificationConfigs: every config of the task, on one page.
type ListPushConfigsResponse struct {
	Configs       []TaskPushNotificationConfig `json:"configs"`
	NextPageToken string                       `json:"nextPageToken"`
}

// pushTarget is the caller's tenant and the task's Run, once the task is
// found among the caller's; PUSH_NOTIFICATION_NOT_SUPPORTED when the
// store keeps no webhooks.
func (h *Handler) pushTarget(ctx context.Context, a *agent, task string) (string, string, error) {
	if h.opts.Push == nil || h.opts.Tenant == nil {
		return "", "", &errs.PushNotificationNotSupported{}
	}
	run, err := a.task(ctx, task)
	if err != nil {
		return "", "", err
	}
	caller, _ := ctx.Value(callerKey{}).(*http.Request)
	if caller == nil {
		return "", "", &errs.PushNotificationNotSupported{}
	}
	tenant, err := h.opts.Tenant(caller)
	return tenant, contextOf(run), err
}

// createPush is CreateTaskPushNotificationConfig (and a SendMessage's
// inline config): the task's updates that end it or wait for input go to
// the URL through the webhook outbox.
func (h *Handler) createPush(ctx context.Context, a *agent, c *TaskPushNotificationConfig) (*TaskPushNotificationConfig, error) {
	tenant, contextID, err := h.pushTarget(ctx, a, c.TaskID)
	if err != nil {
		return nil, err
	}
	if c.URL == "" {
		return nil, errs.BadField("url", "is required: where the task's updates are posted")
	}
	if len(c.ID) > 128 {
		return nil, errs.BadField("id", "is more than 128 characters")
	}
	if c.ID == "" {
		c.ID = ids.New("push", time.Now())
	}
	p := webhook.Push{RunID: c.TaskID, ConfigID: c.ID, ContextID: contextID, Token: c.Token}
	if au := c.Authentication; au != nil {
		p.Scheme, p.Credentials = au.Scheme, au.Credentials
	}
	if err := h.opts.Push.SetPush(ctx, tenant, c.URL, p); err != nil {
		return nil, err
	}
	if err := h.pushCurrent(ctx, a, tenant, p); err != nil {
		return nil, err
	}
	out := configOf(webhook.PushConfig{Push: p, URL: c.URL})
	return &out, nil
}

// pushCurrent pushes the task's state to a config just set when the task
// already ended or waits for input, read after the config was stored: a
// Run that settled before its write saw the config is not missed (one
// that settled in between may be pushed twice; receivers deduplicate).
func (h *Handler) pushCurrent(ctx context.Context, a *agent, tenant string, p webhook.Push) error {
	run, err := a.task(ctx, p.RunID)
	if err != nil || !final(stateOf(run)) {
		return err
	}
	none := int32(0)
	t := taskOf(run, a.structured(), &none)
	b, err := json.Marshal(StreamResponse{Task: &t})
	if err != nil {
		return err
	}
	return h.opts.Push.NotifyPush(ctx, tenant, p, b)
}

// configOf is a stored config as A2A shows it.
func configOf(c webhook.PushConfig) TaskPushNotificationConfig {
	out := TaskPushNotificationConfig{ID: c.ConfigID, TaskID: c.RunID, URL: c.URL, Token: c.Token}
	if c.Scheme != "" {
		out.Authentication = &AuthenticationInfo{Scheme: c.Scheme, Credentials: c.Credentials}
	}
	return out
}

// getPush is GetTaskPushNotificationConfig.
func (h *Handler) getPush(ctx context.Context, a *agent, p *PushConfigRequest) (*TaskPushNotificationConfig, error) {
	tenant, _, err := h.pushTarget(ctx, a, p.TaskID)
	if err != nil {
		return nil, err
	}
	c, ok, err := h.opts.Push.GetPush(ctx, tenant, p.TaskID, p.ID)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, &errs.WebhookNotFound{SubscriptionID: p.ID}
	}
	out := configOf(c)
	return &out, nil
}

// listPush is ListTaskPushNotificationConfigs.
func (h *Handler) listPush(ctx context.Context, a *agent, p *PushConfigRequest) (*ListPushConfigsResponse, error) {
	tenant, _, err := h.pushTarget(ctx, a, p.TaskID)
	if err != nil {
		return nil, err
	}
	all, err := h.opts.Push.ListPush(ctx, tenant, p.TaskID)
	if err != nil {
		return nil, err
	}
	out := &ListPushConfigsResponse{Configs: []TaskPushNotificationConfig{}}
	for _, c := range all {
		out.Configs = append(out.Configs, configOf(c))
	}
	return out, nil
}

// deletePush is DeleteTaskPushNotificationConfig.
func (h *Handler) deletePush(ctx context.Context, a *agent, p *PushConfigRequest) (any, error) {
	tenant, _, err := h.pushTarget(ctx, a, p.TaskID)
	if err != nil {
		return nil, err
	}
	found, err := h.opts.Push.DeletePush(ctx, tenant, p.TaskID, p.ID)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, &errs.WebhookNotFound{SubscriptionID: p.ID}
	}
	return struct{}{}, nil
}

// PushBody renders a push to p about a Run left in st (the webhook
// package's PushBody): an A2A StreamResponse holding the task, when the
// Run ended or waits for the caller's input; nil otherwise.
func PushBody(p webhook.Push, st *runlog.State, _ time.Time) []byte {
	t := Task{ID: st.RunID, ContextID: p.ContextID, Status: TaskStatus{State: pushState(st)}}
	if t.Status.State == "" {
		return nil
	}
	if t.ContextID == "" {
		t.ContextID = st.RunID
	}
	if !st.UpdateTime.IsZero() {
		t.Status.Timestamp = st.UpdateTime.UTC().Format(time.RFC3339Nano)
	}
	var text string
	switch {
	case t.Status.State == stateCompleted:
		t.Artifacts = []Artifact{{ArtifactID: answerArtifact, Name: "answer", Parts: []Part{textPart(st.Answer)}}}
	case st.Failure != nil:
		text = st.Failure.Message
	case st.Suspension != nil && st.Suspension.Reason == runlog.ReasonQuestion:
		text = st.Suspension.Question
	case st.Suspension != nil:
		text = "a call awaits approval; answer yes or no"
	}
	if text != "" {
		t.Status.Message = &Message{MessageID: st.RunID + "-" + t.Status.State, ContextID: t.ContextID, TaskID: t.ID, Role: roleAgent, Parts: []Part{textPart(text)}}
	}
	b, _ := json.Marshal(StreamResponse{Task: &t})
	return b
}

// pushState is the A2A state a push reports for st, "" for none (the
// agent still working).
func pushState(st *runlog.State) string {
	switch st.Status {
	case runlog.StatusCompleted:
		return stateCompleted
	case runlog.StatusFailed:
		return stateFailed
	case runlog.StatusAborted, runlog.StatusAbandoned:
		if st.AbortCause == runlog.CauseDeadline {
			return stateFailed
		}
		return stateCanceled
	case runlog.StatusSuspended:
		if s := st.Suspension; s != nil && (s.Reason == runlog.ReasonQuestion || s.Reason == runlog.ReasonApproval) {
			return stateInputRequired
		}
	}
	return ""
}

// Package webhook calls tenants back when their Runs settle or suspend,
// per the Standard Webhooks spec: subscriptions and their signing
// secrets, the events a write of a Run's log puts in the store's outbox
// (in the same transaction), and the dispatcher that delivers them at
// least once, with backoff, for a bounded period, then dead-letters them.
package webhook

import (
	"encoding/json"
	"slices"
	"time"

	"google.golang.org/protobuf/encoding/protojson"

	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/ids"
	"github.com/runsvc/runsvc/internal/logwriter"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/store"
)

// The event types a subscription may ask for.
const (
	// RunSettled is every Run that settles, whatever its state.
	RunSettled = "run.settled"
	// RunSucceeded is a Run that settled COMPLETED.
	RunSucceeded = "run.succeeded"
	// RunFailed is a Run that settled FAILED; data.status is its failure.
	RunFailed = "run.failed"
	// RunAborted is a Run that settled ABORTED or ABANDONED.
	RunAborted = "run.aborted"
	// RunSuspended is a Run that suspended; data.suspension says why.
	RunSuspended = "run.suspended"
	// ScheduleTickSkipped is a schedule's tick recorded as skipped
	// (enqueued by the schedules' own transaction, see Event).
	ScheduleTickSkipped = "schedule.tick_skipped"
)

// EventTypes are every event type, in the order they are documented.
var EventTypes = []string{RunSettled, RunSucceeded, RunFailed, RunAborted, RunSuspended, ScheduleTickSkipped}

// typesOf returns the event types a write leaving a Run in st raises.
func typesOf(st *runlog.State) []string {
	switch st.Status {
	case runlog.StatusSuspended:
		return []string{RunSuspended}
	case runlog.StatusCompleted:
		return []string{RunSettled, RunSucceeded}
	case runlog.StatusFailed:
		return []string{RunSettled, RunFailed}
	case runlog.StatusAborted, runlog.StatusAbandoned:
		return []string{RunSettled, RunAborted}
	}
	return nil
}

// Payload is a delivery's JSON body (Standard Webhooks' type, timestamp
// and data).
type Payload struct {
	Type      string    `json:"type"`
	Timestamp time.Time `json:"timestamp"`
	Data      any       `json:"data"`
}

// RunData is the data of a Run's event.
type RunData struct {
	RunID      string          `json:"run_id"`
	Spec       string          `json:"spec"`
	Version    string          `json:"version"`
	State      string          `json:"state"`
	AbortCause string          `json:"abort_cause,omitempty"`
	Suspension *SuspensionData `json:"suspension,omitempty"`
	SettleTime *time.Time      `json:"settle_time,omitempty"`
	// Status is a failed Run's failure: the google.rpc.Status JSON the API
	// returns for it (code, message, details with ErrorInfo, RetryInfo).
	Status json.RawMessage `json:"status,omitempty"`
}

// SuspensionData is what a suspended Run waits for.
type SuspensionData struct {
	// Reason is the suspension's kind as the metrics name it
	// (TOOL_RESULTS, APPROVAL, QUESTION, CHILDREN, IN_DOUBT, ...).
	Reason   string     `json:"reason"`
	ExpireAt *time.Time `json:"expire_at,omitempty"`
}

// Events builds the outbox rows of Run writes (logwriter.Options.Events)
// for the subscriptions in its cache.
type Events struct {
	subs   *Subscriptions
	mapper *errdetails.Mapper
	// pushBody, when set, renders A2A push configs' events.
	pushBody PushBody
}

// NewEvents returns the builder of Run events for subs, rendering
// failures through mapper.
func NewEvents(subs *Subscriptions, mapper *errdetails.Mapper) *Events {
	return &Events{subs: subs, mapper: mapper}
}

// ForRun implements logwriter.Events. An evaluation's Runs (replays,
// judges) raise none: they are not production's, and a replay must have
// no effect outside runsvc.
func (e *Events) ForRun(tenant string, st *runlog.State, now time.Time) []store.WebhookEvent {
	var out []store.WebhookEvent
	spec := ""
	if a := st.Admission; a != nil {
		if a.Evaluation != "" || a.Replay != nil {
			return nil
		}
		spec = a.Spec
	}
	for _, typ := range typesOf(st) {
		subs := e.subs.matching(tenant, typ, spec)
		if len(subs) == 0 {
			continue
		}
		body := e.runBody(typ, st, now)
		for _, id := range subs {
			out = append(out, Event(tenant, id, typ, st.RunID, body, now))
		}
	}
	return append(out, e.pushEvents(tenant, st, now)...)
}

var _ logwriter.Events = (*Events)(nil).ForRun

// Event is one outbox row: an event of type typ for the subscription id,
// with a new webhook-id. Whatever raises events in its own store
// transaction (a schedule's skipped tick) builds them with it and passes
// them to the adapter's EnqueueWebhooksTx (or store.Webhooks'
// EnqueueWebhooks), after Subscriptions.Matching says who wants them.
func Event(tenant, subscriptionID, typ, runID string, body []byte, now time.Time) store.WebhookEvent {
	return store.WebhookEvent{Tenant: tenant, ID: ids.New("msg", now), SubscriptionID: subscriptionID, Type: typ, RunID: runID, Body: body, CreateTime: now}
}

// Body renders a payload's JSON.
func Body(typ string, now time.Time, data any) []byte {
	b, _ := json.Marshal(Payload{Type: typ, Timestamp: now.UTC(), Data: data})
	return b
}

func (e *Events) runBody(typ string, st *runlog.State, now time.Time) []byte {
	d := RunData{RunID: st.RunID, State: string(st.Status), AbortCause: string(st.AbortCause)}
	if a := st.Admission; a != nil {
		d.Spec, d.Version = a.Spec, a.Version
	}
	if !st.SettleTime.IsZero() && st.Status != runlog.StatusSuspended {
		t := st.SettleTime.UTC()
		d.SettleTime = &t
	}
	if st.Status == runlog.StatusSuspended {
		d.Suspension = &SuspensionData{Reason: logwriter.SuspensionKind(st)}
		if s := st.Suspension; s != nil && !s.ExpireAt.IsZero() {
			t := s.ExpireAt.UTC()
			d.Suspension.ExpireAt = &t
		}
	}
	if st.Failure != nil && slices.Contains([]string{RunSettled, RunFailed, RunAborted}, typ) {
		if b, err := protojson.Marshal(e.mapper.FailureStatus(st.Failure)); err == nil {
			d.Status = b
		}
	}
	return Body(typ, now, d)
}

// TickData is a schedule.tick_skipped event's data.
type TickData struct {
	ScheduleID string    `json:"schedule_id"`
	Spec       string    `json:"spec"`
	Tick       time.Time `json:"tick"`
	// Outcome is the tick's recorded outcome: SKIPPED_OVERLAP (the
	// previous Run was still active) or SKIPPED_CATCHUP (missed beyond the
	// catch-up window).
	Outcome string `json:"outcome"`
}

// ForSkippedTick returns the schedule.tick_skipped events of a schedule's
// tick recorded with outcome, one per matching subscription; the schedule
// package writes them in the transaction that records the tick.
func (e *Events) ForSkippedTick(tenant, scheduleID, spec string, tick time.Time, outcome string, now time.Time) []store.WebhookEvent {
	subs := e.subs.matching(tenant, ScheduleTickSkipped, spec)
	if len(subs) == 0 {
		return nil
	}
	body := Body(ScheduleTickSkipped, now, TickData{ScheduleID: scheduleID, Spec: spec, Tick: tick.UTC(), Outcome: outcome})
	out := make([]store.WebhookEvent, 0, len(subs))
	for _, id := range subs {
		out = append(out, Event(tenant, id, ScheduleTickSkipped, "", body, now))
	}
	return out
}

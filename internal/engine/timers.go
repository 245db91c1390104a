package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/spec"
)

// timerCall answers a sleep or wait_until call once its timer woke the
// Run, or suspends the Run on a TIMER until the time the call asks for.
// Malformed arguments, a sleep longer than the Spec's timers.max_sleep
// and a wake time past the Run's deadline are tool errors the model sees.
// Asleep, the Run holds no worker, goroutine or lease: the store's wake
// time (State.WakeAt) brings it back to whichever worker claims it.
func (a *attempt) timerCall(ctx context.Context, c *runlog.Call, decl spec.Tool) error {
	if w := c.Woke; w != nil {
		out, _ := json.Marshal(map[string]any{"slept_until": w.WakeAt, "woke_at": w.At, "woken_early": w.Early})
		return a.answer(ctx, c, decl, out, nil)
	}
	now := a.e.Clock.Now().UTC()
	wake, err := timerWake(c, now)
	if err == nil {
		err = a.timerAllowed(c.Name, now, wake)
	}
	if err != nil {
		return a.answer(ctx, c, decl, nil, err)
	}
	err = a.suspend(ctx, &runlog.Suspended{Reason: runlog.ReasonTimer, CallID: c.ID, WakeAt: wake})
	if errors.Is(err, errEndAttempt) && !a.lost.Load() {
		a.e.timerWasSet()
	}
	return err
}

// timerWake is when a timer call asks to wake: now plus sleep's duration,
// or wait_until's time.
func timerWake(c *runlog.Call, now time.Time) (time.Time, error) {
	var args struct {
		Duration string `json:"duration"`
		Time     string `json:"time"`
	}
	_ = json.Unmarshal(c.Arguments, &args)
	if c.Name == spec.BuiltinSleep {
		d, err := time.ParseDuration(args.Duration)
		if err != nil || d < 0 {
			return time.Time{}, &errs.ToolRejected{Tool: c.Name, Message: `sleep needs {"duration": "..."}, a non-negative Go duration such as "90s", "15m" or "2h30m"`}
		}
		return now.Add(d), nil
	}
	t, err := time.Parse(time.RFC3339, args.Time)
	if err != nil {
		return time.Time{}, &errs.ToolRejected{Tool: c.Name, Message: `wait_until needs {"time": "..."}, an RFC 3339 time such as "2026-01-02T15:04:05Z"`}
	}
	return t.UTC(), nil
}

// timerAllowed refuses a wake time beyond the Spec's timers.max_sleep
// from now, or at or past the Run's deadline (which aborts the Run).
func (a *attempt) timerAllowed(tool string, now, wake time.Time) error {
	limit := a.spec.EffectiveMaxSleep()
	if wake.Sub(now) > limit {
		return &errs.ToolRejected{Tool: tool, Message: fmt.Sprintf("cannot sleep until %s: that is %s from now, and this agent may sleep at most %s at a time", wake.Format(time.RFC3339), wake.Sub(now).Round(time.Second), limit)}
	}
	if deadline := a.state.Admission.Deadline; !wake.Before(deadline) {
		return &errs.ToolRejected{Tool: tool, Message: fmt.Sprintf("cannot sleep until %s: the run's deadline is %s", wake.Format(time.RFC3339), deadline.UTC().Format(time.RFC3339))}
	}
	return nil
}

// wake continues a Run asleep on a TIMER whose time has come: it records
// that the timer woke it (the sleep call then returns, or a start_at Run
// starts its first turn) and the loop goes on. The Record is stamped now
// and stored with the Attempt's next append (one sync fewer per wake): a
// crash before then leaves the Run asleep past its time, and the next
// lease wakes it. Claimed before its time (a deadline or a poll found
// it), the Attempt ends and the Run sleeps on.
func (a *attempt) wake(ctx context.Context) (bool, error) {
	if a.e.Clock.Now().Before(a.state.Suspension.WakeAt) {
		return true, nil
	}
	return false, a.later(&runlog.Resumed{Reason: runlog.ReasonTimer})
}

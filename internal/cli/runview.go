package cli

import (
	"fmt"
	"io"
	"strings"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// stateName is a Run state without its enum prefix: COMPLETED.
func stateName(s runsvcv1.RunState) string {
	return strings.TrimPrefix(s.String(), "RUN_STATE_")
}

func settled(s runsvcv1.RunState) bool {
	switch s {
	case runsvcv1.RunState_RUN_STATE_COMPLETED, runsvcv1.RunState_RUN_STATE_FAILED,
		runsvcv1.RunState_RUN_STATE_ABORTED, runsvcv1.RunState_RUN_STATE_ABANDONED:
		return true
	}
	return false
}

// abortText says why a Run was aborted.
func abortText(c runsvcv1.AbortCause) string {
	switch c {
	case runsvcv1.AbortCause_ABORT_CAUSE_INTERRUPTED:
		return "interrupted"
	case runsvcv1.AbortCause_ABORT_CAUSE_DEADLINE:
		return "it passed its deadline"
	case runsvcv1.AbortCause_ABORT_CAUSE_REPLACED:
		return "a newer Run of its concurrency key replaced it"
	}
	return "for an unknown cause"
}

// defaultPriority is a Run's priority when its start names none: the
// view shows a Run's queue only when it differs.
const defaultPriority = 3

// printRun writes a Run for a person: its state, what it runs, and its
// answer, failure or suspension.
func (a *app) printRun(w io.Writer, r *runsvcv1.Run) {
	fmt.Fprintf(w, "%s  %s\n", r.GetRunId(), stateName(r.GetState()))
	field := func(label, value string) {
		fmt.Fprintf(w, "  %-9s %s\n", label, indent(value, "            "))
	}
	field("spec", fmt.Sprintf("%s (version %s)", r.GetSpec(), r.GetVersion()))
	if r.GetParentRunId() != "" {
		field("parent", fmt.Sprintf("%s (delegation %s)", r.GetParentRunId(), r.GetDelegationId()))
	}
	if r.GetThreadId() != "" {
		thread := r.GetThreadId()
		switch {
		case r.GetWaiting():
			thread += " (waiting for the thread's active run)"
		case r.GetContinuesRunId() != "":
			thread += " (continues " + r.GetContinuesRunId() + ")"
		}
		field("thread", thread)
	}
	if p := r.GetPriority(); p != 0 && p != defaultPriority {
		field("queue", fmt.Sprintf("priority %d, fairness key %s", p, r.GetFairnessKey()))
	}
	if k := r.GetConcurrencyKey(); k != "" {
		field("key", concurrencyText(r))
	}
	if w := r.GetWaitingOn(); w != "" {
		field("waiting", fmt.Sprintf("on %s since %s", w, when(r.GetWaitingSince())))
	}
	if f := r.GetForkOf(); f != nil {
		field("forked", fmt.Sprintf("from %s before turn %d (seq %d)", f.GetRunId(), f.GetTurn(), f.GetSeq()))
	}
	field("input", orNone(clip(r.GetInput(), 2000)))
	field("created", when(r.GetCreateTime()))
	if r.GetSettleTime() != nil {
		field("settled", when(r.GetSettleTime()))
	} else {
		field("deadline", when(r.GetDeadlineTime()))
	}
	u := r.GetUsage()
	usage := fmt.Sprintf("turn %d, attempt %d, %s, %s, %d tokens in, %d out",
		r.GetTurn(), r.GetAttempt(), plural(int(u.GetModelCalls()), "model call", "model calls"),
		plural(int(u.GetToolCalls()), "tool call", "tool calls"), u.GetInputTokens(), u.GetOutputTokens())
	if u.GetCostUsd() > 0 {
		usage += fmt.Sprintf(", $%.6f", u.GetCostUsd())
	}
	if n := u.GetTransientRetries(); n > 0 {
		usage += ", " + plural(int(n), "retry", "retries")
	}
	field("usage", usage)
	switch r.GetState() {
	case runsvcv1.RunState_RUN_STATE_COMPLETED:
		field("answer", r.GetAnswer())
	case runsvcv1.RunState_RUN_STATE_ABORTED:
		field("aborted", abortText(r.GetAbortCause()))
	case runsvcv1.RunState_RUN_STATE_SUSPENDED:
		a.printSuspension(w, "  ", r.GetRunId(), suspensionOfRun(r.GetSuspension()), true)
	}
	if f := r.GetFailure(); f != nil {
		field("failure", f.GetMessage()+" "+statusTag(f))
	}
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// concurrencyText is a Run's concurrency key and, while it waits for a
// slot, its place among the key's waiting Runs.
func concurrencyText(r *runsvcv1.Run) string {
	if p := r.GetConcurrencyPlace(); p > 0 {
		return fmt.Sprintf("%s (waiting for a slot, place %d)", r.GetConcurrencyKey(), p)
	}
	return r.GetConcurrencyKey()
}

package runs

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/runsvc/runsvc/internal/logwriter"
	"github.com/runsvc/runsvc/internal/store"
)

// Run is a Run as the Manager's callers see it (the gRPC service, the
// console): the row's identity and links, with the Summary the store
// keeps beside the log decoded, so a read never folds. It is the one
// shape the service converts to runsvcv1.Run.
type Run struct {
	Tenant       string
	RunID        string
	Spec         string
	Version      string
	RequestID    string
	ParentRunID  string
	RootRunID    string
	DelegationID string
	CreateTime   time.Time
	UpdateTime   time.Time
	LastSeq      int64
	// ThreadID is the thread the Run continues, ContinuesRunID the Run it
	// continues from, and Waiting says it waits for the thread's active Run.
	ThreadID       string
	ContinuesRunID string
	Waiting        bool
	// ScheduleID and ScheduleTick name the schedule and tick that
	// started the Run; empty and zero for none.
	ScheduleID   string
	ScheduleTick time.Time
	// Priority and FairnessKey order the Run's claims (StartRequest's).
	Priority    int
	FairnessKey string
	// ConcurrencyKey is the key whose slot the Run holds or waits for;
	// ConcurrencyPlace its place among the key's waiting Runs, from 1 (0
	// when it does not wait), filled in by Get.
	ConcurrencyKey   string
	ConcurrencyPlace int
	// ConcurrencySeq is the Run's position on its key, from 1, in start
	// order.
	ConcurrencySeq int
	// WaitingOn says what the Run waits on while it makes no progress
	// ("concurrency:<key>", "rate_limit:<credential>"), since WaitingSince;
	// empty for nothing.
	WaitingOn    string
	WaitingSince time.Time
	// EvaluationID is the evaluation a replay or judge Run belongs to.
	EvaluationID string
	// Steered is set by Start when the strategy steer gave the input to
	// this, the thread's active Run, instead of starting one.
	Steered bool
	logwriter.Summary
}

// Settled reports whether the Run has settled.
func (r Run) Settled() bool { return r.Status.Settled() }

// Failed returns the Run's recorded failure as a typed error, or nil.
func (r Run) Failed() error {
	if r.Failure == nil {
		return nil
	}
	return r.Failure.Err()
}

func fromStoreRun(r store.Run) (Run, error) {
	out := Run{
		Tenant: r.Tenant, RunID: r.RunID, Spec: r.Spec, Version: r.Version, RequestID: r.RequestID,
		ParentRunID: r.ParentRunID, RootRunID: r.RootRunID, DelegationID: r.DelegationID,
		CreateTime: r.CreateTime, UpdateTime: r.UpdateTime, LastSeq: r.LastSeq,
		ThreadID: r.ThreadID, ContinuesRunID: r.ContinuesRunID, Waiting: r.Waiting,
		ScheduleID: r.ScheduleID, ScheduleTick: r.ScheduleTick,
		Priority: r.Priority, FairnessKey: r.FairnessKey, EvaluationID: r.EvaluationID,
		ConcurrencyKey: r.ConcurrencyKey, ConcurrencySeq: r.KeySeq,
	}
	if len(r.Index.Summary) > 0 {
		if err := json.Unmarshal(r.Index.Summary, &out.Summary); err != nil {
			return Run{}, fmt.Errorf("run %s summary does not decode: %w", r.RunID, err)
		}
	}
	return out, nil
}

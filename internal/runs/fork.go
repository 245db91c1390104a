package runs

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/ids"
	"github.com/runsvc/runsvc/internal/logwriter"
	"github.com/runsvc/runsvc/internal/policy"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/spec"
)

// ForkRequest asks for a new Run that goes on from another Run's log at a
// turn boundary.
type ForkRequest struct {
	Tenant string
	// RunID is the source Run.
	RunID string
	// Turn forks before the source's turn Turn: the fork holds everything
	// the earlier turns did, and makes turn Turn again. Zero uses AtSeq.
	Turn int
	// AtSeq forks before the source's TurnStarted Record at that seq.
	AtSeq int64
	// Input, when set, is a new user message after the source's state.
	Input string
	// Version is the Spec Version the fork runs, the source's or a newer
	// one of the same Spec; empty is the source's.
	Version   string
	RequestID string
	// Deadline shortens the Spec's deadline when set.
	Deadline    time.Duration
	TraceParent string
}

func (req ForkRequest) validate() error {
	var bad []errs.FieldViolation
	if req.RunID == "" {
		bad = append(bad, errs.FieldViolation{Field: "run_id", Description: "is required: the Run to fork"})
	}
	if (req.Turn > 0) == (req.AtSeq > 0) || req.Turn < 0 || req.AtSeq < 0 {
		bad = append(bad, errs.FieldViolation{Field: "at", Description: "exactly one of turn or at_seq must be set, and positive"})
	}
	bad = append(bad, admissionViolations(req.Input, req.RequestID, req.Deadline)...)
	if len(bad) > 0 {
		return &errs.InvalidRequest{Violations: bad}
	}
	return nil
}

// Fork admits a Run that starts from the source Run's state at a turn
// boundary: its first Record carries the source's transcript there, with
// every tool result, so no call made before the boundary is made again.
// The source's log is only read. With a request id, the same request
// returns the Run it started (created false).
func (m *Manager) Fork(ctx context.Context, req ForkRequest) (Run, bool, error) {
	if err := req.validate(); err != nil {
		return Run{}, false, err
	}
	src, err := m.store.GetRun(ctx, req.Tenant, req.RunID)
	if err != nil {
		return Run{}, false, err
	}
	point, err := m.forkPoint(ctx, req)
	if err != nil {
		return Run{}, false, err
	}
	sv, err := m.forkVersion(ctx, req, src.Spec, src.Version)
	if err != nil {
		return Run{}, false, err
	}
	if d := m.policy.StartRun(ctx, policy.Subject{Tenant: req.Tenant, Spec: sv.Name}); d.Outcome != policy.Allow {
		return Run{}, false, &errs.AccessDenied{Subject: "spec " + sv.Name, Reason: d.Reason}
	}
	now := m.clock.Now().UTC()
	deadline := sv.Limits.Effective().Deadline
	if req.Deadline > 0 && req.Deadline < deadline {
		deadline = req.Deadline
	}
	runID := ids.New("run", now)
	adm := &runlog.Admitted{
		Tenant: req.Tenant, Spec: sv.Name, Version: sv.Version, Input: req.Input, RequestID: req.RequestID,
		Deadline: now.Add(deadline), RootRunID: runID, TraceParent: req.TraceParent, Fork: point,
	}
	return m.admit(ctx, adm, runID, now, forkHash(req), onThread{}, m.queueing(StartRequest{Tenant: req.Tenant, Priority: src.Priority, FairnessKey: src.FairnessKey}), false, Scheduled{}, "")
}

// forkPoint reads the source's log and finds the boundary asked for.
func (m *Manager) forkPoint(ctx context.Context, req ForkRequest) (*runlog.ForkOrigin, error) {
	stored, err := m.store.ReadLog(ctx, req.Tenant, req.RunID, 1, 0)
	if err != nil {
		return nil, err
	}
	recs, err := logwriter.FromStore(req.RunID, stored)
	if err != nil {
		return nil, err
	}
	point, err := runlog.ForkPoint(req.RunID, recs, req.Turn, req.AtSeq)
	if corrupt := (*errs.CorruptLog)(nil); errors.As(err, &corrupt) {
		return nil, err
	}
	if err != nil {
		field := "turn"
		if req.Turn == 0 {
			field = "at_seq"
		}
		return nil, errs.BadField(field, "%s", err.Error())
	}
	return point, nil
}

// forkVersion returns the Version the fork runs: the source's, or a newer
// one of the same Spec.
func (m *Manager) forkVersion(ctx context.Context, req ForkRequest, name, version string) (*spec.Version, error) {
	source, err := m.specs.Get(ctx, req.Tenant, name, version)
	if err != nil || req.Version == "" || req.Version == version {
		return source, err
	}
	sv, err := m.specs.Get(ctx, req.Tenant, name, req.Version)
	if err != nil {
		return nil, err
	}
	if sv.CreateTime.Before(source.CreateTime) {
		return nil, errs.BadField("version", "%s is older than the source Run's Version %s: a fork runs the same or a newer one", req.Version, version)
	}
	return sv, nil
}

// forkHash identifies a fork request's body, to tell a retry of it from a
// different request reusing its id.
func forkHash(req ForkRequest) string {
	h := sha256.New()
	fmt.Fprintf(h, "fork\x00%q\x00%d\x00%d\x00%q\x00%q\x00%d", req.RunID, req.Turn, req.AtSeq, req.Version, req.Input, req.Deadline)
	return hex.EncodeToString(h.Sum(nil))
}

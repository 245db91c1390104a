// Package runs admits Runs and serves everything done to them from outside
// a worker: reads, watches, waits, messages, resumes, interrupts, reports
// and delegations. Writes are outsiders' appends to the Run's log through
// the log writer (logwriter.Outsider: conditional on seq, read again and
// retried with jitter after a conflict within the caller's deadline), so
// they interleave safely with the worker that holds the Run's lease.
package runs

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/runsvc/runsvc/internal/alias"
	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/ids"
	"github.com/runsvc/runsvc/internal/live"
	"github.com/runsvc/runsvc/internal/logwriter"
	"github.com/runsvc/runsvc/internal/policy"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/secret"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/spec/versions"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/waiting"
)

// Limits of what a request may carry.
const (
	MaxInputBytes     = 1 << 20
	MaxRequestIDBytes = 128
	MaxMessageBytes   = 256 << 10
)

// Manager admits and serves Runs.
type Manager struct {
	store  Store
	writer *logwriter.Writer
	tails  *tails
	specs  *versions.Registry
	policy policy.Policy
	clock  clock.Clock
	log    *slog.Logger
	live   *live.Hub
	// local, when set, takes Runs as they are admitted.
	local Local
	// deleted counts DeleteRun's deletions since the sweeper last
	// compacted the store.
	deleted atomic.Int64
	// starts, when set, hears of every Run created (Deps.Starts).
	starts StartReporter
	// weights are Deps.FairnessWeights.
	weights map[string]int
	// settleHooks run after AfterSettle's own work (AlsoAfterSettle).
	settleHooks []func(context.Context, *runlog.State)
	// waits are Deps.Waits.
	waits *waiting.Board
	// aliases are Deps.Aliases.
	aliases Aliases
}

// Deps are what a Manager works with. Store and Specs are required.
type Deps struct {
	Store Store
	Specs *versions.Registry
	// Policy decides Run starts; nil allows all.
	Policy policy.Policy
	Clock  clock.Clock
	Log    *slog.Logger
	// Scrubber, when set, removes the secrets it knows from every Record
	// the Manager's Writer writes (logwriter.Options.Scrubber).
	Scrubber *secret.Scrubber
	// Live, when set, carries what model calls stream to WatchLive.
	Live *live.Hub
	// Local, when set, is this process's worker: a Run admitted while it
	// has room is created leased to it and handed over in-process.
	Local Local
	// Starts, when set, hears of every Run created.
	Starts StartReporter
	// Events, when set, gives the webhook outbox rows of each write that
	// settles or suspends a Run (logwriter.Options.Events).
	Events logwriter.Events
	// FairnessWeights are the fairness keys' weights: a key of weight w
	// gets w times the claims of a key of weight 1 while both have Runs
	// waiting. A key not named weighs 1.
	FairnessWeights map[string]int
	// Waits, when set, is what this process's Runs wait on right now
	// (their model calls on the provider rate limit), which Get shows.
	Waits *waiting.Board
	// Aliases, when set, resolves the aliases `spec@alias` starts name;
	// without it such a start fails *errs.DependencyMissing.
	Aliases Aliases
}

// New returns a Manager and the Writer of Run logs it writes through
// (Writer), which runs AfterSettle after every write that settles a Run.
func New(d Deps) *Manager {
	if d.Policy == nil {
		d.Policy = policy.AllowAll{}
	}
	if d.Clock == nil {
		d.Clock = clock.Real{}
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	m := &Manager{store: d.Store, specs: d.Specs, policy: d.Policy, clock: d.Clock, log: d.Log, live: d.Live, local: d.Local, starts: d.Starts, weights: d.FairnessWeights, waits: d.Waits,
		aliases: d.Aliases}
	m.writer = logwriter.New(d.Store, logwriter.Options{Clock: d.Clock, Log: d.Log, Scrubber: d.Scrubber, OnSettle: m.AfterSettle, Events: d.Events})
	m.tails = newTails(d.Store, m.writer)
	return m
}

// AlsoAfterSettle adds f to what runs after every write that settles a
// Run, by whichever path (AfterSettle): the engine's cancel of an
// interrupted Run's remote tasks, say. f must return at once. Call it
// before the Manager is used.
func (m *Manager) AlsoAfterSettle(f func(context.Context, *runlog.State)) {
	m.settleHooks = append(m.settleHooks, f)
}

// Writer returns the Writer of Run logs the Manager writes through; the
// engine writes through the same one.
func (m *Manager) Writer() *logwriter.Writer { return m.writer }

// StartRequest asks for a Run.
type StartRequest struct {
	Tenant string
	// RunID is the new Run's id; empty makes one.
	RunID     string
	Spec      string
	Version   string
	Input     string
	RequestID string
	// Deadline shortens the Spec's deadline when set.
	Deadline time.Duration
	// Parent is set for a delegated child Run.
	Parent *Parent
	// TraceParent is the caller's W3C trace context, kept for the Run's
	// Attempts; empty when untraced.
	TraceParent string
	// ThreadID is the thread the Run continues; empty for none.
	ThreadID string
	// Strategy is what to do when the thread has an active Run (one of
	// Strategies); empty takes the Spec's, and reject when it has none.
	Strategy string
	// Scheduled, for a Run a schedule's tick starts, names the schedule
	// and the tick; the Run's row keeps them.
	Scheduled Scheduled
	// StartAt, when after now, admits the Run asleep on a TIMER until
	// then, its deadline counted from it; at most MaxStartAhead ahead.
	StartAt time.Time
	// Priority orders the Run's claims (store.MinPriority to
	// store.MaxPriority); 0 is store.DefaultPriority.
	Priority int
	// FairnessKey shares claims within a priority; empty is the tenant.
	FairnessKey string
	// ConcurrencyKey overrides the key of the Spec's concurrency
	// expression; with a Spec that sets none it limits the Run with
	// ConcurrencyLimit (0 is 1) in the mode queue.
	ConcurrencyKey string
	// ConcurrencyLimit overrides the Spec's concurrency limit; 0 takes it.
	ConcurrencyLimit int
	// Alias is the alias of Spec the Run starts on; Start also takes it
	// from a Spec of the form `spec@alias`.
	Alias string
	// FollowAlias makes a Run of an alias on a thread take the alias's
	// Version instead of the Version of the thread's Run.
	FollowAlias bool
	// StickyKey keeps the Runs started with it on one side of an alias's
	// canary split; empty, the thread (or, without one, the Run) is the key.
	StickyKey string
	// aliasSide is the side of Alias the Run took, set by Start.
	aliasSide alias.Side
	// parentRow is Parent's row once a start has read it (parentOf), so
	// that the alias's key and the concurrency key read it once.
	parentRow *store.Run
	// EvaluationID puts the Run in an evaluation's namespace (a replay, a
	// judge), which production lists never show; Replay makes it a replay
	// of a recorded Run (runlog.Replay).
	EvaluationID string
	Replay       *runlog.Replay
}

// Scheduled is the schedule and tick that start a Run; zero for none.
type Scheduled struct {
	ScheduleID string
	Tick       time.Time
}

// MaxStartAhead bounds how far ahead StartRequest.StartAt may be.
const MaxStartAhead = 366 * 24 * time.Hour

// Parent links a child Run to the Run and delegation that started it.
type Parent struct {
	RunID        string
	RootRunID    string
	DelegationID string
	Depth        int
}

// Start admits a Run. With a request id, the same request returns the
// Run it started (created false) and another request fails
// *errs.RequestIDReused.
func (m *Manager) Start(ctx context.Context, req StartRequest) (Run, bool, error) {
	var bad []errs.FieldViolation
	if req.Spec == "" {
		bad = append(bad, errs.FieldViolation{Field: "spec", Description: "is required: the name of a published Spec"})
	}
	bad = append(bad, admissionViolations(req.Input, req.RequestID, req.Deadline)...)
	bad = append(bad, threadViolations(req)...)
	if req.StartAt.After(m.clock.Now().Add(MaxStartAhead)) {
		bad = append(bad, errs.FieldViolation{Field: "start_at", Description: fmt.Sprintf("is more than %d days ahead", MaxStartAhead/(24*time.Hour))})
	}
	bad = append(bad, queueViolations(req)...)
	bad = append(bad, concurrencyViolations(req)...)
	if len(bad) > 0 {
		return Run{}, false, &errs.InvalidRequest{Violations: bad}
	}
	if err := splitAlias(&req); err != nil {
		return Run{}, false, err
	}
	if req.Alias != "" {
		if run, ok, err := m.startedChild(ctx, req); err != nil || ok {
			return run, false, err
		}
		sv, err := m.aliasVersion(ctx, &req)
		if err != nil {
			return Run{}, false, err
		}
		return m.startOn(ctx, req, sv, false)
	}
	sv, remembered, err := m.startVersion(ctx, req)
	if err != nil {
		return Run{}, false, err
	}
	run, created, err := m.startOn(ctx, req, sv, remembered)
	if remembered && errors.Is(err, store.ErrConditionFailed) {
		// Another replica published a newer Version since this one
		// remembered the newest: read it, and start on what was read.
		if sv, err = m.specs.ReadNewest(ctx, req.Tenant, req.Spec); err != nil {
			return Run{}, false, err
		}
		return m.startOn(ctx, req, sv, false)
	}
	return run, created, err
}

// startVersion is the Spec Version a start asks for: the newest when it
// names none, remembered when the Registry had it in memory (see
// versions.Registry.Newest).
func (m *Manager) startVersion(ctx context.Context, req StartRequest) (*spec.Version, bool, error) {
	if req.Version != "" {
		sv, err := m.specs.Get(ctx, req.Tenant, req.Spec, req.Version)
		return sv, false, err
	}
	return m.specs.Newest(ctx, req.Tenant, req.Spec)
}

// startOn starts the Run on Version sv, by the start's thread strategy;
// remembered is startVersion's.
func (m *Manager) startOn(ctx context.Context, req StartRequest, sv *spec.Version, remembered bool) (Run, bool, error) {
	if d := m.policy.StartRun(ctx, policy.Subject{Tenant: req.Tenant, Spec: req.Spec}); d.Outcome != policy.Allow {
		return Run{}, false, &errs.AccessDenied{Subject: "spec " + req.Spec, Reason: d.Reason}
	}
	strategy := req.Strategy
	if strategy == "" {
		strategy = sv.ThreadStrategy
	}
	if req.ThreadID != "" && strategy == StrategySteer {
		return m.startOrSteer(ctx, req, sv, remembered)
	}
	return m.create(ctx, req, sv, remembered, strategy)
}

// create makes the Run a start asks for, on its thread if it names one;
// remembered says sv is the newest Version as the Registry remembered it,
// which the store checks.
func (m *Manager) create(ctx context.Context, req StartRequest, sv *spec.Version, remembered bool, strategy string) (Run, bool, error) {
	now := m.clock.Now().UTC()
	deadline := sv.Limits.Effective().Deadline
	if req.Deadline > 0 && req.Deadline < deadline {
		deadline = req.Deadline
	}
	runID := req.RunID
	if runID == "" {
		runID = ids.New("run", now)
	}
	adm := &runlog.Admitted{
		Tenant: req.Tenant, Spec: sv.Name, Version: sv.Version, Input: req.Input, RequestID: req.RequestID,
		Deadline: now.Add(deadline), RootRunID: runID, TraceParent: req.TraceParent,
		Alias: req.Alias, AliasSide: string(req.aliasSide),
	}
	if req.StartAt.After(now) {
		// Asleep until then; its deadline counts from its start.
		adm.StartAt, adm.Deadline = req.StartAt.UTC(), req.StartAt.UTC().Add(deadline)
	}
	if p := req.Parent; p != nil {
		adm.ParentRunID, adm.RootRunID, adm.DelegationID, adm.Depth = p.RunID, p.RootRunID, p.DelegationID, p.Depth
	}
	adm.Replay, adm.Evaluation = req.Replay, req.EvaluationID
	thread := onThread{ID: req.ThreadID, Strategy: strategy}
	q := m.queueing(m.inherit(ctx, req))
	q.Keyed = m.familyKey(ctx, req, concurrencyOf(req, sv))
	return m.admit(ctx, adm, runID, now, requestHash(req), thread, q, remembered, req.Scheduled, req.EvaluationID)
}

// onThread is the thread a new Run is started on (none when ID is empty)
// and the strategy of the start.
type onThread struct {
	ID       string
	Strategy string
}

// admit creates the Run adm admits, on thread when it names one, or
// returns the one its request id started before (created false), or
// *errs.RequestIDReused when that one was started by another request.
// newest makes the creation conditional on adm's Version still being the
// Spec's newest (store.NewRun.IfNoNewerVersion): else
// store.ErrConditionFailed.
// sched names the schedule and tick that start the Run, if any.
func (m *Manager) admit(ctx context.Context, adm *runlog.Admitted, runID string, now time.Time, hash string, thread onThread, q queueing, newest bool, sched Scheduled, evaluationID string) (Run, bool, error) {
	st := runlog.New(runID)
	recs := logwriter.Stamp(st, 0, now, adm)
	if err := st.ApplyAll(recs); err != nil {
		return Run{}, false, err
	}
	stored, err := logwriter.ToStore(recs)
	if err != nil {
		return Run{}, false, err
	}
	nr := store.NewRun{
		Run: store.Run{
			Tenant: adm.Tenant, RunID: runID, Spec: adm.Spec, Version: adm.Version, RequestID: adm.RequestID,
			RequestHash: hash, ParentRunID: adm.ParentRunID, RootRunID: adm.RootRunID,
			DelegationID: adm.DelegationID, CreateTime: now, Index: logwriter.Index(st), ThreadID: thread.ID,
			ScheduleID: sched.ScheduleID, ScheduleTick: sched.Tick,
			Priority: q.Priority, FairnessKey: q.FairnessKey, EvaluationID: evaluationID,
			ConcurrencyKey: q.Keyed.Key, ConcurrencyLimit: q.Keyed.Limit,
		},
		RejectLimited:    q.Keyed.Mode == spec.ConcurrencyReject,
		FairStride:       q.Stride,
		Records:          stored,
		Ends:             logwriter.Ends(stored),
		RejectBusy:       thread.Strategy == "" || thread.Strategy == StrategyReject,
		IfNoNewerVersion: newest,
	}
	var slot *reservation
	if adm.StartAt.IsZero() {
		// A Run admitted asleep needs no worker until its time.
		slot = m.reserve()
	}
	slot.lease(&nr.Run, now)
	row, created, err := m.store.CreateRun(ctx, nr)
	slot.end(row, st, created, err)
	if err != nil {
		return Run{}, false, err
	}
	m.started(nr.Spec, created)
	if created && row.Waiting && thread.Strategy == StrategyInterrupt {
		if err := m.interruptAhead(ctx, adm.Tenant, thread.ID, row.RunID); err != nil {
			return Run{}, false, err
		}
	}
	if created && row.KeyState == store.KeyWaits && q.Keyed.Mode == spec.ConcurrencyReplace {
		if err := m.replaceWaiting(ctx, adm.Tenant, row.ConcurrencyKey, row.RunID); err != nil {
			return Run{}, false, err
		}
	}
	if !created && row.RequestHash != hash {
		return Run{}, false, &errs.RequestIDReused{RequestID: adm.RequestID, RunID: row.RunID}
	}
	run, err := fromStoreRun(row)
	return run, created, err
}

// admissionViolations are what is wrong with the parts StartRun and ForkRun
// share: the input's and request id's sizes and the deadline.
func admissionViolations(input, requestID string, deadline time.Duration) []errs.FieldViolation {
	var bad []errs.FieldViolation
	if len(input) > MaxInputBytes {
		bad = append(bad, errs.FieldViolation{Field: "input", Description: fmt.Sprintf("is %d bytes; at most %d are allowed", len(input), MaxInputBytes)})
	}
	if len(requestID) > MaxRequestIDBytes {
		bad = append(bad, errs.FieldViolation{Field: "request_id", Description: fmt.Sprintf("is %d bytes; at most %d are allowed", len(requestID), MaxRequestIDBytes)})
	}
	if deadline < 0 || deadline > spec.MaxDeadline {
		bad = append(bad, errs.FieldViolation{Field: "deadline", Description: fmt.Sprintf("must be between 0 and %s", spec.MaxDeadline)})
	}
	return bad
}

// requestHash identifies a start request's body, to tell a retry of it from
// a different request reusing its id.
func requestHash(req StartRequest) string {
	h := sha256.New()
	fmt.Fprintf(h, "%q\x00%q\x00%q\x00%d", req.Spec, req.Version, req.Input, req.Deadline)
	if req.ThreadID != "" {
		fmt.Fprintf(h, "\x00thread %q %q", req.ThreadID, req.Strategy)
	}
	if p := req.Parent; p != nil {
		fmt.Fprintf(h, "\x00%q", p.RunID)
	}
	if !req.StartAt.IsZero() {
		fmt.Fprintf(h, "\x00start_at %d", req.StartAt.UnixNano())
	}
	if req.ConcurrencyKey != "" || req.ConcurrencyLimit != 0 {
		fmt.Fprintf(h, "\x00concurrency %q %d", req.ConcurrencyKey, req.ConcurrencyLimit)
	}
	if req.Alias != "" {
		fmt.Fprintf(h, "\x00alias %q %q %v", req.Alias, req.StickyKey, req.FollowAlias)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Get returns a Run or *errs.RunNotFound.
func (m *Manager) Get(ctx context.Context, tenant, runID string) (Run, error) {
	if runID == "" {
		return Run{}, errs.BadField("run_id", "is required")
	}
	row, err := m.store.GetRun(ctx, tenant, runID)
	if err != nil {
		return Run{}, err
	}
	run, err := fromStoreRun(row)
	if err != nil {
		return Run{}, err
	}
	return run, m.keyPlace(ctx, &run, row)
}

// List lists Runs newest first.
func (m *Manager) List(ctx context.Context, tenant string, q store.RunQuery) ([]Run, string, error) {
	rows, next, err := m.store.ListRuns(ctx, tenant, q)
	if err != nil {
		return nil, "", err
	}
	out := make([]Run, 0, len(rows))
	for _, r := range rows {
		run, err := fromStoreRun(r)
		if err != nil {
			return nil, "", err
		}
		out = append(out, run)
	}
	return out, next, nil
}

// mutate appends what decide returns for the Run's current State, as an
// outsider, and returns the log's last seq (see logwriter.Writer.Mutate).
func (m *Manager) mutate(ctx context.Context, tenant, runID string, decide logwriter.Decide) (int64, error) {
	return m.writer.Mutate(ctx, tenant, runID, decide)
}

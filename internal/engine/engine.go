// Package engine is the worker side of runsvc: it claims runnable Runs
// under leases, runs the agent loop for each (model call, tool calls, next
// turn) and writes what happens to the Run's log as its single writer.
//
// Everything an Attempt decides follows from the folded log, so a Run
// taken over after a crash continues where the log says it stopped.
package engine

import (
	"context"
	"log/slog"
	"time"

	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/live"
	"github.com/runsvc/runsvc/internal/logwriter"
	"github.com/runsvc/runsvc/internal/lru"
	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/policy"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/schema"
	"github.com/runsvc/runsvc/internal/secret"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/spec/versions"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/tool"
	"github.com/runsvc/runsvc/internal/waiting"
)

// Config tunes an Engine. Zero values mean the defaults.
type Config struct {
	// WorkerID names this worker in leases and logs.
	WorkerID string
	// LeaseTTL is how long a lease lasts without renewal; heartbeats renew
	// it every third of that. Default 15s.
	LeaseTTL time.Duration
	// MaxConcurrent bounds the Attempts this worker runs at once.
	// Default 256.
	MaxConcurrent int
	// MaxAttempts bounds the Attempts of one Run that die: end without
	// settling it or leaving it suspended (a crash, a lost lease, a
	// drain). The Run then fails ATTEMPTS_EXHAUSTED. Attempts that a
	// resume, an answer or a timer starts after a suspension are not
	// counted. Default 10.
	MaxAttempts int
	// PollInterval is how often an idle worker looks for expired leases
	// and due wake-ups when nothing signals it. Default 1s.
	PollInterval time.Duration
	// OrphanGrace is how long a tool call may run past the Run's deadline
	// before it is closed as orphaned. Default 5s.
	OrphanGrace time.Duration
	// RetryBase and RetryMax bound the exponential backoff between
	// transient retries. Defaults 200ms and 30s.
	RetryBase time.Duration
	RetryMax  time.Duration
}

func (c Config) withDefaults() Config {
	if c.WorkerID == "" {
		c.WorkerID = "worker"
	}
	if c.LeaseTTL == 0 {
		c.LeaseTTL = 15 * time.Second
	}
	if c.MaxConcurrent == 0 {
		c.MaxConcurrent = 256
	}
	if c.MaxAttempts == 0 {
		c.MaxAttempts = 10
	}
	if c.PollInterval == 0 {
		c.PollInterval = time.Second
	}
	if c.OrphanGrace == 0 {
		c.OrphanGrace = 5 * time.Second
	}
	if c.RetryBase == 0 {
		c.RetryBase = 200 * time.Millisecond
	}
	if c.RetryMax == 0 {
		c.RetryMax = 30 * time.Second
	}
	return c
}

// Deps are what an Engine works with.
type Deps struct {
	Store Store
	// Writer writes the Runs' logs; the same one the Run manager uses.
	Writer  *logwriter.Writer
	Runs    Runs
	Specs   *versions.Registry
	Models  model.Providers
	Tools   map[spec.Kind]tool.Executor
	Workers Workers
	Memory  Memory
	Bus     Bus
	Secrets secret.Resolver
	Policy  policy.Policy
	Clock   clock.Clock
	Log     *slog.Logger
	// Live, when set, carries what model calls stream to this process's
	// watchers before the turn's Record is stored.
	Live *live.Hub
	// Observer sees attempts, model and tool calls and settled Runs, for
	// metrics and traces; nil observes nothing.
	Observer Observer
	// Slots are the Engine's Attempt slots, made by NewSlots with the
	// Engine's Config and given to the Run manager too (as its
	// runs.Local) when Runs admitted here are to be handed to this
	// Engine; nil makes slots only the Engine uses.
	Slots *Slots
	// Scrub, when set, removes every secret it knows from what a call
	// made outside a Run answers (a Run's results are scrubbed by Writer).
	Scrub *secret.Scrubber
	// Waits, when set, is told what a Run's model call waits on (the
	// provider rate limit) while it waits, for GetRun.
	Waits *waiting.Board
}

// Runs is what the engine needs of the Run manager (runs.Manager): to
// start a delegated child Run and to read a Run.
type Runs interface {
	// Start admits a Run; see runs.Manager.Start.
	Start(ctx context.Context, req runs.StartRequest) (runs.Run, bool, error)
	// Get returns a Run or *errs.RunNotFound.
	Get(ctx context.Context, tenant, runID string) (runs.Run, error)
}

// Engine runs Runs.
type Engine struct {
	Deps
	cfg Config
	// slots are the Deps' Slots: the Attempts running, or reserved for
	// Runs being admitted.
	slots *Slots
	// schemaCache holds each Version's compiled schemas.
	schemaCache *lru.Cache[*spec.Schemas]
	// describedCache holds the compiled schemas tools' providers describe,
	// by content (nil for one that does not compile).
	describedCache *lru.Cache[*schema.Schema]
	// histories holds threads' histories (threadhistory.go).
	histories *lru.Cache[*cachedHistory]
	// conversations keeps each Run's conversation between its Attempts.
	conversations conversations
	// timerSet is signalled when an Attempt here put a Run to sleep, so
	// that an idle loop asks NextWake again: the new wake time may come
	// before the one it waits for.
	timerSet chan struct{}
}

// New returns an Engine.
func New(d Deps, cfg Config) *Engine {
	if d.Policy == nil {
		d.Policy = policy.AllowAll{}
	}
	if d.Secrets == nil {
		d.Secrets = secret.Env{}
	}
	if d.Clock == nil {
		d.Clock = clock.Real{}
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	if d.Observer == nil {
		d.Observer = nopObserver{}
	}
	cfg = cfg.withDefaults()
	if d.Slots == nil {
		d.Slots = NewSlots(cfg)
	}
	e := &Engine{
		Deps: d, cfg: cfg, slots: d.Slots,
		schemaCache: lru.New[*spec.Schemas](schemaCacheSize), describedCache: lru.New[*schema.Schema](schemaCacheSize),
		histories: lru.New[*cachedHistory](historyCacheSize),
		timerSet:  make(chan struct{}, 1),
	}
	e.slots.bind(cfg, e.runAttempt)
	return e
}

// Run claims and runs Runs until ctx ends, then waits for its Attempts to
// stop. Attempts stopped by ctx give their leases back so that another
// worker can continue at once.
func (e *Engine) Run(ctx context.Context) {
	sub := e.Store.Notifier().Subscribe(store.TopicRunnable)
	defer sub.Close()
	slots := e.slots.ch
	defer e.slots.wg.Wait()
	e.slots.running(ctx)
	defer e.slots.stopped()
	for {
		// Wait for one free slot, then take every other free one, up to a
		// batch, and claim that many Runs in one transaction.
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			return
		}
		n := 1
	fill:
		for n < claimBatch {
			select {
			case slots <- struct{}{}:
				n++
			default:
				break fill
			}
		}
		leases, err := e.Store.Claim(ctx, e.cfg.WorkerID, e.Clock.Now(), e.cfg.LeaseTTL, n)
		e.slots.backlog.Store(err == nil && len(leases) == n)
		for i := len(leases); i < n; i++ {
			<-slots
		}
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			e.Log.Warn("claiming runs failed", "worker", e.cfg.WorkerID, "err", err)
			if e.Clock.Sleep(ctx, e.cfg.PollInterval) != nil {
				return
			}
			continue
		}
		if len(leases) == 0 {
			e.idle(ctx, sub)
			if ctx.Err() != nil {
				return
			}
			continue
		}
		for _, lease := range leases {
			e.slots.wg.Add(1)
			go e.runAttempt(ctx, lease, nil)
		}
	}
}

// runAttempt runs an Attempt in a slot taken for it (and counted in wg),
// and gives both back.
func (e *Engine) runAttempt(ctx context.Context, lease *store.Lease, adm *runs.Handover) {
	defer e.slots.wg.Done()
	defer func() { <-e.slots.ch }()
	actx, end := e.Observer.StartAttempt(ctx, AttemptInfo{Tenant: lease.Tenant, RunID: lease.RunID, Worker: e.cfg.WorkerID})
	defer end()
	e.Log.Info("attempt started", "runId", lease.RunID, "worker", e.cfg.WorkerID)
	e.attempt(actx, lease, adm)
}

// claimBatch bounds how many Runs one claim transaction takes.
const claimBatch = 32

// idle waits for a signal, the poll interval, or the next wake time. A
// wake time another replica sets is seen at the next poll, at most
// PollInterval later, so a timer longer than that wakes on time anywhere.
func (e *Engine) idle(ctx context.Context, sub store.Subscription) {
	wait := e.cfg.PollInterval
	if at, ok, err := e.Store.NextWake(ctx); err == nil && ok {
		if d := at.Sub(e.Clock.Now()); d < wait {
			wait = max(d, time.Millisecond)
		}
	}
	select {
	case <-sub.C():
	case <-e.timerSet:
	case <-e.Clock.After(wait):
	case <-ctx.Done():
	}
}

// timerWasSet tells an idle loop that a Run went to sleep here.
func (e *Engine) timerWasSet() {
	select {
	case e.timerSet <- struct{}{}:
	default:
	}
}

package engine

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/store"
)

// Slots are one worker's Attempt slots, up to Config.MaxConcurrent. They
// are made before the Run manager and the Engine, which both take them at
// construction, so that neither needs the other first: the Engine runs
// the Runs it claims in them, and the manager (through runs.Local)
// admits a Run leased to this worker while one is free and hands it to
// the Engine made on them. Until that Engine runs (Engine.Run), no slot
// is reserved for an admission.
type Slots struct {
	cfg Config
	// ch holds one token per Attempt running (or reserved for a Run being
	// admitted); wg counts them.
	ch chan struct{}
	wg sync.WaitGroup
	// mu guards runCtx, the context of Engine.Run while it runs (nil
	// before and after), which adopted Attempts run in.
	mu     sync.Mutex
	runCtx context.Context
	// run is the Engine's: it runs an Attempt in a slot taken for it.
	run func(ctx context.Context, lease *store.Lease, adm *runs.Handover)
	// backlog says the Engine's last claim found as many Runs waiting as
	// it had slots for: Runs queue in the store, and a Run admitted now
	// is to queue behind them (by priority and fairness), not take a
	// slot that frees before them.
	backlog atomic.Bool
}

// NewSlots returns the slots of an Engine to be made with cfg.
func NewSlots(cfg Config) *Slots {
	cfg = cfg.withDefaults()
	return &Slots{cfg: cfg, ch: make(chan struct{}, cfg.MaxConcurrent)}
}

// bind makes s the slots of the Engine whose Config is cfg and whose
// Attempts run. Slots serve one Engine, made with their Config: anything
// else is a mistake in assembling the process.
func (s *Slots) bind(cfg Config, run func(context.Context, *store.Lease, *runs.Handover)) {
	if s.run != nil || s.cfg != cfg {
		panic("engine: Slots are given to one Engine, made with the Config of NewSlots")
	}
	s.run = run
}

// running records the context Engine.Run runs in.
func (s *Slots) running(ctx context.Context) {
	s.mu.Lock()
	s.runCtx = ctx
	s.mu.Unlock()
}

// stopped records that Engine.Run returned: no slot is reserved from here
// on, so that its wait sees every Attempt.
func (s *Slots) stopped() {
	s.mu.Lock()
	s.runCtx = nil
	s.mu.Unlock()
}

// Reserve implements runs.Local: it takes a free slot while the Engine
// runs and its last claim did not find Runs waiting beyond its slots (a
// Run admitted then queues behind them, by priority and fairness).
func (s *Slots) Reserve() (string, time.Duration, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.runCtx == nil || s.runCtx.Err() != nil || s.backlog.Load() {
		return "", 0, false
	}
	select {
	case s.ch <- struct{}{}:
	default:
		return "", 0, false
	}
	s.wg.Add(1)
	return s.cfg.WorkerID, s.cfg.LeaseTTL, true
}

// Adopt implements runs.Local: the Engine runs an Attempt of a Run
// admitted under lease, in the slot Reserve took. Were Engine.Run to have
// ended meanwhile, the Attempt stops at once and gives the lease back.
func (s *Slots) Adopt(lease *store.Lease, adm *runs.Handover) {
	s.mu.Lock()
	ctx := s.runCtx
	s.mu.Unlock()
	if ctx == nil {
		ctx = stoppedContext()
	}
	go s.run(ctx, lease, adm)
}

// Unreserve implements runs.Local: it gives a reserved slot back.
func (s *Slots) Unreserve() {
	<-s.ch
	s.wg.Done()
}

// stoppedContext is a context that has ended.
func stoppedContext() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}

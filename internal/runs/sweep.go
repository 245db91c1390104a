package runs

import (
	"context"
	"log/slog"
	"time"

	"github.com/runsvc/runsvc/internal/store"
)

// Sweep defaults.
const (
	DefaultSweepInterval = time.Minute
	DefaultSweepBatch    = 10
	DefaultSweepPause    = 5 * time.Millisecond
)

// SweepConfig tunes the retention sweep.
type SweepConfig struct {
	// Retention is how long settled Runs are kept when their Spec sets no
	// retention; zero keeps them forever.
	Retention time.Duration
	// Interval is how long the sweeper waits between sweeps, on the
	// Manager's clock.
	Interval time.Duration
	// Batch bounds how many Runs one store transaction deletes.
	Batch int
	// Pause is the least wall-clock breath between two batches, during
	// which the store serves everyone else's writes; the sweeper rests at
	// least twice as long as the batch before took.
	Pause time.Duration
}

// SweepReporter hears how each sweep went (metrics).
type SweepReporter interface {
	// Swept reports one sweep: how many Runs it deleted and how long it took.
	Swept(deleted int, took time.Duration, err error)
}

// Sweeper deletes settled Runs whose retention is over, in the background.
type Sweeper struct {
	m   *Manager
	cfg SweepConfig
	rep SweepReporter
}

// NewSweeper returns a sweeper over the Manager's store; rep may be nil.
func (m *Manager) NewSweeper(cfg SweepConfig, rep SweepReporter) *Sweeper {
	if cfg.Interval <= 0 {
		cfg.Interval = DefaultSweepInterval
	}
	if cfg.Batch <= 0 {
		cfg.Batch = DefaultSweepBatch
	}
	if cfg.Pause < 0 {
		cfg.Pause = 0
	}
	return &Sweeper{m: m, cfg: cfg, rep: rep}
}

// Run sweeps every Interval until ctx ends.
func (s *Sweeper) Run(ctx context.Context) {
	for {
		if _, err := s.Sweep(ctx); err != nil && ctx.Err() == nil {
			s.m.log.Warn("retention sweep failed", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-s.m.clock.After(s.cfg.Interval):
		}
	}
}

// Sweep deletes, batch by batch, every settled Run whose retention (its
// Spec's, else the server's) is over at the clock's now, except those
// whose parent is still active, and logs one line saying how many and how
// long. When it or DeleteRun deleted anything since the last sweep, it
// then compacts the store. It returns how many it deleted.
func (s *Sweeper) Sweep(ctx context.Context) (int, error) {
	start := time.Now()
	now := s.m.clock.Now()
	n, err := s.sweep(ctx, now)
	if requested := s.m.deleted.Swap(0); (n > 0 || requested > 0) && err == nil {
		// Deleted means gone from the files too, not only from the tables.
		err = s.m.store.Compact(ctx)
	}
	took := time.Since(start)
	if s.rep != nil {
		s.rep.Swept(n, took, err)
	}
	level := slog.LevelInfo
	if err != nil {
		level = slog.LevelWarn
	}
	s.m.log.Log(ctx, level, "retention sweep", "deleted", n, "durationMs", took.Milliseconds(), "err", err)
	return n, err
}

func (s *Sweeper) sweep(ctx context.Context, now time.Time) (int, error) {
	groups, err := s.m.store.SettledGroups(ctx, SettledStates)
	if err != nil {
		return 0, err
	}
	total := 0
	for _, g := range groups {
		keep, ownsMemory := s.retention(ctx, g)
		if keep <= 0 {
			continue
		}
		n, err := s.sweepGroup(ctx, store.ExpiryQuery{RunGroup: g, Settled: SettledStates, Before: now.Add(-keep), Limit: s.cfg.Batch}, ownsMemory)
		total += n
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

// retention is how long a group's settled Runs are kept, and whether a
// root Run takes its family memory with it.
func (s *Sweeper) retention(ctx context.Context, g store.RunGroup) (time.Duration, bool) {
	keep, owns := s.cfg.Retention, false
	if sv, err := s.m.specs.Get(ctx, g.Tenant, g.Spec, g.Version); err == nil && sv.Retention != nil {
		if sv.Retention.SettledRuns > 0 {
			keep = sv.Retention.SettledRuns
		}
		owns = sv.Retention.DeleteMemory
	}
	return keep, owns
}

// sweepPages is how many batches of candidates one query finds: the
// query scans the group's Runs, so it runs once per many batches.
const sweepPages = 50

func (s *Sweeper) sweepGroup(ctx context.Context, q store.ExpiryQuery, ownsMemory bool) (int, error) {
	total := 0
	q.Limit = s.cfg.Batch * sweepPages
	for {
		expired, err := s.m.store.ExpiredRuns(ctx, q)
		if err != nil || len(expired) == 0 {
			return total, err
		}
		gone := 0
		for from := 0; from < len(expired); from += s.cfg.Batch {
			n, err := s.deleteBatch(ctx, expired[from:min(from+s.cfg.Batch, len(expired))], ownsMemory)
			total, gone = total+n, gone+n
			if err != nil {
				return total, err
			}
		}
		if gone == 0 || len(expired) < q.Limit {
			return total, nil
		}
	}
}

// deleteBatch deletes one batch of expired Runs in one store transaction,
// then rests at least twice as long as the batch held the store, so that
// the sweep takes at most a third of the writer's time.
func (s *Sweeper) deleteBatch(ctx context.Context, batch []store.Run, ownsMemory bool) (int, error) {
	ds := make([]store.RunDeletion, len(batch))
	for i, r := range batch {
		ds[i] = store.RunDeletion{Tenant: r.Tenant, RunID: r.RunID, LastSeq: r.LastSeq}
		if ownsMemory && r.RootRunID == r.RunID {
			ds[i].Namespaces = []string{FamilyNamespace(r.RunID)}
		}
	}
	began := time.Now()
	deleted, err := s.m.store.DeleteRuns(ctx, ds)
	if err != nil {
		return len(deleted), err
	}
	return len(deleted), pause(ctx, max(s.cfg.Pause, 2*time.Since(began)))
}

// pause waits d of wall-clock time: a breath between batches, not an
// expiry, so it does not follow the injected clock.
func pause(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

package webhook_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/netpolicy"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/postgres"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
	"github.com/runsvc/runsvc/internal/store/sqlite/sqlitetest"
	"github.com/runsvc/runsvc/internal/webhook"
)

// refreshLive is how many live Runs (each with a push config) the
// refresh benchmark's store holds.
const refreshLive = 100

// BenchmarkRefresh is one refresh of the subscriptions copy (what every
// replica does on each WebhooksTopic signal and every 30 s), on SQLite
// and PostgreSQL, with 100 live Runs' push configs and 0, then 10,000,
// settled Runs' configs beside them, before and after the dispatcher's
// prune retired those (BENCHMARKS.md, "Push configs").
func BenchmarkRefresh(b *testing.B) {
	for _, st := range []struct {
		name string
		open func(b *testing.B) store.Store
	}{
		{"sqlite", func(b *testing.B) store.Store { return sqlitetest.Open(b) }},
		{"postgres", openPostgres},
	} {
		var f *refreshFixture
		for _, c := range []struct {
			settled int
			retired bool
		}{{0, false}, {10000, false}, {10000, true}} {
			b.Run(fmt.Sprintf("%s/live=%d/settled=%d/retired=%v", st.name, refreshLive, c.settled, c.retired), func(sb *testing.B) {
				if f == nil {
					f = newRefreshFixture(b, st.open(b))
				}
				f.grow(sb, c.settled)
				ctx := context.Background()
				if c.retired {
					// What the dispatcher's prune does every 10 minutes.
					if _, err := f.st.(store.Webhooks).RetireSubscriptions(ctx, []string{"QUEUED", "RUNNING", "SUSPENDED"}); err != nil {
						sb.Fatal(err)
					}
				}
				sb.ResetTimer()
				for sb.Loop() {
					if err := f.subs.Refresh(ctx); err != nil {
						sb.Fatal(err)
					}
				}
			})
		}
	}
}

// openPostgres opens a store on a throwaway PostgreSQL.
func openPostgres(b *testing.B) store.Store {
	dsn := pgtest.Start(b).NewDatabase(b)
	db, err := postgres.Open(context.Background(), dsn, postgres.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = db.Close() })
	return db
}

// refreshFixture is a store with push configs, and a copy of it.
type refreshFixture struct {
	st      store.Store
	mgr     *webhook.Manager
	subs    *webhook.Subscriptions
	settled int
}

func newRefreshFixture(b *testing.B, st store.Store) *refreshFixture {
	network, err := netpolicy.Parse([]string{"127.0.0.0/8"})
	if err != nil {
		b.Fatal(err)
	}
	w := st.(store.Webhooks)
	// The fixture's Manager refreshes a copy of its own after each
	// SetPush, one that reads nothing (before push configs named their
	// Run, each of those refreshes read every config).
	mgr := webhook.NewManager(w, webhook.NewSubscriptions(unlisted{w}), network, clock.Real{})
	f := &refreshFixture{st: st, subs: webhook.NewSubscriptions(w), mgr: mgr}
	f.add(b, "run_live", 0, refreshLive, false)
	return f
}

// unlisted is a store whose ListSubscriptions lists nothing.
type unlisted struct{ store.Webhooks }

func (unlisted) ListSubscriptions(context.Context, string) ([]store.WebhookSubscription, error) {
	return nil, nil
}

// grow adds settled Runs with a push config each until there are n.
func (f *refreshFixture) grow(b *testing.B, n int) {
	if n > f.settled {
		f.add(b, "run_done", f.settled, n, true)
		f.settled = n
	}
}

// add creates Runs prefix+i for i in [from, to), settled or QUEUED, each
// with one push config, 16 at a time.
func (f *refreshFixture) add(b *testing.B, prefix string, from, to int, settled bool) {
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for w := range 16 {
		wg.Go(func() {
			for i := from + w; i < to; i += 16 {
				if err := f.addRun(ctx, fmt.Sprintf("%s%06d", prefix, i), settled); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
}

func (f *refreshFixture) addRun(ctx context.Context, id string, settled bool) error {
	now := time.Now().UTC()
	nr := store.NewRun{
		Run: store.Run{Tenant: store.DefaultTenant, RunID: id, Spec: "s", Version: "v1", RootRunID: id, CreateTime: now, UpdateTime: now,
			Index: store.Index{State: "QUEUED", Summary: []byte(`{}`)}},
		Records: []store.Record{{Seq: 1, Time: now, Kind: "admitted", Body: []byte(`{}`)}},
	}
	if settled {
		nr.Index = store.Index{State: "COMPLETED", Summary: []byte(`{}`), Settled: true}
		nr.Records = append(nr.Records, store.Record{Seq: 2, Time: now, Kind: "settled", Body: []byte(`{}`)})
		nr.Ends = true
	}
	if _, _, err := f.st.CreateRun(ctx, nr); err != nil {
		return err
	}
	return f.mgr.SetPush(ctx, store.DefaultTenant, "http://127.0.0.1:9/hook", webhook.Push{RunID: id, ConfigID: "final", Token: "tok"})
}

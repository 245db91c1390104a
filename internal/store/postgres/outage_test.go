package postgres_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/postgres"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
)

// TestOutageAndRecovery stops PostgreSQL under a DB: every call fails fast
// with *errs.StoreUnavailable (or the caller's own context error), and
// once the server is back the same DB works again, its listener included.
func TestOutageAndRecovery(t *testing.T) {
	t.Parallel()
	cluster := pgtest.Start(t)
	// Checks of the idle listener every 20ms: they must not disturb it.
	db := open(t, cluster.DSN(), postgres.Options{ListenCheckInterval: 20 * time.Millisecond})
	replica := open(t, cluster.DSN())
	const tenant = store.DefaultTenant
	t0 := time.Now().UTC()
	run := store.NewRun{
		Run: store.Run{Tenant: tenant, RunID: "run_a", Spec: "s", Version: "v1", RootRunID: "run_a", CreateTime: t0,
			Index: store.Index{State: "QUEUED", Runnable: true}},
		Records: []store.Record{{Seq: 1, Time: t0, Kind: "admitted", Body: []byte(`{}`)}},
	}
	if _, _, err := db.CreateRun(context.Background(), run); err != nil {
		t.Fatal(err)
	}
	runSub := db.Notifier().Subscribe(store.RunTopic(tenant, "run_a"))
	defer runSub.Close()
	memSub := db.Notifier().Subscribe(store.MemoryTopic(tenant, "ns"))
	defer memSub.Close()

	// While idle the listener pings its connection; were a check to cost
	// a reconnection, its catch-up would signal this quiet topic.
	quiet := db.Notifier().Subscribe(store.MemoryTopic(tenant, "quiet"))
	defer quiet.Close()
	select {
	case <-quiet.C():
		t.Fatal("a topic nobody wrote to was signalled while the listener was idle")
	case <-time.After(500 * time.Millisecond):
	}
	if _, err := replica.SetValue(context.Background(), tenant, "ns", "k", []byte(`0`), t0); err != nil {
		t.Fatal(err)
	}
	wait(t, "memory change from the other replica, after idle checks", memSub)

	cluster.Stop(t)
	drain(runSub, memSub)
	failWhileDown(t, outageCalls(db, t0))

	cluster.Start(t)
	// The listener reconnects, then signals every subscriber: changes made
	// while it was away cannot be told apart, so all must look again.
	wait(t, "catch-up after the listener reconnected", runSub)
	drain(memSub)

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := db.GetRun(ctx, tenant, "run_a"); err != nil {
		t.Errorf("GetRun after recovery: %v", err)
	}
	if err := appendRecord(db, t0, 2)(ctx); err != nil {
		t.Errorf("Append after recovery: %v", err)
	}
	if l, err := db.Claim(ctx, "w1", t0, time.Minute, 1); err != nil || len(l) != 1 || l[0].RunID != "run_a" {
		t.Errorf("Claim after recovery: %+v, %v", l, err)
	}
	// Another replica's write reaches this DB's subscribers through the
	// listener's new connection.
	if _, err := replica.SetValue(ctx, tenant, "ns", "k", []byte(`2`), t0); err != nil {
		t.Fatalf("SetValue on the other replica: %v", err)
	}
	wait(t, "memory change from the other replica", memSub)
}

// outageCall is one DB method TestOutageAndRecovery calls while
// PostgreSQL is down.
type outageCall struct {
	name string
	call func(ctx context.Context) error
}

// appendRecord appends a record with seq to run_a in db, at t0 plus seq
// nanoseconds, keeping the Run runnable.
func appendRecord(db *postgres.DB, t0 time.Time, seq int64) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		return db.Append(ctx, store.Append{Tenant: store.DefaultTenant, RunID: "run_a", Index: store.Index{State: "RUNNING", Runnable: true},
			Records: []store.Record{{Seq: seq, Time: t0.Add(time.Duration(seq)), Kind: "x", Body: []byte(`{}`)}}})
	}
}

// outageCalls are the calls on db, whose run_a was created at t0, that
// must fail fast while PostgreSQL is down.
func outageCalls(db *postgres.DB, t0 time.Time) []outageCall {
	const tenant = store.DefaultTenant
	return []outageCall{
		{"GetRun", func(ctx context.Context) error {
			_, err := db.GetRun(ctx, tenant, "run_a")
			return err
		}},
		{"Append", appendRecord(db, t0, 2)},
		{"Claim", func(ctx context.Context) error {
			_, err := db.Claim(ctx, "w1", t0, time.Minute, 1)
			return err
		}},
		{"ReadLog", func(ctx context.Context) error {
			_, err := db.ReadLog(ctx, tenant, "run_a", 1, 0)
			return err
		}},
		{"SetValue", func(ctx context.Context) error {
			_, err := db.SetValue(ctx, tenant, "ns", "k", []byte(`1`), t0)
			return err
		}},
	}
}

// failWhileDown checks, with PostgreSQL stopped, that each call fails with
// *errs.StoreUnavailable within its context's time, and with the caller's
// own error when its context has already ended.
func failWhileDown(t *testing.T, calls []outageCall) {
	for _, c := range calls {
		t.Run("down/"+c.name, func(t *testing.T) {
			const wait = 5 * time.Second
			ctx, cancel := context.WithTimeout(context.Background(), wait)
			defer cancel()
			start := time.Now()
			err := c.call(ctx)
			var unavailable *errs.StoreUnavailable
			if !errors.As(err, &unavailable) {
				t.Errorf("%s while the store is down: %v, want *errs.StoreUnavailable", c.name, err)
			}
			if took := time.Since(start); took >= wait {
				t.Errorf("%s took %v, past its context", c.name, took)
			}
		})
		t.Run("down, context ended/"+c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			if err := c.call(ctx); !errors.Is(err, context.Canceled) {
				t.Errorf("%s with a cancelled context: %v, want context.Canceled", c.name, err)
			}
		})
	}
}

func wait(t *testing.T, what string, sub store.Subscription) {
	t.Helper()
	select {
	case <-sub.C():
	case <-time.After(15 * time.Second):
		t.Fatalf("no signal: %s", what)
	}
}

// drain discards pending signals.
func drain(subs ...store.Subscription) {
	for _, s := range subs {
		select {
		case <-s.C():
		default:
		}
	}
}

var _ store.Store = (*postgres.DB)(nil)

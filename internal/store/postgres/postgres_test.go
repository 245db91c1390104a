package postgres_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/postgres"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
	"github.com/runsvc/runsvc/internal/store/storetest"
)

// TestConformance runs the store suite with an empty database per subtest,
// all in one cluster.
func TestConformance(t *testing.T) {
	t.Parallel()
	cluster := pgtest.Start(t)
	storetest.Run(t, func(t *testing.T) store.Store {
		return open(t, cluster.NewDatabase(t))
	})
}

// TestObserved: every operation reports itself once to Options.Observe.
func TestObserved(t *testing.T) {
	t.Parallel()
	cluster := pgtest.Start(t)
	storetest.RunObserved(t, func(t *testing.T, observe store.Observer) store.Store {
		return open(t, cluster.NewDatabase(t), postgres.Options{Observe: observe})
	})
}

// open opens a DB that t closes when it ends, with opts if given.
func open(t *testing.T, dsn string, opts ...postgres.Options) *postgres.DB {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var o postgres.Options
	if len(opts) > 0 {
		o = opts[0]
	}
	o.Logger = discard
	db, err := postgres.Open(ctx, dsn, o)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// discard drops the listener's reports of connection losses the tests cause.
var discard = slog.New(slog.NewTextHandler(io.Discard, nil))

// Package postgres is the shared store: several runsvc replicas use one
// PostgreSQL database, and leases make them cooperate.
//
// Appends are conditional on seq through the records table's primary key
// and on the writer's lease, checked under the Run's row lock in the same
// transaction. Claims take Runs with FOR UPDATE SKIP LOCKED, so no Run is
// ever leased twice. Every write signals its topics to this process's hub
// once it committed, and a notifier sends them on, batched, with
// pg_notify; one dedicated connection per DB LISTENs and feeds the hub
// what the other replicas send, so subscribers in every replica hear of
// every commit.
//
// Schema migrations are embedded and applied by Open under an advisory
// lock. While PostgreSQL cannot be reached every method returns
// *errs.StoreUnavailable; the DB recovers by itself when it comes back.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/ids"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/notify"
)

// Defaults for Options.
const (
	DefaultMaxConns            = 16
	DefaultConnectTimeout      = 10 * time.Second
	DefaultListenCheckInterval = 15 * time.Second
)

// Options tune the store. The zero value is usable.
type Options struct {
	// MaxConns bounds the connection pool, overriding any pool_max_conns
	// in the DSN; DefaultMaxConns when zero. The notification listener
	// and, while Open runs, the migration take one more connection each.
	MaxConns int32
	// ConnectTimeout bounds each attempt to connect when the DSN sets no
	// connect_timeout; DefaultConnectTimeout when zero.
	ConnectTimeout time.Duration
	// ListenCheckInterval is how long the notification listener waits
	// without a notification before it pings its connection, to notice
	// one that died silently (say, dropped by a firewall);
	// DefaultListenCheckInterval when zero.
	ListenCheckInterval time.Duration
	// Logger receives the listener's connection losses and recoveries;
	// slog.Default() when nil.
	Logger *slog.Logger
	// Observe, when set, hears of every operation (store.Observer).
	Observe store.Observer
}

// DB is a Store on a PostgreSQL database. It is safe for concurrent use;
// Close it when done.
type DB struct {
	pool     *pgxpool.Pool
	hub      *notify.Hub
	listener *listener
	notifier *notifier
	obs      store.Observer
}

var _ store.Store = (*DB)(nil)

// Open connects to the database at dsn (a postgres:// URL or a key=value
// connection string), brings its schema up to date, and starts listening
// for the changes other replicas make. It fails with
// *errs.StoreUnavailable when the database cannot be reached (ctx's error
// when ctx ended), *SchemaError when the schema is newer than this runsvc
// or a migration fails, and a plain error when dsn is malformed.
func Open(ctx context.Context, dsn string, opts Options) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("postgres: parsing the connection string: %w", err)
	}
	if opts.MaxConns <= 0 {
		opts.MaxConns = DefaultMaxConns
	}
	if opts.ConnectTimeout <= 0 {
		opts.ConnectTimeout = DefaultConnectTimeout
	}
	if opts.ListenCheckInterval <= 0 {
		opts.ListenCheckInterval = DefaultListenCheckInterval
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	cfg.MaxConns = opts.MaxConns
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = opts.ConnectTimeout
	}
	if err := migrate(ctx, cfg.ConnConfig); err != nil {
		if se := (*SchemaError)(nil); errors.As(err, &se) {
			return nil, err
		}
		return nil, unavailable(ctx, "open", err)
	}
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: creating the connection pool: %w", err)
	}
	// When the listener loses its connection the server most likely went
	// away, taking the pooled connections with it: drop them all, so that
	// once it is back no caller is handed one that died meanwhile.
	hub := notify.NewHub()
	instance := ids.New("proc", time.Now())
	l := newListener(instance, cfg.ConnConfig, hub, opts.Logger, opts.ListenCheckInterval, pool.Reset)
	if err := l.start(ctx); err != nil {
		pool.Close()
		return nil, unavailable(ctx, "open", err)
	}
	return &DB{pool: pool, hub: hub, listener: l, notifier: startNotifier(instance, pool, hub, opts.Logger), obs: opts.Observe}, nil
}

// Notifier returns the hub that the listener feeds with every replica's
// changes. Its dynamic type is *notify.Hub.
func (db *DB) Notifier() store.Notifier { return db.hub }

// Close stops the listener and closes every connection. Calls after the
// first do nothing; methods called after Close return
// *errs.StoreUnavailable.
func (db *DB) Close() error {
	db.notifier.stop()
	db.listener.stop()
	db.pool.Close()
	return nil
}

// txn is a write transaction that collects the topics its changes
// signal; they are announced once it committed.
type txn struct {
	pgx.Tx
	topics []string
}

// notify signals topics when the transaction commits.
func (t *txn) notify(topics ...string) { t.topics = append(t.topics, topics...) }

// inTx runs fn in a transaction, commits it and announces its topics. fn
// returns typed errors as they are and driver errors raw; inTx turns the
// latter into *errs.StoreUnavailable for op.
func (db *DB) inTx(ctx context.Context, op string, fn func(tx *txn) error) error {
	tx, err := db.pool.Begin(ctx)
	if err != nil {
		return unavailable(ctx, op, err)
	}
	t := &txn{Tx: tx}
	if err := fn(t); err != nil {
		_ = tx.Rollback(ctx)
		return unavailable(ctx, op, err)
	}
	if err := tx.Commit(ctx); err != nil {
		return unavailable(ctx, op, err)
	}
	db.announce(t.topics...)
	return nil
}

// announce signals topics to this process's subscribers at once and to
// the other replicas through the notifier.
func (db *DB) announce(topics ...string) {
	if len(topics) == 0 {
		return
	}
	db.hub.Publish(topics...)
	db.notifier.send(topics)
}

// announceRun is announce for a write that left a Run as run: this
// process's subscribers get the row with their signal.
func (db *DB) announceRun(run store.Run, topics ...string) {
	db.hub.PublishRun(run, topics...)
	db.notifier.send(topics)
}

// channel is the one LISTEN/NOTIFY channel; payloads are topics.
const channel = "runsvc"

// unavailable maps a driver error to *errs.StoreUnavailable: typed errors
// and the store's own answers (store.ErrConditionFailed) pass through,
// and when ctx itself ended its error is returned instead,
// so that the caller's own cancellation or deadline is never mistaken for
// an outage (nor an internal timeout for the caller's).
func unavailable(ctx context.Context, op string, err error) error {
	if err == nil {
		return nil
	}
	if errs.Typed(err) != nil || errors.Is(err, store.ErrConditionFailed) {
		return err
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		return ctxErr
	}
	return &errs.StoreUnavailable{Operation: op, Cause: err}
}

// isUniqueViolation reports a duplicate key.
func isUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23505"
}

// bytesOrEmpty keeps NOT NULL byte columns from receiving a nil slice,
// which pgx sends as NULL.
func bytesOrEmpty(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// Package sqlite is the embedded store: one SQLite file in WAL mode, pure
// Go (modernc.org/sqlite), synchronous=FULL so a committed write survives
// a crash of the process or the machine.
//
// Writes go through one goroutine that commits whatever is waiting in one
// transaction (group commit), each write in its own savepoint so that one
// failing write does not undo the others. Reads use a pool of connections.
package sqlite

import (
	"context"
	"database/sql"
	_ "embed"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/notify"
)

//go:embed schema.sql
var schemaV1 string

//go:embed toolcalls.sql
var schemaV2 string

//go:embed observability.sql
var schemaV3 string

//go:embed threads.sql
var schemaV4 string

//go:embed lists.sql
var schemaV5 string

//go:embed history.sql
var schemaV6 string

//go:embed schedules.sql
var schemaV7 string

//go:embed webhooks.sql
var schemaV8 string

//go:embed fairness.sql
var schemaV9 string

//go:embed concurrency.sql
var schemaV10 string

//go:embed aliases.sql
var schemaV11 string

//go:embed evaluations.sql
var schemaV12 string

//go:embed pushruns.sql
var schemaV13 string

// migrations are applied in order; PRAGMA user_version records how many
// ran. Never edit one that shipped: append another.
var migrations = []string{schemaV1, schemaV2, schemaV3, schemaV4, schemaV5, schemaV6, schemaV7, schemaV8, schemaV9, schemaV10, schemaV11, schemaV12, schemaV13}

// DB is a Store on one SQLite file.
type DB struct {
	read   *sql.DB
	write  *sql.DB
	reads  *stmtCache
	cache  *runCache
	newest newestSpecs
	wstmts *stmtCache
	hub    *notify.Hub
	writes chan *pendingWrite
	maint  chan *maintenance
	stop   chan struct{}
	done   chan struct{}
	once   sync.Once
	obs    store.Observer
}

var _ store.Store = (*DB)(nil)

// Options tune the store.
type Options struct {
	// Synchronous is the SQLite synchronous pragma: FULL (default) makes
	// every commit durable against power loss; NORMAL only against a crash
	// of the process.
	Synchronous string
	// MaxBatch bounds how many writes one transaction commits. Default 256.
	MaxBatch int
	// Observe, when set, hears of every operation (store.Observer).
	Observe store.Observer
}

// Open opens (creating if needed) the store in dir/runsvc.db.
func Open(dir string, opts Options) (*DB, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating data directory: %w", err)
	}
	return OpenFile(filepath.Join(dir, "runsvc.db"), opts)
}

// OpenFile opens the store in one file.
func OpenFile(path string, opts Options) (*DB, error) {
	if opts.Synchronous == "" {
		opts.Synchronous = "FULL"
	}
	if opts.MaxBatch <= 0 {
		opts.MaxBatch = 256
	}
	q := url.Values{}
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous("+opts.Synchronous+")")
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "foreign_keys(1)")
	// A deleted Run's bytes are overwritten as they are freed, so that
	// deleting means gone from the file (docs/lifecycle.md).
	q.Add("_pragma", "secure_delete(1)")
	q.Add("_time_format", "sqlite")
	dsn := "file:" + path + "?" + q.Encode()

	writeDB, err := sql.Open("sqlite", dsn+"&_txlock=immediate")
	if err != nil {
		return nil, err
	}
	writeDB.SetMaxOpenConns(1)
	if err := migrate(writeDB); err != nil {
		_ = writeDB.Close()
		return nil, err
	}
	read, err := sql.Open("sqlite", dsn+"&_pragma=query_only(1)")
	if err != nil {
		_ = writeDB.Close()
		return nil, err
	}
	read.SetMaxOpenConns(8)
	read.SetMaxIdleConns(8)
	db := &DB{
		read: read, write: writeDB, hub: notify.NewHub(),
		reads: &stmtCache{db: read}, wstmts: &stmtCache{db: writeDB}, cache: newRunCache(),
		writes: make(chan *pendingWrite, 1024), maint: make(chan *maintenance), stop: make(chan struct{}), done: make(chan struct{}),
		obs: opts.Observe,
	}
	if err := db.prepareWrites(); err != nil {
		_ = read.Close()
		_ = writeDB.Close()
		return nil, fmt.Errorf("preparing statements: %w", err)
	}
	go db.writer(opts.MaxBatch)
	return db, nil
}

func migrate(db *sql.DB) error {
	var version int
	if err := db.QueryRow("PRAGMA user_version").Scan(&version); err != nil {
		return fmt.Errorf("reading schema version: %w", err)
	}
	if version > len(migrations) {
		return fmt.Errorf("the database has schema version %d, newer than this runsvc knows (%d)", version, len(migrations))
	}
	for i := version; i < len(migrations); i++ {
		tx, err := db.Begin()
		if err != nil {
			return err
		}
		if _, err := tx.Exec(migrations[i]); err != nil {
			_ = tx.Rollback()
			return fmt.Errorf("migration %d: %w", i+1, err)
		}
		if _, err := tx.Exec(fmt.Sprintf("PRAGMA user_version = %d", i+1)); err != nil {
			_ = tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
	}
	return nil
}

// Notifier returns the in-process notifier; one process owns the file.
func (db *DB) Notifier() store.Notifier { return db.hub }

// Close stops the writer and closes the file.
func (db *DB) Close() error {
	db.once.Do(func() { close(db.stop) })
	<-db.done
	return errors.Join(db.read.Close(), db.write.Close())
}

// pendingWrite is one unit of work for the writer goroutine.
type pendingWrite struct {
	op     string
	fn     func(tx *sql.Tx) error
	after  func()
	topics []string
	err    chan error
}

// exec runs fn in the next group commit and waits for the commit. topics
// are published once it is durable.
func (db *DB) exec(ctx context.Context, op string, fn func(tx *sql.Tx) error, topics ...string) error {
	return db.execThen(ctx, op, fn, nil, topics...)
}

// execThen is exec with after, run in the writer once the write committed
// (to update the run cache in commit order).
func (db *DB) execThen(ctx context.Context, op string, fn func(tx *sql.Tx) error, after func(), topics ...string) error {
	w := &pendingWrite{op: op, fn: fn, after: after, topics: topics, err: make(chan error, 1)}
	select {
	case db.writes <- w:
	case <-ctx.Done():
		return ctx.Err()
	case <-db.stop:
		return &errs.StoreUnavailable{Operation: op, Cause: errors.New("store closed")}
	}
	// Once handed over, the write commits or fails on its own; wait for
	// the outcome so the caller never takes a committed write for a failed
	// one (fn may also still be filling the caller's results). A write
	// queued as the store closed may never be taken: the writer answers
	// every write it took before it is done.
	select {
	case err := <-w.err:
		return err
	case <-db.done:
		select {
		case err := <-w.err:
			return err
		default:
			return &errs.StoreUnavailable{Operation: op, Cause: errors.New("store closed")}
		}
	}
}

func (db *DB) writer(maxBatch int) {
	defer close(db.done)
	batch := make([]*pendingWrite, 0, maxBatch)
	for {
		batch = batch[:0]
		select {
		case w := <-db.writes:
			batch = append(batch, w)
		case m := <-db.maint:
			m.err <- m.fn(db.write)
			continue
		case <-db.stop:
			return
		}
	drain:
		for len(batch) < maxBatch {
			select {
			case w := <-db.writes:
				batch = append(batch, w)
			default:
				break drain
			}
		}
		db.commit(batch)
	}
}

// The statements that fence one write of a batch off the others.
const (
	savepointSQL  = `SAVEPOINT w`
	rollbackToSQL = `ROLLBACK TO w`
	releaseSQL    = `RELEASE w`
)

// commit runs a batch in one transaction, each write in a savepoint of its
// own, and commits it. A batch of one needs no savepoint: when its write
// fails the transaction rolls back.
func (db *DB) commit(batch []*pendingWrite) {
	results := make([]error, len(batch))
	tx, err := db.write.Begin()
	if err != nil {
		for _, w := range batch {
			w.err <- unavailable(w.op, err)
		}
		return
	}
	if len(batch) == 1 {
		if err := batch[0].fn(tx); err != nil {
			_ = tx.Rollback()
			batch[0].err <- err
			return
		}
	} else {
		for i, w := range batch {
			results[i] = db.fenced(tx, w)
		}
	}
	if err := tx.Commit(); err != nil {
		for _, w := range batch {
			w.err <- unavailable(w.op, err)
		}
		return
	}
	for i, w := range batch {
		if results[i] == nil {
			if w.after != nil {
				w.after()
			}
			db.hub.Publish(w.topics...)
		}
		w.err <- results[i]
	}
}

// fenced runs w in a savepoint, rolled back if w fails.
func (db *DB) fenced(tx *sql.Tx, w *pendingWrite) error {
	exec := func(q string) error {
		s, err := db.txStmt(tx, q)
		if err == nil {
			_, err = s.Exec()
		}
		return err
	}
	if err := exec(savepointSQL); err != nil {
		return unavailable(w.op, err)
	}
	result := w.fn(tx)
	if result != nil {
		if err := exec(rollbackToSQL); err != nil {
			result = unavailable(w.op, err)
		}
	}
	if err := exec(releaseSQL); err != nil && result == nil {
		result = unavailable(w.op, err)
	}
	return result
}

// unavailable wraps a driver error; typed errors pass through.
func unavailable(op string, err error) error {
	if err == nil {
		return nil
	}
	if errs.Typed(err) != nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return &errs.StoreUnavailable{Operation: op, Cause: err}
}

func isConstraint(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_CONSTRAINT
}

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?,", n), ",")
}

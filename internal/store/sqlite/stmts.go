package sqlite

import (
	"context"
	"database/sql"
	"sync"
)

// stmtCache prepares each query text once per database handle; SQLite
// then skips parsing it again (database/sql keeps the statement prepared
// on every connection that ran it).
type stmtCache struct {
	db *sql.DB
	m  sync.Map // query -> *sql.Stmt
}

func (c *stmtCache) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if s, ok := c.m.Load(query); ok {
		return s.(*sql.Stmt), nil
	}
	s, err := c.db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if prev, loaded := c.m.LoadOrStore(query, s); loaded {
		_ = s.Close()
		return prev.(*sql.Stmt), nil
	}
	return s, nil
}

// queryRow runs a cached read that returns one row.
func (db *DB) queryRow(ctx context.Context, query string, args ...any) *sql.Row {
	s, err := db.reads.stmt(ctx, query)
	if err != nil {
		return db.read.QueryRowContext(ctx, query, args...)
	}
	return s.QueryRowContext(ctx, args...)
}

// query runs a cached read that returns rows.
func (db *DB) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	s, err := db.reads.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return s.QueryContext(ctx, args...)
}

// txStmt returns a write statement bound to the writer's transaction:
// prepared once at Open for the hot writes (the writer's one connection is
// busy inside a transaction, so nothing new can be prepared on it then),
// prepared in the transaction otherwise.
func (db *DB) txStmt(tx *sql.Tx, query string) (*sql.Stmt, error) {
	if s, ok := db.wstmts.m.Load(query); ok {
		return tx.Stmt(s.(*sql.Stmt)), nil
	}
	return tx.Prepare(query)
}

// hotWrites are prepared on the writer connection when the store opens.
var hotWrites = []string{
	savepointSQL, rollbackToSQL, releaseSQL,
	insertRecordSQL, runHeadSQL, insertRunSQL, runByRequestSQL,
	appendUpdateSQL(false), appendUpdateSQL(true),
	claimSQL(claimRunnable), claimSQL(claimWaking),
	deleteRunSQL, deleteRecordsSQL, deleteCallsSQL, unlinkChildrenSQL, deleteRunSubscriptionsSQL,
	putHistorySQL, deleteHistorySQL, countDeletionSQL,
}

func (db *DB) prepareWrites() error {
	for _, q := range hotWrites {
		if _, err := db.wstmts.stmt(context.Background(), q); err != nil {
			return err
		}
	}
	return nil
}

package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// migrationFiles are the schema's versions, NNNN_description.sql, applied
// in order. Never edit one that shipped: add the next.
//
//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrationLock is the pg_advisory_lock key that serialises migrations of
// one database, so that replicas starting together do not race.
const migrationLock int64 = 0x72756e737663 // "runsvc"

type migration struct {
	version int
	name    string
	sql     string
}

// SchemaError is a database whose schema this runsvc cannot use: newer than
// the migrations it embeds, or a migration that failed. Open returns it
// as is, since retrying will not help.
type SchemaError struct {
	// Detail says what is wrong, for an operator.
	Detail string
	// Cause is the underlying error, if any.
	Cause error
}

// Error says what is wrong with the schema.
func (e *SchemaError) Error() string {
	if e.Cause != nil {
		return "postgres schema: " + e.Detail + ": " + e.Cause.Error()
	}
	return "postgres schema: " + e.Detail
}

// Unwrap returns the underlying error.
func (e *SchemaError) Unwrap() error { return e.Cause }

// loadMigrations reads the embedded migrations, whose versions must run
// 1, 2, 3... without gaps.
func loadMigrations() ([]migration, error) {
	names, err := fs.Glob(migrationFiles, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, name := range names {
		base := path.Base(name)
		prefix, _, ok := strings.Cut(base, "_")
		version, err := strconv.Atoi(prefix)
		if !ok || err != nil || version <= 0 {
			return nil, &SchemaError{Detail: "migration file " + base + " is not named NNNN_description.sql"}
		}
		body, err := migrationFiles.ReadFile(name)
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: version, name: base, sql: string(body)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	for i, m := range out {
		if m.version != i+1 {
			return nil, &SchemaError{Detail: fmt.Sprintf("migration %s should be version %d", m.name, i+1)}
		}
	}
	return out, nil
}

// migrate applies the migrations the database lacks, each in its own
// transaction recorded in schema_migrations, holding the migration lock on
// a connection of its own so that the lock ends with it whatever happens.
func migrate(ctx context.Context, cfg *pgx.ConnConfig) error {
	migrations, err := loadMigrations()
	if err != nil {
		return err
	}
	conn, err := pgx.ConnectConfig(ctx, cfg.Copy())
	if err != nil {
		return err
	}
	defer func() { _ = conn.Close(context.WithoutCancel(ctx)) }()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, migrationLock); err != nil {
		return err
	}
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    INTEGER     PRIMARY KEY,
		name       TEXT        NOT NULL,
		applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`); err != nil {
		return err
	}
	var current int
	if err := conn.QueryRow(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&current); err != nil {
		return err
	}
	if current > len(migrations) {
		return &SchemaError{Detail: fmt.Sprintf("the database has schema version %d, newer than this runsvc knows (%d)", current, len(migrations))}
	}
	for _, m := range migrations[current:] {
		if err := apply(ctx, conn, m); err != nil {
			return err
		}
	}
	_, err = conn.Exec(ctx, `SELECT pg_advisory_unlock($1)`, migrationLock)
	return err
}

func apply(ctx context.Context, conn *pgx.Conn, m migration) error {
	tx, err := conn.Begin(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback(ctx) }()
	if _, err := tx.Exec(ctx, m.sql); err != nil {
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) {
			return &SchemaError{Detail: "applying migration " + m.name, Cause: err}
		}
		return err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name) VALUES ($1, $2)`, m.version, m.name); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

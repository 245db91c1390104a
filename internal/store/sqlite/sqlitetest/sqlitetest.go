// Package sqlitetest opens the tests' fast store: the sqlite adapter in
// memory (sqlite.OpenMemory), closed when the test ends.
package sqlitetest

import (
	"testing"

	"github.com/runsvc/runsvc/internal/store/sqlite"
)

// Open returns an empty in-memory store, closed when tb ends; it fails tb
// when the store cannot open.
func Open(tb testing.TB) *sqlite.DB {
	tb.Helper()
	db, err := sqlite.OpenMemory(sqlite.Options{})
	if err != nil {
		tb.Fatalf("opening the in-memory store: %v", err)
	}
	tb.Cleanup(func() { _ = db.Close() })
	return db
}

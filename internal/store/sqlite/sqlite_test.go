package sqlite_test

import (
	"testing"

	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/sqlite"
	"github.com/runsvc/runsvc/internal/store/storetest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		db, err := sqlite.Open(t.TempDir(), sqlite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = db.Close() })
		return db
	})
}

// TestObserved: every operation reports itself once to Options.Observe.
func TestObserved(t *testing.T) {
	storetest.RunObserved(t, func(t *testing.T, observe store.Observer) store.Store {
		db, err := sqlite.Open(t.TempDir(), sqlite.Options{Observe: observe})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = db.Close() })
		return db
	})
}

package sqlite_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/sqlite"
)

// TestWritesAfterClose: every write after Close is STORE_UNAVAILABLE and
// returns; none waits for a writer that is gone (a write queued as the
// store closed used to wait forever).
func TestWritesAfterClose(t *testing.T) {
	db, err := sqlite.Open(t.TempDir(), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		for range 200 {
			_, err := db.SetValue(context.Background(), store.DefaultTenant, "ns", "k", []byte(`1`), time.Now())
			var down *errs.StoreUnavailable
			if !errors.As(err, &down) {
				done <- errors.Join(errors.New("a write after Close did not fail STORE_UNAVAILABLE"), err)
				return
			}
		}
		done <- nil
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("a write after Close never returned")
	}
}

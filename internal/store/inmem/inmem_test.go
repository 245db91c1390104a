package inmem_test

import (
	"testing"

	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/inmem"
	"github.com/runsvc/runsvc/internal/store/storetest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		db := inmem.New()
		t.Cleanup(func() { _ = db.Close() })
		return db
	})
}

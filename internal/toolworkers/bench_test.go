package toolworkers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/postgres"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
	"github.com/runsvc/runsvc/internal/tool"
	"github.com/runsvc/runsvc/internal/toolworkers"
)

// answer delivers {"ok":true} for every call w gets, until w disconnects.
func answer(h *toolworkers.Hub, w *toolworkers.Worker) {
	for {
		select {
		case m := <-w.Outbox():
			if m.Call != nil {
				h.Deliver(w, m.Call.ID, json.RawMessage(`{"ok":true}`), nil)
			}
		case <-w.Done():
			return
		}
	}
}

// BenchmarkExecute measures one worker tool call end to end, with the
// worker connected to the calling Hub and, routed through a shared store,
// to another replica's Hub. On PostgreSQL each replica has its own pool
// and LISTEN connection, as separate processes would.
func BenchmarkExecute(b *testing.B) {
	stores := func(b *testing.B, sqliteStore bool) (store.Store, store.Store) {
		if sqliteStore {
			st := openStore(b)
			return st, st
		}
		dsn := pgtest.Start(b).DSN()
		open := func() store.Store {
			db, err := postgres.Open(context.Background(), dsn, postgres.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { _ = db.Close() })
			return db
		}
		return open(), open()
	}
	tests := []struct {
		name   string
		sqlite bool
		routed bool
	}{
		{"local", true, false},
		{"routed/sqlite", true, true},
		{"routed/postgres", false, true},
	}
	for _, tt := range tests {
		b.Run(tt.name, func(b *testing.B) {
			servingStore, callingStore := stores(b, tt.sqlite)
			serving, calling := startHub(b, servingStore, "replica-a"), startHub(b, callingStore, "replica-b")
			if !tt.routed {
				calling = serving
			}
			w := serving.Connect(tenant, "adder", defs("add"), 0)
			defer serving.Disconnect(w)
			go answer(serving, w)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			for ok := false; !ok; {
				var err error
				if ok, err = calling.ServesAnywhere(ctx, tenant, "add"); err != nil {
					b.Fatal(err)
				}
				time.Sleep(5 * time.Millisecond)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				c := tool.Call{Tenant: tenant, RunID: "run_1", CallID: fmt.Sprintf("c%d", i), Name: "add", Arguments: json.RawMessage(`{"n":1}`)}
				if _, err := calling.Execute(ctx, c); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

package sqlite_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/sqlite"
)

// Every append to a Run's log is conditional on its seq: of two writers
// that read the same log, one wins and the other gets SeqConflict.
func Example() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "runsvc-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	db, err := sqlite.Open(dir, sqlite.Options{})
	if err != nil {
		panic(err)
	}
	defer db.Close()
	at := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	rec := func(seq int64, kind string) store.Record {
		return store.Record{Seq: seq, Time: at, Kind: kind, Body: []byte(`{}`)}
	}
	_, created, _ := db.CreateRun(ctx, store.NewRun{
		Run:     store.Run{Tenant: "default", RunID: "run_1", Spec: "s", CreateTime: at, Index: store.Index{State: "QUEUED", Runnable: true}},
		Records: []store.Record{rec(1, "admitted")},
	})
	fmt.Println("created:", created)
	first := db.Append(ctx, store.Append{Tenant: "default", RunID: "run_1", Records: []store.Record{rec(2, "message_queued")}})
	second := db.Append(ctx, store.Append{Tenant: "default", RunID: "run_1", Records: []store.Record{rec(2, "abort_requested")}})
	var conflict *errs.SeqConflict
	fmt.Println("first:", first, "second conflicts:", errors.As(second, &conflict))
	log, _ := db.ReadLog(ctx, "default", "run_1", 1, 0)
	for _, r := range log {
		fmt.Println(r.Seq, r.Kind)
	}
	// Output:
	// created: true
	// first: <nil> second conflicts: true
	// 1 admitted
	// 2 message_queued
}

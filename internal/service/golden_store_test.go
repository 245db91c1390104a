package service

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/postgres"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
	"github.com/runsvc/runsvc/internal/store/sqlite"
)

// TestGoldenCorpusThroughTheStores stores each corpus's rows through every
// adapter and reads them back through it: what the adapters hand back
// reads exactly as the corpus did.
func TestGoldenCorpusThroughTheStores(t *testing.T) {
	errs.SetFailureEncoder(errdetails.StoredFailure)
	s := &Service{mapper: errdetails.New(errdetails.Options{})}
	adapters := []struct {
		name string
		open func(t *testing.T) store.Store
	}{
		{"sqlite", func(t *testing.T) store.Store {
			db, err := sqlite.Open(t.TempDir(), sqlite.Options{Synchronous: "OFF"})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = db.Close() })
			return db
		}},
		{"postgres", func(t *testing.T) store.Store {
			db, err := postgres.Open(context.Background(), pgtest.Start(t).DSN(), postgres.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = db.Close() })
			return db
		}},
	}
	dirs, err := filepath.Glob(filepath.Join("..", "..", "testdata", "golden", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no golden corpus: %v", err)
	}
	for _, a := range adapters {
		t.Run(a.name, func(t *testing.T) {
			st := a.open(t)
			for _, dir := range dirs {
				t.Run(filepath.Base(dir), func(t *testing.T) {
					recs, runRows := storeAndRead(t, st, readRows(t, filepath.Join(dir, "records.json")), readRows(t, filepath.Join(dir, "runs.json")))
					want, err := os.ReadFile(filepath.Join(dir, "expected.json"))
					if err != nil {
						t.Fatal(err)
					}
					if got := s.readCorpusRows(t, recs, runRows, false); !bytes.Equal(got, want) {
						t.Errorf("read back through %s, %s reads differently:\n%s", a.name, dir, firstDiff(got, want))
					}
				})
			}
		})
	}
}

// storeAndRead writes the rows of each Run through the store port (its
// first record with the Run, the rest appended, the summary as the index)
// and reads them back the same way.
func storeAndRead(t *testing.T, st store.Store, records, runRows []goldenRow) ([]goldenRow, []goldenRow) {
	t.Helper()
	ctx := context.Background()
	rowOf := map[string]goldenRow{}
	for _, r := range runRows {
		rowOf[r.Tenant+"/"+r.RunID] = r
	}
	byRun := map[string][]store.Record{}
	var order []goldenRow
	for _, r := range records {
		key := r.Tenant + "/" + r.RunID
		if byRun[key] == nil {
			order = append(order, r)
		}
		byRun[key] = append(byRun[key], store.Record{Seq: r.Seq, Time: time.Unix(0, r.Time), Attempt: r.Attempt, Kind: r.Kind, Body: []byte(r.Body)})
	}
	var outRecs, outRuns []goldenRow
	for _, first := range order {
		key := first.Tenant + "/" + first.RunID
		recs, row := byRun[key], rowOf[key]
		index := store.Index{State: row.State, Summary: []byte(row.Body)}
		if row.Body == "" {
			index = store.Index{State: "UNKNOWN"}
		}
		if _, _, err := st.CreateRun(ctx, store.NewRun{
			Run:     store.Run{Tenant: first.Tenant, RunID: first.RunID, Spec: "golden", Version: "v", RootRunID: first.RunID, CreateTime: recs[0].Time, Index: index},
			Records: recs[:1],
		}); err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		if err := st.Append(ctx, store.Append{Tenant: first.Tenant, RunID: first.RunID, Records: recs[1:], Index: index}); err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		back, err := st.ReadLog(ctx, first.Tenant, first.RunID, 1, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range back {
			outRecs = append(outRecs, goldenRow{Tenant: first.Tenant, RunID: first.RunID, Seq: r.Seq, Time: r.Time.UnixNano(), Attempt: r.Attempt, Kind: r.Kind, Body: string(r.Body)})
		}
		if row.Body != "" {
			run, err := st.GetRun(ctx, first.Tenant, first.RunID)
			if err != nil {
				t.Fatal(err)
			}
			outRuns = append(outRuns, goldenRow{Tenant: run.Tenant, RunID: run.RunID, State: run.Index.State, Body: string(run.Index.Summary)})
		}
	}
	return outRecs, outRuns
}

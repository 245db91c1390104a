package sqlite

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/store"
)

// TestLastRecords: however Records arrive, the window is the newest ones,
// consecutive, at most recentRecords, and a slice handed out before is
// not changed by the appends after it.
func TestLastRecords(t *testing.T) {
	for _, sizes := range [][]int{{1}, {2, 3, 1, 1, 5}, {40}, {31, 1, 1}, {16, 17}, {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {20, 20, 20}} {
		t.Run(fmt.Sprint(sizes), func(t *testing.T) {
			var window []store.Record
			seq := int64(0)
			for _, n := range sizes {
				var recs []store.Record
				for range n {
					seq++
					recs = append(recs, store.Record{Seq: seq, Time: time.Now(), Kind: fmt.Sprint("k", seq)})
				}
				before := append([]store.Record(nil), window...)
				held := window
				window = lastRecords(window, recs)
				for i := range held {
					if held[i].Seq != before[i].Seq || held[i].Kind != before[i].Kind {
						t.Fatalf("a held window changed at %d", i)
					}
				}
				if len(window) == 0 || len(window) > recentRecords || cap(window) > recentRecords {
					t.Fatalf("window of %d (cap %d)", len(window), cap(window))
				}
				for i, r := range window {
					if want := seq - int64(len(window)-1-i); r.Seq != want || r.Kind != fmt.Sprint("k", want) {
						t.Fatalf("window[%d] is seq %d, want %d", i, r.Seq, want)
					}
				}
				if min(int(seq), recentRecords/2) > len(window) {
					t.Fatalf("window of %d keeps too few of %d", len(window), seq)
				}
			}
		})
	}
}

// TestCacheFollowsSettle: after a Run settles (on no thread, releasing its
// lease) its cached row is the row in the file.
func TestCacheFollowsSettle(t *testing.T) {
	db, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	now := time.Now()
	if _, _, err := db.CreateRun(ctx, store.NewRun{
		Run:     store.Run{Tenant: "t", RunID: "r", Spec: "s", Version: "v", CreateTime: now, Index: store.Index{State: "QUEUED", Runnable: true}},
		Records: []store.Record{{Seq: 1, Time: now, Kind: "admitted", Body: []byte(`{}`)}},
	}); err != nil {
		t.Fatal(err)
	}
	leases, err := db.Claim(ctx, "w", now, time.Minute, 1)
	if err != nil || len(leases) != 1 {
		t.Fatalf("claim: %v %v", leases, err)
	}
	for i, a := range []store.Append{
		{Records: []store.Record{{Seq: 2, Time: now.Add(time.Millisecond), Kind: "attempt_started", Body: []byte(`{}`)}}, Index: store.Index{State: "RUNNING", Runnable: true, Summary: []byte(`{"a":1}`)}},
		{Records: []store.Record{{Seq: 3, Time: now.Add(2 * time.Millisecond), Kind: "settled", Body: []byte(`{}`)}}, Index: store.Index{State: "COMPLETED", Summary: []byte(`{"a":2}`), Settled: true}, Release: true, Ends: true},
	} {
		a.Tenant, a.RunID, a.Lease = "t", "r", leases[0]
		if err := db.Append(ctx, a); err != nil {
			t.Fatal(err)
		}
		cached, ok, _ := db.cache.get("t", "r")
		if !ok {
			t.Fatalf("append %d: the Run is not cached", i)
		}
		stored, err := scanRun(db.queryRow(ctx, `SELECT `+runColumns+` FROM runs WHERE tenant = ? AND run_id = ?`, "t", "r"))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(cached, stored) {
			t.Errorf("append %d: cached %+v\nstored %+v", i, cached, stored)
		}
	}
}

// TestNewestSpecFollowsPuts: the cached newest Version of a name is the
// one a PutSpec just added, never the one before it.
func TestNewestSpecFollowsPuts(t *testing.T) {
	db, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	for i, step := range []struct{ put, want string }{
		{"v1", "v1"}, {"", "v1"}, {"v2", "v2"}, {"v1", "v2"}, {"", "v2"}, {"v3", "v3"},
	} {
		if step.put != "" {
			if _, _, err := db.PutSpec(ctx, store.Spec{Tenant: "t", Name: "s", Version: step.put, Body: []byte(step.put), CreateTime: time.Now()}); err != nil {
				t.Fatal(err)
			}
		}
		for range 2 { // a miss, then the cache
			got, err := db.GetSpec(ctx, "t", "s", "")
			if err != nil || got.Version != step.want || string(got.Body) != step.want {
				t.Fatalf("step %d: newest %q %q %v, want %q", i, got.Version, got.Body, err, step.want)
			}
			got.Body[0] = 'x' // a caller's change stays its own
		}
	}
}

package sqlite_test

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/sqlite"
)

// BenchmarkAppend measures conditional appends of one record, each to its
// own Run's log, from several goroutines at once: the group commit turns
// concurrent appends into shared transactions.
func BenchmarkAppend(b *testing.B) {
	for _, writers := range []int{1, 16} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) {
			db, err := sqlite.Open(b.TempDir(), sqlite.Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			ctx := context.Background()
			now := time.Now()
			var next atomic.Int64
			body := []byte(`{"turn":1,"text":"a typical model answer of a few words","inputTokens":120,"outputTokens":30}`)
			b.SetParallelism(writers)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				id := fmt.Sprint("run-", next.Add(1))
				_, _, err := db.CreateRun(ctx, store.NewRun{
					Run:     store.Run{Tenant: "t", RunID: id, Spec: "s", Version: "v", CreateTime: now, Index: store.Index{State: "RUNNING"}},
					Records: []store.Record{{Seq: 1, Time: now, Kind: "admitted", Body: []byte(`{}`)}},
				})
				if err != nil {
					b.Error(err)
					return
				}
				seq := int64(1)
				for pb.Next() {
					seq++
					err := db.Append(ctx, store.Append{Tenant: "t", RunID: id, Records: []store.Record{{Seq: seq, Time: now, Attempt: 1, Kind: "model_call_finished", Body: body}},
						Index: store.Index{State: "RUNNING", Summary: body}})
					if err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}

// runShape is the appends of the bench's Runs phase (one turn of three
// worker-tool calls, then the answer), as the engine writes them: record
// kinds and body sizes per append, and the summary's size after it.
var runShape = []struct {
	kinds   []string
	sizes   []int
	summary int
}{
	{[]string{"attempt_started"}, []int{32}, 136},
	{[]string{"turn_started", "model_call_started"}, []int{10, 30}, 159},
	{[]string{"model_call_finished", "tool_call_started"}, []int{233, 35}, 212},
	{[]string{"tool_call_finished", "tool_call_started"}, []int{49, 35}, 226},
	{[]string{"tool_call_finished", "tool_call_started"}, []int{49, 35}, 226},
	{[]string{"tool_call_finished", "turn_started", "model_call_started"}, []int{49, 10, 30}, 226},
	{[]string{"model_call_finished", "settled"}, []int{77, 56}, 274},
}

// BenchmarkRun measures the store's part of one Run of the bench's Runs
// phase, from writers goroutines at once: CreateRun, Claim, the seven
// leased appends (the last settles and releases), then GetRun and ReadLog
// as WaitRun would. ns/op is per Run.
func BenchmarkRun(b *testing.B) {
	for _, writers := range []int{1, 16} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) {
			db, err := sqlite.Open(b.TempDir(), sqlite.Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			var runs atomic.Int64
			b.ReportAllocs()
			cpu := cpuTime()
			b.ResetTimer()
			var wg sync.WaitGroup
			for w := range writers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := 0; runs.Add(1) <= int64(b.N); i++ {
						if err := benchRun(db, fmt.Sprintf("w%d", w), fmt.Sprintf("run-%d-%d", w, i)); err != nil {
							b.Error(err)
							return
						}
					}
				}()
			}
			wg.Wait()
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

// benchRun creates runID, claims a runnable Run as owner (another
// goroutine's, maybe) and drives the claimed one to its end.
func benchRun(db *sqlite.DB, owner, runID string) error {
	ctx := context.Background()
	now := time.Now()
	_, _, err := db.CreateRun(ctx, store.NewRun{
		Run: store.Run{Tenant: "t", RunID: runID, Spec: "bench-tools", Version: "v1", CreateTime: now,
			Index: store.Index{State: "QUEUED", Runnable: true, Summary: bytes.Repeat([]byte("s"), 120)}},
		Records: []store.Record{{Seq: 1, Time: now, Kind: "admitted", Body: bytes.Repeat([]byte("a"), 300)}},
	})
	if err != nil {
		return err
	}
	leases, err := db.Claim(ctx, owner, now, time.Minute, 1)
	if err != nil || len(leases) != 1 {
		return fmt.Errorf("claim: %d leases, %v", len(leases), err)
	}
	l := leases[0]
	seq := int64(1)
	for i, a := range runShape {
		recs := make([]store.Record, len(a.kinds))
		for j, k := range a.kinds {
			seq++
			recs[j] = store.Record{Seq: seq, Time: time.Now(), Attempt: 1, Kind: k, Body: bytes.Repeat([]byte("b"), a.sizes[j])}
		}
		last := i == len(runShape)-1
		idx := store.Index{State: "RUNNING", Runnable: true, Summary: bytes.Repeat([]byte("s"), a.summary)}
		if last {
			idx = store.Index{State: "COMPLETED", Summary: idx.Summary, Settled: true}
		}
		if err := db.Append(ctx, store.Append{Tenant: l.Tenant, RunID: l.RunID, Records: recs, Index: idx, Lease: l, Release: last, Ends: last}); err != nil {
			return err
		}
	}
	if _, err := db.GetRun(ctx, l.Tenant, l.RunID); err != nil {
		return err
	}
	_, err = db.ReadLog(ctx, l.Tenant, l.RunID, 1, 0)
	return err
}

// cpuTime is the user and system CPU time this process used: on a shared
// machine CPU per Run moves less than wall time does.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkGetSpec measures reading the newest Version of a Spec, as every
// StartRun naming no version does.
func BenchmarkGetSpec(b *testing.B) {
	db, err := sqlite.Open(b.TempDir(), sqlite.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	for _, v := range []string{"v1", "v2"} {
		if _, _, err := db.PutSpec(ctx, store.Spec{Tenant: "t", Name: "bench-tools", Version: v, Body: bytes.Repeat([]byte("x"), 600), CreateTime: time.Now()}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := db.GetSpec(ctx, "t", "bench-tools", ""); err != nil {
			b.Fatal(err)
		}
	}
}

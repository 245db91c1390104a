package sqlite_test

import (
	"context"
	"fmt"
	"sync/atomic"
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

package postgres_test

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
)

// TestMemoryVersionsUnderConcurrentWriters writes one memory from two
// replicas at once while a reader follows Changes: versions are 1..n with
// none repeated, and the reader, which only ever asks for versions above
// the last it saw, misses none, so versions become visible in order.
func TestMemoryVersionsUnderConcurrentWriters(t *testing.T) {
	t.Parallel()
	cluster := pgtest.Start(t)
	replicas := []store.Store{open(t, cluster.DSN()), open(t, cluster.DSN())}
	const tenant, ns = store.DefaultTenant, "ns"
	const writers, writes = 6, 20
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	var mu sync.Mutex
	var written []int64
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			s := replicas[w%len(replicas)]
			for i := range writes {
				e, err := s.SetValue(ctx, tenant, ns, fmt.Sprintf("w%d-%d", w, i), []byte(`1`), time.Now())
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				written = append(written, e.Version)
				mu.Unlock()
			}
		})
	}
	seen := map[int64]bool{}
	writersDone := make(chan struct{})
	follow := make(chan error, 1)
	go func() {
		after := int64(0)
		for {
			final := false
			select {
			case <-writersDone:
				final = true
			default:
			}
			changes, err := replicas[0].Changes(ctx, tenant, ns, after)
			if err != nil {
				follow <- err
				return
			}
			for _, e := range changes {
				seen[e.Version] = true
				after = e.Version
			}
			if final {
				follow <- nil
				return
			}
		}
	}()
	wg.Wait()
	close(writersDone)
	if err := <-follow; err != nil {
		t.Fatalf("following changes: %v", err)
	}
	sort.Slice(written, func(i, j int) bool { return written[i] < written[j] })
	for i, v := range written {
		if v != int64(i+1) {
			t.Fatalf("versions written are %v, want 1..%d each once", written, writers*writes)
		}
	}
	var missed []int64
	for _, v := range written {
		if !seen[v] {
			missed = append(missed, v)
		}
	}
	if len(missed) > 0 {
		t.Errorf("the reader following Changes missed versions %v: they became visible after higher ones", missed)
	}
}

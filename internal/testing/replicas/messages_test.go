package replicas_test

import (
	"fmt"
	"sync"
	"testing"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestMessagesThroughTwoReplicas: 50 SendMessage calls through each of
// two replicas of one PostgreSQL, all at once, on one suspended Run: 100
// succeed and the log holds each message once. The replicas' writers
// contend through the store only, so this is the outsiders' retry policy
// at work across processes' worth of state.
func TestMessagesThroughTwoReplicas(t *testing.T) {
	cluster := pgtest.Start(t)
	a := testserver.Start(t, onReplica(cluster, "replica-a"))
	b := testserver.Start(t, onReplica(cluster, "replica-b"))
	run := waitingRun(t, a)
	if run.GetState() != runsvcv1.RunState_RUN_STATE_SUSPENDED {
		t.Fatalf("run is %v, want suspended", run.GetState())
	}
	ctx := testserver.Context(t)
	const each = 50
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failed []error
	for r, srv := range []*testserver.Server{a, b} {
		for i := range each {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := srv.Runs.SendMessage(ctx, &runsvcv1.SendMessageRequest{RunId: run.GetRunId(), Text: fmt.Sprintf("replica %d note %d", r, i)})
				if err != nil {
					mu.Lock()
					failed = append(failed, err)
					mu.Unlock()
				}
			}()
		}
	}
	wg.Wait()
	for _, err := range failed {
		t.Error(err)
	}
	recorded := map[string]int{}
	for _, r := range b.RecordsSoFar(t, run.GetRunId()) {
		if m := r.GetMessageQueued(); m != nil {
			recorded[m.GetText()]++
		}
	}
	t.Logf("%d sent through two replicas, %d errors, %d messages recorded", 2*each, len(failed), len(recorded))
	if len(recorded) != 2*each {
		t.Errorf("%d messages recorded, want %d", len(recorded), 2*each)
	}
	for text, n := range recorded {
		if n != 1 {
			t.Errorf("%q recorded %d times", text, n)
		}
	}
}

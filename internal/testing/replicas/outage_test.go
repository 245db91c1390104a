package replicas_test

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/structpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestStoreOutageUnderLoad: while PostgreSQL is down, calls fail
// STORE_UNAVAILABLE with RetryInfo; when it is back, the same runsvc
// serves them again and a Run left suspended completes.
func TestStoreOutageUnderLoad(t *testing.T) {
	cluster := pgtest.Start(t)
	srv := testserver.Start(t, func(c *server.Config) { c.Store, c.PoolSize = cluster.DSN(), 4 })
	srv.Publish(t, `{"name": "waits", "model": {"provider": "scripted", "script": {"turns": [{"toolCalls": [{"name": "ask", "arguments": {}}]}, {"text": "survived"}]}},
	  "tools": [{"name": "ask", "kind": "TOOL_KIND_CLIENT"}]}`)
	waiting := srv.Wait(t, srv.Start(t, "waits", "go").GetRunId())
	ctx := testserver.Context(t)

	var stop atomic.Bool
	var mu sync.Mutex
	reasons := map[string]int{}
	var unretryable []string
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				_, err := srv.Runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "waits", Input: "load"})
				if _, gerr := srv.Runs.GetRun(ctx, &runsvcv1.GetRunRequest{RunId: waiting.GetRunId()}); err == nil {
					err = gerr
				}
				c := errdetails.Classify(err)
				mu.Lock()
				if err == nil {
					reasons["OK"]++
				} else {
					reasons[c.Reason]++
					if !c.Retryable {
						unretryable = append(unretryable, err.Error())
					}
				}
				mu.Unlock()
				time.Sleep(5 * time.Millisecond)
			}
		}()
	}
	time.Sleep(300 * time.Millisecond)
	cluster.Stop(t)
	time.Sleep(2 * time.Second)
	_, err := srv.Runs.GetRun(ctx, &runsvcv1.GetRunRequest{RunId: waiting.GetRunId()})
	c := errdetails.Classify(err)
	if c.Reason != "STORE_UNAVAILABLE" || !c.Retryable || c.RetryDelay <= 0 {
		t.Errorf("during the outage: %+v", c)
	}
	cluster.Start(t)
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := srv.Runs.GetRun(ctx, &runsvcv1.GetRunRequest{RunId: waiting.GetRunId()}); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("runsvc did not recover after PostgreSQL came back")
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond)
	stop.Store(true)
	wg.Wait()
	t.Logf("outcomes under load across the outage: %v", reasons)
	if reasons["STORE_UNAVAILABLE"] == 0 || reasons["OK"] == 0 {
		t.Errorf("outcomes %v: want both successes and STORE_UNAVAILABLE", reasons)
	}
	if len(unretryable) > 0 {
		t.Errorf("%d calls failed without RetryInfo during the outage, e.g. %s", len(unretryable), unretryable[0])
	}
	if _, err := srv.Runs.ResumeRun(ctx, &runsvcv1.ResumeRunRequest{RunId: waiting.GetRunId(), ToolResults: []*runsvcv1.ToolResult{{CallId: "call_1_1", Output: structpb.NewBoolValue(true)}}}); err != nil {
		t.Fatal(err)
	}
	if got := srv.Settled(t, waiting.GetRunId()); got.GetAnswer() != "survived" {
		t.Errorf("after the outage: %v %q", got.GetState(), got.GetAnswer())
	}
}

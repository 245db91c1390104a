package server_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/model/ratelimit"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/fakeopenai"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// The rate-limit test's shape: the fake allows limitRPM requests a
// "minute" of limitMinute (the fake and the limiter both take it, so the
// test runs in seconds, not minutes), limitRuns Runs of limitCalls calls.
const (
	limitRPM    = 60
	limitMinute = 3 * time.Second
	limitRuns   = 50
	limitCalls  = 5
)

// rateLimitedRuns starts limitRuns Runs of limitCalls model calls each,
// at once, on a server configured by cfg against a fake that allows
// limitRPM a limitMinute, and returns the fake and the settled Runs.
func rateLimitedRuns(t *testing.T, cfg ratelimit.Config) (*fakeopenai.Server, []*runsvcv1.Run) {
	var turns []fakeopenai.Turn
	for i := range limitCalls - 1 {
		turns = append(turns, fakeopenai.Turn{Calls: []fakeopenai.Call{{ID: fmt.Sprintf("c%d", i), Name: "step", Args: "{}"}}})
	}
	fake := fakeopenai.StartWith(t, fakeopenai.Options{RequestsPer: limitRPM, Window: limitMinute, ByConversation: true}, append(turns, fakeopenai.Turn{Text: "done"})...)
	s := testserver.Start(t, func(c *server.Config) { c.RateLimits = cfg })
	s.Publish(t, fmt.Sprintf(`{"name": "limited", "model": {"provider": "openai", "model": "fake", "baseUrl": %q},
	  "tools": [{"name": "step", "kind": "TOOL_KIND_WORKER"}], "limits": {"transientRetryBudget": 1000, "deadline": "120s"}}`, fake.URL))
	s.StartWorker(t, "steps", map[string]testserver.ToolFunc{"step": func(map[string]any) (any, *runsvcv1.ToolError) { return "ok", nil }})
	ids := make([]string, limitRuns)
	for i := range ids {
		ids[i] = s.Start(t, "limited", fmt.Sprintf("run %d", i)).GetRunId()
	}
	out := make([]*runsvcv1.Run, limitRuns)
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Go(func() { out[i] = s.Settled(t, id) })
	}
	wg.Wait()
	return fake, out
}

// TestRateLimitSharedByEveryRun: 50 concurrent Runs of 5 calls against a
// fake allowing 60 requests a minute. With the limiter configured at the
// provider's limit, no call is answered 429 and every Run completes, some
// calls recording that they waited; without a configured limit, learning
// from the headers (the stated limit, Retry-After) gets at most one 429 a
// minute; with no limiter at all, the 429s are counted for comparison.
func TestRateLimitSharedByEveryRun(t *testing.T) {
	fake, settled := rateLimitedRuns(t, ratelimit.Config{Minute: limitMinute, Rules: []ratelimit.Rule{{Provider: "openai", RPM: limitRPM}}})
	for _, r := range settled {
		if r.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED {
			t.Errorf("run %s settled %v: %v", r.GetRunId(), r.GetState(), r.GetFailure())
		}
	}
	if n := fake.RateLimited(); n != 0 {
		t.Errorf("the limited runs got %d 429s, want 0", n)
	}
	if got, want := len(fake.Requests()), limitRuns*limitCalls; got != want {
		t.Errorf("the fake answered %d requests, want %d", got, want)
	}
	t.Logf("limited: %d requests, %d answered 429", len(fake.Requests()), fake.RateLimited())

	for _, c := range []struct {
		name    string
		cfg     ratelimit.Config
		learned bool
	}{
		{"learning from 429s and headers only", ratelimit.Config{Minute: limitMinute}, true},
		{"no limiter at all", ratelimit.Config{Off: true}, false},
	} {
		began := time.Now()
		unlimited, settled := rateLimitedRuns(t, c.cfg)
		minutes := int(time.Since(began)/limitMinute) + 1
		completed := 0
		for _, r := range settled {
			if r.GetState() == runsvcv1.RunState_RUN_STATE_COMPLETED {
				completed++
			}
		}
		t.Logf("%s: %d requests answered, %d answered 429 in %d (3 s) minutes; %d of %d Runs completed",
			c.name, len(unlimited.Requests()), unlimited.RateLimited(), minutes, completed, limitRuns)
		// Learning the limit the fake states (x-ratelimit-limit-requests)
		// spaces the calls as a configured rule does: at most one 429 a
		// minute for the one credential, as the issue allows.
		if c.learned && (unlimited.RateLimited() > minutes || completed != limitRuns) {
			t.Errorf("%s: %d 429s in %d minutes, %d of %d Runs completed; want at most one a minute, all completed",
				c.name, unlimited.RateLimited(), minutes, completed, limitRuns)
		}
	}
}

// TestGetRunShowsTheRateLimitWait: a Run whose model call waits on its
// credential's rate limit shows it in GetRun (waiting_on, since when)
// while it waits, and not once it completed.
func TestGetRunShowsTheRateLimitWait(t *testing.T) {
	fake := fakeopenai.Start(t, fakeopenai.Turn{Text: "done"})
	s := testserver.Start(t, func(c *server.Config) {
		c.RateLimits = ratelimit.Config{Minute: 6 * time.Second, Rules: []ratelimit.Rule{{Provider: "openai", RPM: 1}}}
	})
	s.Publish(t, fmt.Sprintf(`{"name": "limited", "model": {"provider": "openai", "model": "fake", "baseUrl": %q}}`, fake.URL))
	first := s.Start(t, "limited", "one").GetRunId()
	second := s.Start(t, "limited", "two").GetRunId()
	var seen *runsvcv1.Run
	deadline := time.Now().Add(20 * time.Second)
	for seen == nil && time.Now().Before(deadline) {
		for _, id := range []string{first, second} {
			got, err := s.Runs.GetRun(testserver.Context(t), &runsvcv1.GetRunRequest{RunId: id})
			if err == nil && got.GetRun().GetWaitingOn() != "" {
				seen = got.GetRun()
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	if seen == nil || seen.GetWaitingOn() != "rate_limit:openai" || seen.GetWaitingSince() == nil {
		t.Fatalf("no Run showed its wait on the rate limit: %v", seen)
	}
	if done := s.Settled(t, seen.GetRunId()); done.GetWaitingOn() != "" {
		t.Errorf("the settled Run still waits on %q", done.GetWaitingOn())
	}
}

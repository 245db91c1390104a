package ratelimit_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/model/ratelimit"
	"github.com/runsvc/runsvc/internal/spec"
)

// counting answers every call, or fails it with err while err is set.
type counting struct {
	calls atomic.Int32
	err   error
	resp  model.Response
}

func (c *counting) Complete(context.Context, model.Request) (model.Response, error) {
	c.calls.Add(1)
	return c.resp, c.err
}

func request(key string) model.Request {
	return model.Request{Model: spec.Model{Provider: spec.ProviderOpenAI, BaseURL: "http://x/v1"}, APIKey: key}
}

// wrapped is a fake-clock limiter around inner.
func wrapped(inner model.Model, rules ...ratelimit.Rule) (model.Model, *clock.Fake) {
	fake := clock.NewFake(time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC))
	return ratelimit.Wrap(model.Providers{spec.ProviderOpenAI: inner}, ratelimit.Config{Rules: rules, Clock: fake})[spec.ProviderOpenAI], fake
}

// complete calls m in the background and reports on done.
func complete(m model.Model, req model.Request) <-chan model.Response {
	done := make(chan model.Response, 1)
	go func() {
		resp, _ := m.Complete(context.Background(), req)
		done <- resp
	}()
	return done
}

// waitFor advances the fake clock by d once a call sleeps on it.
func waitFor(t *testing.T, fake *clock.Fake, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for fake.Waiters() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no call waits")
		}
		time.Sleep(time.Millisecond)
	}
	fake.Advance(d)
}

// TestRequestsPerMinute: at 60 a minute, the second call at once waits a
// second and says so; another credential does not wait.
func TestRequestsPerMinute(t *testing.T) {
	inner := &counting{}
	m, fake := wrapped(inner, ratelimit.Rule{Provider: spec.ProviderOpenAI, RPM: 60})
	if resp := <-complete(m, request("a")); resp.RateLimitWait != 0 {
		t.Fatalf("the first call waited %s", resp.RateLimitWait)
	}
	if resp := <-complete(m, request("b")); resp.RateLimitWait != 0 {
		t.Fatalf("another credential's first call waited %s", resp.RateLimitWait)
	}
	second := complete(m, request("a"))
	waitFor(t, fake, time.Second)
	if resp := <-second; resp.RateLimitWait != time.Second {
		t.Fatalf("the second call waited %s, want 1s", resp.RateLimitWait)
	}
}

// TestA429PausesTheCredential: a 429 with Retry-After 5s makes the next
// call of the same credential wait 5s, whichever Run makes it.
func TestA429PausesTheCredential(t *testing.T) {
	inner := &counting{err: &errs.InferenceRateLimited{Provider: "openai", RetryAfter: 5 * time.Second}}
	m, fake := wrapped(inner)
	<-complete(m, request("a"))
	inner.err = nil
	next := complete(m, request("a"))
	waitFor(t, fake, 5*time.Second)
	if resp := <-next; resp.RateLimitWait != 5*time.Second || inner.calls.Load() != 2 {
		t.Fatalf("after a 429 the next call waited %s (%d calls)", resp.RateLimitWait, inner.calls.Load())
	}
}

// TestHeadersAtZeroPause: x-ratelimit-remaining-requests 0 pauses the
// credential until its reset.
func TestHeadersAtZeroPause(t *testing.T) {
	inner := &counting{resp: model.Response{Limits: &model.RateLimitHeaders{RemainingRequests: 0, ResetRequests: 2 * time.Second, RemainingTokens: -1}}}
	m, fake := wrapped(inner)
	<-complete(m, request("a"))
	inner.resp = model.Response{}
	next := complete(m, request("a"))
	waitFor(t, fake, 2*time.Second)
	if resp := <-next; resp.RateLimitWait != 2*time.Second {
		t.Fatalf("after remaining 0 the next call waited %s", resp.RateLimitWait)
	}
}

func TestParseRule(t *testing.T) {
	for _, c := range []struct {
		in   string
		want ratelimit.Rule
		bad  bool
	}{
		{in: "openai=500/200000", want: ratelimit.Rule{Provider: "openai", RPM: 500, TPM: 200000}},
		{in: "openai@http://127.0.0.1:8080/v1=60", want: ratelimit.Rule{Provider: "openai", BaseURL: "http://127.0.0.1:8080/v1", RPM: 60}},
		{in: "openai", bad: true},
		{in: "openai=x", bad: true},
		{in: "openai=0", bad: true},
		{in: "openai=5/-1", bad: true},
	} {
		got, err := ratelimit.ParseRule(c.in)
		if (err != nil) != c.bad || (!c.bad && got != c.want) {
			t.Errorf("ParseRule(%q) = %+v, %v", c.in, got, err)
		}
	}
}

// TestLearnsTheStatedLimit: with no rule, a provider saying it allows 60
// requests a minute (x-ratelimit-limit-requests) spaces the credential's
// calls a second apart, as a rule of 60 would; a configured rule is kept
// whatever the provider says.
func TestLearnsTheStatedLimit(t *testing.T) {
	stated := model.Response{Limits: &model.RateLimitHeaders{RemainingRequests: 59, RemainingTokens: -1, LimitRequests: 60}}
	for _, tc := range []struct {
		name  string
		rules []ratelimit.Rule
		want  time.Duration
	}{
		{"learned", nil, time.Second},
		{"configured at 30 a minute", []ratelimit.Rule{{Provider: spec.ProviderOpenAI, RPM: 30}}, 2 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inner := &counting{resp: stated}
			m, fake := wrapped(inner, tc.rules...)
			<-complete(m, request("a"))
			<-complete(m, request("b")) // another credential learns on its own
			second := complete(m, request("a"))
			waitFor(t, fake, tc.want)
			if resp := <-second; resp.RateLimitWait != tc.want {
				t.Fatalf("the second call waited %s, want %s", resp.RateLimitWait, tc.want)
			}
		})
	}
}

// TestOnWaitTellsTheWait: a call held by the limit tells OnWait what it
// waits on, then that it is done; a call that does not wait tells nothing.
func TestOnWaitTellsTheWait(t *testing.T) {
	m, fake := wrapped(&counting{}, ratelimit.Rule{Provider: spec.ProviderOpenAI, RPM: 60})
	told := make(chan string, 4)
	req := request("a")
	req.Model.APIKeyCredential = "openai_key"
	req.OnWait = func(what string) { told <- what }
	<-complete(m, req)
	if len(told) != 0 {
		t.Fatalf("a call that did not wait told %q", <-told)
	}
	second := complete(m, req)
	waitFor(t, fake, time.Second)
	<-second
	if got := []string{<-told, <-told}; got[0] != "rate_limit:openai/openai_key" || got[1] != "" {
		t.Fatalf("OnWait was told %q; want the credential, then empty", got)
	}
}

// Package ratelimit keeps model calls within each provider credential's
// rate limits, for every Run of the process at once: requests and tokens
// per minute as configured (Rule), and what the provider says (the
// requests a minute it allows, a 429's Retry-After, x-ratelimit-remaining-*
// at zero until its reset). A call
// that would exceed them waits before it is sent, and its Response says
// how long (RateLimitWait), rather than being sent and refused with 429.
//
// The limits are per process: with several replicas, give each
// limit/replicas (see README, "Provider rate limits"). A 429 one Run gets
// pauses the credential for every Run of the process.
package ratelimit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/spec"
)

// Rule limits the calls to a provider, or to one endpoint of it when
// BaseURL is set, per credential (API key): RPM requests and TPM tokens
// (input estimate plus max output) a minute; zero leaves that unlimited.
type Rule struct {
	Provider string
	BaseURL  string
	RPM      int
	TPM      int
}

// Config is the rules and the length of their "minute": time.Minute
// unless a test shortens it (every limit scales with it).
type Config struct {
	Rules  []Rule
	Minute time.Duration
	// Clock is the time source; the wall clock when nil.
	Clock clock.Clock
	// Off leaves the providers as they are: no limit, nothing learned. No
	// flag sets it; a test measures what the limiter saves with it.
	Off bool
}

// Wrap returns providers with every call going through the limits of cfg.
// Providers are wrapped whether or not a rule names them: what a provider
// says about its limits is learned either way. The scripted provider,
// which calls no server, is left as it is.
func Wrap(providers model.Providers, cfg Config) model.Providers {
	if cfg.Minute <= 0 {
		cfg.Minute = time.Minute
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.Real{}
	}
	if cfg.Off {
		return providers
	}
	shared := &limits{cfg: cfg, buckets: map[string]*bucket{}}
	out := make(model.Providers, len(providers))
	for name, m := range providers {
		switch {
		case m == nil:
		case name == spec.ProviderScripted:
			out[name] = m
		default:
			out[name] = &limited{next: m, limits: shared}
		}
	}
	return out
}

// limits are the buckets of every credential seen.
type limits struct {
	cfg     Config
	mu      sync.Mutex
	buckets map[string]*bucket
}

// limited is one provider behind the limits.
type limited struct {
	next   model.Model
	limits *limits
}

// Complete waits for the credential's limits, makes the call, and learns
// from what the provider said.
func (l *limited) Complete(ctx context.Context, req model.Request) (model.Response, error) {
	b := l.limits.bucketFor(req)
	start := b.clock.Now()
	if err := b.wait(ctx, callTokens(req), waiter(req)); err != nil {
		return model.Response{}, err
	}
	waited := b.clock.Now().Sub(start)
	resp, err := l.next.Complete(ctx, req)
	b.learn(resp.Limits, err)
	resp.RateLimitWait = waited.Round(time.Millisecond)
	return resp, err
}

// bucketFor finds or makes the bucket of req's provider, endpoint and
// credential.
func (ls *limits) bucketFor(req model.Request) *bucket {
	base := strings.TrimRight(req.Model.BaseURL, "/")
	key := req.Model.Provider + "\x00" + base + "\x00" + keyHash(req.APIKey)
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if b, ok := ls.buckets[key]; ok {
		return b
	}
	b := &bucket{clock: ls.cfg.Clock, minute: ls.cfg.Minute}
	for _, r := range ls.cfg.Rules {
		if r.Provider != req.Model.Provider || (r.BaseURL != "" && strings.TrimRight(r.BaseURL, "/") != base) {
			continue
		}
		if r.RPM > 0 {
			b.requests = rate.NewLimiter(rate.Every(ls.cfg.Minute/time.Duration(r.RPM)), 1)
		}
		if r.TPM > 0 {
			b.tokens = rate.NewLimiter(rate.Limit(float64(r.TPM)/ls.cfg.Minute.Seconds()), r.TPM)
		}
		break
	}
	ls.buckets[key] = b
	return b
}

// keyHash names a credential without holding it.
func keyHash(key string) string {
	if key == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:8])
}

// callTokens is what a call counts against a tokens-per-minute limit, as
// providers count it: the input (about four bytes a token) and the most
// output it asks for.
func callTokens(req model.Request) int {
	n := 0
	for _, m := range req.Messages {
		n += len(m.Text) + 16
		for _, c := range m.ToolCalls {
			n += len(c.Name) + len(c.Arguments)
		}
	}
	for _, t := range req.Tools {
		n += len(t.Name) + len(t.Description) + len(t.Parameters)
	}
	return n/4 + 1 + int(req.MaxTokens)
}

// bucket is one credential's limits: the configured ones (nil when
// none), the requests a minute the provider says it allows when none is
// configured (learned), and a pause until a time the provider named.
type bucket struct {
	clock  clock.Clock
	minute time.Duration
	tokens *rate.Limiter
	mu     sync.Mutex
	// requests is the configured limit, or the learned one; learnedRPM
	// is the provider's stated limit it was set from, 0 when configured
	// or not yet learned.
	requests   *rate.Limiter
	learnedRPM int64
	until      time.Time
}

// waiter returns what tells req's OnWait that the call waits, and then
// that it no longer does; nothing when req has no OnWait.
func waiter(req model.Request) func(bool) {
	if req.OnWait == nil {
		return func(bool) {}
	}
	what, told := "rate_limit:"+req.Model.Provider, false
	switch {
	case req.Model.APIKeyCredential != "":
		what += "/" + req.Model.APIKeyCredential
	case req.APIKey != "":
		what += "/key:" + keyHash(req.APIKey)
	}
	return func(waits bool) {
		switch {
		case waits && !told:
			req.OnWait(what)
		case !waits && told:
			req.OnWait("")
		}
		told = waits
	}
}

// wait blocks until a call of n tokens fits, or ctx ends (then it returns
// ctx's error, as a provider does when its caller gives up); it tells
// waits(true) before it blocks and waits(false) when it is done.
func (b *bucket) wait(ctx context.Context, n int, waits func(bool)) error {
	defer waits(false)
	var (
		requests *rate.Limiter
		until    time.Time
	)
	for {
		b.mu.Lock()
		until, requests = b.until, b.requests
		b.mu.Unlock()
		if d := until.Sub(b.clock.Now()); d > 0 {
			waits(true)
			if err := b.clock.Sleep(ctx, d); err != nil {
				return err
			}
			continue
		}
		break
	}
	now := b.clock.Now()
	var reservations []*rate.Reservation
	var delay time.Duration
	if requests != nil {
		r := requests.ReserveN(now, 1)
		reservations, delay = append(reservations, r), max(delay, r.DelayFrom(now))
	}
	if b.tokens != nil {
		r := b.tokens.ReserveN(now, min(n, b.tokens.Burst()))
		reservations, delay = append(reservations, r), max(delay, r.DelayFrom(now))
	}
	if delay > 0 {
		waits(true)
	}
	if err := b.clock.Sleep(ctx, delay); err != nil && delay > 0 {
		for _, r := range reservations {
			r.CancelAt(b.clock.Now())
		}
		return err
	}
	return ctx.Err()
}

// learn pauses the credential for what the provider said: a 429's
// Retry-After, or the reset of a window its headers say is used up.
func (b *bucket) learn(h *model.RateLimitHeaders, err error) {
	var pause time.Duration
	var limited *errs.InferenceRateLimited
	if errors.As(err, &limited) {
		pause = max(limited.RetryAfter, time.Millisecond)
	}
	if h != nil {
		if h.RemainingRequests == 0 {
			pause = max(pause, h.ResetRequests)
		}
		if h.RemainingTokens == 0 {
			pause = max(pause, h.ResetTokens)
		}
		b.learnLimit(h.LimitRequests)
	}
	if pause <= 0 {
		return
	}
	until := b.clock.Now().Add(pause)
	b.mu.Lock()
	if until.After(b.until) {
		b.until = until
	}
	b.mu.Unlock()
}

// learnLimit spaces the credential's requests at the rpm a minute its
// provider says it allows (x-ratelimit-limit-requests), as a configured
// rule would, unless a rule is configured: without it every Run of the
// process would call at once after each pause, and all but one be
// answered 429 again. A new stated limit replaces the learned one.
func (b *bucket) learnLimit(rpm int64) {
	if rpm <= 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case b.requests != nil && b.learnedRPM == 0: // configured
	case b.requests == nil:
		// The call that brought the header took the first request.
		b.requests, b.learnedRPM = rate.NewLimiter(rate.Every(b.minute/time.Duration(rpm)), 1), rpm
		b.requests.ReserveN(b.clock.Now(), 1)
	case b.learnedRPM != rpm:
		b.requests.SetLimitAt(b.clock.Now(), rate.Every(b.minute/time.Duration(rpm)))
		b.learnedRPM = rpm
	}
}

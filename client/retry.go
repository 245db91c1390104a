package client

import (
	"context"
	"time"
)

// DefaultMaxAttempts is how many times Retry calls when RetryOptions
// names no limit.
const DefaultMaxAttempts = 5

// RetryOptions tune Retry. The zero value is ready to use.
type RetryOptions struct {
	// MaxAttempts bounds the calls, the first included; DefaultMaxAttempts
	// when 0.
	MaxAttempts int
	// Domain is the ErrorInfo domain whose errors are retried;
	// DefaultDomain when empty. Another domain's error is returned as is.
	Domain string
	// Now and Sleep replace the clock, for tests; time.Now and a timer
	// that stops at ctx's end when nil.
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
	// OnRetry, when set, is told of each retry before its wait.
	OnRetry func(attempt int, err error, delay time.Duration)
}

// Retry calls call until it succeeds, fails with an error that is not
// retryable (no RetryInfo, or not runsvc's), MaxAttempts is reached, or
// the next wait would end after ctx's deadline. It waits RetryInfo's delay
// between calls and returns the last error.
func Retry(ctx context.Context, opts RetryOptions, call func(ctx context.Context) error) error {
	max := opts.MaxAttempts
	if max <= 0 {
		max = DefaultMaxAttempts
	}
	now, sleep := opts.Now, opts.Sleep
	if now == nil {
		now = time.Now
	}
	if sleep == nil {
		sleep = sleepCtx
	}
	for attempt := 1; ; attempt++ {
		err := call(ctx)
		if err == nil {
			return nil
		}
		e, ok := FromError(err, opts.Domain)
		if !ok || !e.Retryable || attempt >= max {
			return err
		}
		if deadline, has := ctx.Deadline(); has && now().Add(e.RetryDelay).After(deadline) {
			return err // the retry could not finish in time
		}
		if opts.OnRetry != nil {
			opts.OnRetry(attempt, err, e.RetryDelay)
		}
		if serr := sleep(ctx, e.RetryDelay); serr != nil {
			return err
		}
	}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

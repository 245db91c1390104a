package service

import (
	"context"
	"time"
)

// A long wait (WaitRun, GetValue with wait, AwaitDelegation, Receive)
// ends this share of the time the caller has left before the caller's
// deadline, within these bounds, so that its answer is on the wire before
// grpc resets the stream: a client whose timer runs late would otherwise
// see CANCELLED instead of an answer.
const (
	waitMarginShare = 10 // percent
	minWaitMargin   = 50 * time.Millisecond
	maxWaitMargin   = time.Second
	// leastWait is the shortest wait a nearly spent deadline leaves.
	leastWait = time.Millisecond
)

// waitLeft returns how long a wait of up to wait may last within ctx's
// deadline, ending early by the margin; wait itself when ctx has no
// deadline.
func waitLeft(ctx context.Context, wait time.Duration) time.Duration {
	deadline, ok := ctx.Deadline()
	if !ok {
		return wait
	}
	left := time.Until(deadline)
	margin := min(max(left*waitMarginShare/100, minWaitMargin), maxWaitMargin)
	return max(min(wait, left-margin), leastWait)
}

// beforeDeadline returns a context that ends the margin before ctx's
// deadline, for waits that take no duration.
func beforeDeadline(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); !ok {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, waitLeft(ctx, time.Duration(1<<63-1)))
}

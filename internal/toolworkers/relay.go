package toolworkers

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"sync"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
)

// relayWant is what the relay looks for in one tenant's calls.
type relayWant struct {
	// tools are the tools this Hub's workers serve; free those of them
	// with a worker that has room, and limit how many calls that room
	// takes.
	tools []string
	free  []string
	limit int
}

// relay claims the calls other replicas enqueue for the tools this Hub's
// workers serve, and runs them on those workers, until ctx ends; then it
// waits for the calls it runs, which give their claims back. It looks
// when a call's topic signals, when the workers change or a relayed call
// ends, and every RelayPoll (for the calls of replicas that died).
func (h *Hub) relay(ctx context.Context) {
	r := h.routing
	var running sync.WaitGroup
	defer running.Wait()
	signals := make(chan struct{}, 1)
	following := map[string]func(){}
	defer func() {
		for _, stop := range following {
			stop()
		}
	}()
	poll := time.NewTicker(r.RelayPoll)
	defer poll.Stop()
	signalled := true
	for {
		wants := h.relayWants()
		h.follow(wants, following, signals)
		h.claim(ctx, wants, signalled, &running)
		select {
		case <-signals:
			signalled = true
		case <-poll.C:
			signalled = true
		case <-h.relayKick:
			signalled = false
		case <-ctx.Done():
			return
		}
	}
}

// relayWants returns, per tenant, what the relay looks for.
func (h *Hub) relayWants() map[string]*relayWant {
	h.mu.Lock()
	defer h.mu.Unlock()
	wants := map[string]*relayWant{}
	type key struct{ tenant, tool string }
	seen, free := map[key]bool{}, map[key]bool{}
	for _, w := range h.workers {
		want := wants[w.Tenant]
		if want == nil {
			want = &relayWant{}
			wants[w.Tenant] = want
		}
		room := w.max - len(w.inflight)
		if room > 0 {
			want.limit += room
		}
		for name := range w.tools {
			k := key{w.Tenant, name}
			if !seen[k] {
				seen[k] = true
				want.tools = append(want.tools, name)
			}
			if room > 0 && !free[k] {
				free[k] = true
				want.free = append(want.free, name)
			}
		}
	}
	for tenant, want := range wants {
		want.limit = min(want.limit-h.unplaced[tenant], relayBatch)
		sort.Strings(want.tools)
		sort.Strings(want.free)
	}
	return wants
}

// follow subscribes to the new-call topics of the tools wanted, and drops
// the subscriptions of tools no longer served; every signal goes to
// signals.
func (h *Hub) follow(wants map[string]*relayWant, following map[string]func(), signals chan struct{}) {
	topics := map[string]bool{}
	for tenant, want := range wants {
		for _, name := range want.tools {
			topics[store.ToolCallsTopic(tenant, name)] = true
		}
	}
	for topic, stop := range following {
		if !topics[topic] {
			stop()
			delete(following, topic)
		}
	}
	for topic := range topics {
		if _, ok := following[topic]; ok {
			continue
		}
		sub := h.routing.Store.Notifier().Subscribe(topic)
		done := make(chan struct{})
		go func() {
			for {
				select {
				case <-sub.C():
					kick(signals)
				case <-done:
					return
				}
			}
		}()
		following[topic] = func() {
			close(done)
			sub.Close()
		}
	}
}

// claim claims, per tenant, as many calls as its workers have room for and
// runs each in a goroutine of running. When the room runs out it asks to
// hear when capacity frees up (if a signal said there are calls, or a
// claim took all it could).
func (h *Hub) claim(ctx context.Context, wants map[string]*relayWant, signalled bool, running *sync.WaitGroup) {
	r := h.routing
	for tenant, want := range wants {
		if want.limit <= 0 || len(want.free) == 0 {
			if signalled {
				h.setHungry()
			}
			continue
		}
		calls, err := r.Store.ClaimToolCalls(ctx, tenant, r.Replica, want.free, r.Clock.Now(), r.ClaimTTL, want.limit)
		if err != nil {
			if ctx.Err() == nil {
				r.Log.Warn("claiming tool calls of other replicas failed", "tenant", tenant, "err", err)
			}
			continue
		}
		if len(calls) == want.limit {
			h.setHungry()
		}
		h.mu.Lock()
		h.unplaced[tenant] += len(calls)
		h.mu.Unlock()
		for _, c := range calls {
			running.Add(1)
			go func() {
				defer running.Done()
				h.serveClaimed(ctx, c)
			}()
		}
	}
}

func (h *Hub) setHungry() {
	h.mu.Lock()
	h.hungry = true
	h.mu.Unlock()
}

// serveClaimed runs a claimed call on this Hub's workers, the same way as
// its own calls, keeping the claim alive meanwhile, and records the
// outcome: the output or the tool's failure. A call that could not run
// here (its worker left and none other serves the tool, or this replica
// stops) is given back for another replica; one whose claim was lost is
// left to whoever holds it now.
func (h *Hub) serveClaimed(ctx context.Context, c store.ToolCall) {
	r := h.routing
	var once sync.Once
	placed := func() {
		once.Do(func() {
			h.mu.Lock()
			h.unplaced[c.Tenant]--
			h.mu.Unlock()
		})
	}
	defer kick(h.relayKick)
	defer placed()
	callCtx, cancel := h.untilDeadline(ctx, c.Deadline)
	lost := make(chan struct{})
	kept := make(chan struct{})
	go func() {
		defer close(kept)
		h.keepClaim(callCtx, c, cancel, lost)
	}()
	wc := Call{ID: c.CallID, RunID: c.RunID, Name: c.Tool, Arguments: json.RawMessage(c.Arguments), Deadline: c.Deadline, TraceParent: c.TraceParent}
	out, err := h.executeLocal(callCtx, c.Tenant, wc, placed)
	cancel()
	<-kept
	select {
	case <-lost:
		r.Log.Info("lost the claim on another replica's tool call", "callId", c.CallID, "tool", c.Tool)
		return
	default:
	}
	wctx, wcancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer wcancel()
	var failed *errs.ToolFailed
	var rejected *errs.ToolRejected
	switch {
	case err == nil:
		if len(out) == 0 {
			out = json.RawMessage("null")
		}
		err = r.Store.CompleteToolCall(wctx, c, store.ToolCallResult{Output: out}, r.Clock.Now())
	case errors.As(err, &failed):
		err = r.Store.CompleteToolCall(wctx, c, store.ToolCallResult{Failure: &store.ToolCallFailure{Message: failed.Message, Retryable: true}}, r.Clock.Now())
	case errors.As(err, &rejected):
		err = r.Store.CompleteToolCall(wctx, c, store.ToolCallResult{Failure: &store.ToolCallFailure{Message: rejected.Message}}, r.Clock.Now())
	default:
		r.Log.Debug("giving another replica's tool call back", "callId", c.CallID, "tool", c.Tool, "err", err)
		err = r.Store.ReleaseToolCall(wctx, c)
	}
	if err != nil {
		r.Log.Warn("recording another replica's tool call failed; its claim expires", "callId", c.CallID, "tool", c.Tool, "err", err)
	}
}

// keepClaim renews a claim every third of ClaimTTL until ctx ends; when
// the claim is lost it closes lost and cancels the call.
func (h *Hub) keepClaim(ctx context.Context, c store.ToolCall, cancel context.CancelFunc, lost chan struct{}) {
	r := h.routing
	tick := time.NewTicker(r.ClaimTTL / 3)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		err := r.Store.RenewToolCall(ctx, &c, r.Clock.Now(), r.ClaimTTL)
		var ll *errs.LeaseLost
		if errors.As(err, &ll) {
			close(lost)
			cancel()
			return
		}
		// Any other failure: the store is out of reach; try again at the
		// next tick (the claim may expire meanwhile).
	}
}

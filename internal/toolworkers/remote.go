package toolworkers

import (
	"context"
	"encoding/json"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/tool"
)

// executeRemote runs a call on a worker connected to another replica. It
// enqueues the call in the store, or finds it there (enqueued by an
// earlier try of the call, or by the replica that ran the Run before a
// takeover: the call id is stable, so the call is not duplicated), and
// waits for its result topic, reading the call on every signal and every
// WaitPoll. A failure the worker reports is *errs.ToolFailed; with no live
// replica serving the tool, and nobody holding the call, it fails with a
// retryable *errs.TransientFailure, as without any worker. It returns
// ctx's error when ctx ends first, or a little after the call's deadline.
func (h *Hub) executeRemote(ctx context.Context, tenant string, wc Call) (json.RawMessage, error) {
	r := h.routing
	if !wc.Deadline.IsZero() {
		// The caller's ctx ends at the deadline (the engine's and Invoke's
		// do, and tell that from other failures); this bounds the wait for
		// callers whose ctx does not, a little later.
		var cancel context.CancelFunc
		ctx, cancel = h.untilDeadline(ctx, wc.Deadline.Add(deadlineGrace))
		defer cancel()
	}
	sub := r.Store.Notifier().Subscribe(store.ToolResultTopic(tenant, wc.ID))
	defer sub.Close()
	served, err := h.servedElsewhere(ctx, tenant, wc.Name)
	if err != nil {
		return nil, err
	}
	var call store.ToolCall
	if served {
		if call, err = h.enqueue(ctx, tenant, wc); err != nil {
			return nil, err
		}
	} else {
		// Nobody serves the tool now, but a result recorded before (or a
		// replica still holding the call) answers it all the same.
		found := false
		if call, found, err = r.Store.GetToolCall(ctx, tenant, wc.ID); err != nil {
			return nil, err
		}
		if !found || !(call.Done || h.claimLive(call)) {
			return nil, noWorker(wc.Name)
		}
	}
	poll := time.NewTicker(r.WaitPoll)
	defer poll.Stop()
	for !call.Done {
		select {
		case <-sub.C():
		case <-poll.C:
			if !h.claimLive(call) {
				served, err := h.servedElsewhere(ctx, tenant, wc.Name)
				if err == nil && !served {
					if gone, err := r.Store.AbandonToolCall(ctx, tenant, wc.ID, r.Clock.Now()); err == nil && gone {
						return nil, noWorker(wc.Name)
					}
				}
			}
		case <-ctx.Done():
			h.abandon(ctx, tenant, wc.ID)
			return nil, ctx.Err()
		}
		next, found, err := r.Store.GetToolCall(ctx, tenant, wc.ID)
		switch {
		case ctx.Err() != nil:
			h.abandon(ctx, tenant, wc.ID)
			return nil, ctx.Err()
		case err != nil:
			// The store is out of reach: wait on, and read again.
		case !found:
			// Pruned or abandoned meanwhile: enqueue it again.
			if next, err = h.enqueue(ctx, tenant, wc); err == nil {
				call = next
			}
		default:
			call = next
		}
	}
	if f := call.Result.Failure; f != nil {
		return nil, errs.ToolFailure(wc.Name, f.Message, f.Retryable, 0)
	}
	return json.RawMessage(call.Result.Output), nil
}

// deadlineGrace is how long past a call's deadline a caller whose ctx has
// no deadline waits for its result.
const deadlineGrace = time.Second

// enqueue stores a call for another replica, or returns the stored one.
func (h *Hub) enqueue(ctx context.Context, tenant string, wc Call) (store.ToolCall, error) {
	r := h.routing
	args := wc.Arguments
	if len(args) == 0 {
		args = json.RawMessage(`{}`)
	}
	c, _, err := r.Store.EnqueueToolCall(ctx, store.ToolCall{
		Tenant: tenant, CallID: wc.ID, RunID: wc.RunID, Tool: wc.Name, Arguments: args,
		Deadline: wc.Deadline, CreateTime: r.Clock.Now(), TraceParent: wc.TraceParent,
	})
	return c, err
}

// abandon deletes a call its caller stopped waiting for, unless a replica
// holds it (its result may still serve a retry) or it is done.
func (h *Hub) abandon(ctx context.Context, tenant, callID string) {
	r := h.routing
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	if _, err := r.Store.AbandonToolCall(actx, tenant, callID, r.Clock.Now()); err != nil {
		r.Log.Debug("abandoning a tool call failed; it is pruned later", "callId", callID, "err", err)
	}
}

// claimLive reports whether a replica holds the call under a live claim.
func (h *Hub) claimLive(c store.ToolCall) bool {
	return c.Owner != "" && c.ClaimExpires.After(h.routing.Clock.Now())
}

// servedElsewhere reports whether another live replica advertises the
// tenant's tool.
func (h *Hub) servedElsewhere(ctx context.Context, tenant, name string) (bool, error) {
	tools, err := h.remoteTools(ctx, tenant)
	if err != nil {
		return false, err
	}
	for _, t := range tools {
		if t.Tool == name {
			return true, nil
		}
	}
	return false, nil
}

// remoteTools returns the tenant's tools other live replicas advertise.
func (h *Hub) remoteTools(ctx context.Context, tenant string) ([]store.ServedTool, error) {
	r := h.routing
	if r == nil {
		return nil, nil
	}
	return r.Store.ServedTools(ctx, tenant, r.Clock.Now(), r.Replica)
}

// AllTools lists, by name, the tools the tenant's workers serve, whether
// connected to this process or, for a routed Hub, to another live
// replica; Workers counts them all. It fails only when the store does.
func (h *Hub) AllTools(ctx context.Context, tenant string) ([]ToolInfo, error) {
	local := h.Tools(tenant)
	remote, err := h.remoteTools(ctx, tenant)
	if err != nil || len(remote) == 0 {
		return local, err
	}
	byName := map[string]*ToolInfo{}
	for i := range local {
		byName[local[i].Name] = &local[i]
	}
	for _, t := range remote {
		if info, ok := byName[t.Tool]; ok {
			info.Workers += t.Workers
			continue
		}
		info := &ToolInfo{Definition: Definition{Name: t.Tool, Description: t.Description}, Workers: t.Workers}
		if len(t.Parameters) > 0 {
			info.Parameters = json.RawMessage(t.Parameters)
		}
		byName[t.Tool] = info
	}
	return sortedByName(byName), nil
}

// ServesAnywhere reports whether a worker of the tenant serves a tool,
// connected to this process or to another live replica.
func (h *Hub) ServesAnywhere(ctx context.Context, tenant, name string) (bool, error) {
	if h.Serves(tenant, name) {
		return true, nil
	}
	if h.routing == nil {
		return false, nil
	}
	return h.servedElsewhere(ctx, tenant, name)
}

// AllToolNames lists the names of the tools AllTools lists.
func (h *Hub) AllToolNames(ctx context.Context, tenant string) ([]string, error) {
	tools, err := h.AllTools(ctx, tenant)
	return names(tools), err
}

// Describe implements tool.Describer: the description and schema the
// tenant's first worker serving the tool registered, from a worker of this
// process when one serves it, or else from another live replica's.
func (h *Hub) Describe(ctx context.Context, tenant, name string) (tool.Description, bool, error) {
	for _, t := range h.Tools(tenant) {
		if t.Name == name {
			return tool.Description{Description: t.Description, Parameters: t.Parameters}, true, nil
		}
	}
	remote, err := h.remoteTools(ctx, tenant)
	if err != nil {
		return tool.Description{}, false, err
	}
	for _, t := range remote {
		if t.Tool == name {
			d := tool.Description{Description: t.Description}
			if len(t.Parameters) > 0 {
				d.Parameters = json.RawMessage(t.Parameters)
			}
			return d, true, nil
		}
	}
	return tool.Description{}, false, nil
}

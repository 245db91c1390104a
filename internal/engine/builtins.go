package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/ids"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/tool"
)

// Memory is the shared memory the memory built-ins read and write.
type Memory interface {
	// Set writes key in a memory.
	Set(ctx context.Context, tenant, namespace, key string, value json.RawMessage) (store.Entry, error)
	// Get reads keys, waiting up to wait for each missing one.
	Get(ctx context.Context, tenant, namespace string, keys []string, wait time.Duration) ([]store.Entry, error)
	// FamilyNamespace names the memory of a Run family by its root.
	FamilyNamespace(rootRunID string) string
}

// Bus sends messages for the bus_send built-in.
type Bus interface {
	// Send sends content from a robot (Spec) to a channel.
	Send(ctx context.Context, tenant, sender, channel string, content json.RawMessage, inReplyTo string) (store.BusMessage, error)
}

// builtinTool is a built-in tool as the model is offered it.
func builtinTool(name string, s *spec.Version) spec.Tool {
	t := spec.Tool{Name: name, Kind: spec.KindBuiltin}
	if declared, ok := s.Tool(name); ok {
		t = declared
	}
	var schema any
	switch name {
	case spec.BuiltinAskUser:
		t.Description = "Ask the user a question and wait for the answer."
		schema = object(map[string]any{"question": str("The question.")}, "question")
	case spec.BuiltinDelegate:
		t.Description = "Hand a task to another agent and wait for its answer."
		schema = object(map[string]any{
			"to":   map[string]any{"type": "string", "enum": s.Delegates, "description": delegateToDescription(s.Delegates)},
			"task": str("What the agent should do."),
		}, "to", "task")
	case spec.BuiltinMemoryGet:
		t.Description = "Read values from the memory this run shares with its family, optionally waiting for them."
		schema = object(map[string]any{
			"keys":         map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
			"wait_seconds": map[string]any{"type": "number", "description": "How long to wait for each missing key."},
		}, "keys")
	case spec.BuiltinMemorySet:
		t.Description = "Write a value to the memory this run shares with its family."
		schema = object(map[string]any{"key": str("The key."), "value": map[string]any{"description": "Any JSON value."}}, "key", "value")
	case spec.BuiltinBusSend:
		t.Description = "Send a message to another agent's channel."
		schema = object(map[string]any{"channel": str("The channel."), "content": map[string]any{"description": "Any JSON value."}, "in_reply_to": str("The message this replies to.")}, "channel", "content")
	case spec.BuiltinSleep:
		t.Description = fmt.Sprintf("Pause this run for a while (at most %s), then go on; nothing runs meanwhile.", s.EffectiveMaxSleep())
		schema = object(map[string]any{"duration": str(`How long, e.g. "90s", "15m" or "2h30m".`)}, "duration")
	case spec.BuiltinMCPReadResource:
		t.Description = "Read a resource (its URI) of one of your MCP servers."
		schema = object(map[string]any{"server": str("The MCP server: an entry of mcp_servers, or the name of an MCP tool."), "uri": str("The resource's URI.")}, "server", "uri")
	case spec.BuiltinWaitUntil:
		t.Description = fmt.Sprintf("Pause this run until a time (at most %s from now), then go on; nothing runs meanwhile.", s.EffectiveMaxSleep())
		schema = object(map[string]any{"time": str(`An RFC 3339 time, e.g. "2026-01-02T15:04:05Z".`)}, "time")
	}
	if len(t.Parameters) == 0 && schema != nil {
		t.Parameters, _ = json.Marshal(schema)
	}
	return t
}

func object(props map[string]any, required ...string) map[string]any {
	return map[string]any{"type": "object", "properties": props, "required": required}
}

func str(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }

// builtinCalls runs the built-in tools that run in place (memory and bus)
// for calls made at one site: it is their tool.Executor. ask_user and
// delegate are not made here: their execution is the Run's suspension.
type builtinCalls struct {
	e    *Engine
	site callSite
}

// builtins returns the executor of the built-in tool name at site, or
// what is missing for it.
func (e *Engine) builtins(site callSite, name string) (tool.Executor, error) {
	switch name {
	case spec.BuiltinMemoryGet, spec.BuiltinMemorySet:
		if e.Memory == nil {
			return nil, &errs.DependencyMissing{Dependency: "memory", Description: "this runsvc has no memory service"}
		}
	case spec.BuiltinBusSend:
	case spec.BuiltinMCPReadResource:
		if _, err := e.resourceReader(); err != nil {
			return nil, err
		}
	default:
		return nil, &errs.ToolRejected{Tool: name, Message: "no such built-in tool"}
	}
	return builtinCalls{e: e, site: site}, nil
}

// Execute makes a call of a built-in tool.
func (b builtinCalls) Execute(ctx context.Context, c tool.Call) (json.RawMessage, error) {
	switch c.Name {
	case spec.BuiltinMemorySet:
		return b.memorySet(ctx, c)
	case spec.BuiltinMemoryGet:
		return b.memoryGet(ctx, c)
	case spec.BuiltinBusSend:
		return b.busSend(ctx, c)
	case spec.BuiltinMCPReadResource:
		return b.readResource(ctx, c)
	}
	return nil, &errs.ToolRejected{Tool: c.Name, Message: "no such built-in tool"}
}

func (b builtinCalls) memorySet(ctx context.Context, c tool.Call) (json.RawMessage, error) {
	var args struct {
		Key   string          `json:"key"`
		Value json.RawMessage `json:"value"`
	}
	if json.Unmarshal(c.Arguments, &args) != nil || args.Key == "" || len(args.Value) == 0 {
		return nil, &errs.ToolRejected{Tool: c.Name, Message: `memory_set needs {"key": "...", "value": ...}`}
	}
	ns := b.e.Memory.FamilyNamespace(b.site.family)
	e, err := b.e.Memory.Set(ctx, b.site.tenant, ns, args.Key, args.Value)
	if err != nil {
		return nil, err
	}
	return json.Marshal(map[string]any{"key": e.Key, "version": e.Version})
}

func (b builtinCalls) memoryGet(ctx context.Context, c tool.Call) (json.RawMessage, error) {
	var args struct {
		Keys        []string `json:"keys"`
		WaitSeconds float64  `json:"wait_seconds"`
	}
	if json.Unmarshal(c.Arguments, &args) != nil || len(args.Keys) == 0 || args.WaitSeconds < 0 {
		return nil, &errs.ToolRejected{Tool: c.Name, Message: `memory_get needs {"keys": ["..."]} and an optional non-negative wait_seconds`}
	}
	ns := b.e.Memory.FamilyNamespace(b.site.family)
	entries, err := b.e.Memory.Get(ctx, b.site.tenant, ns, args.Keys, time.Duration(args.WaitSeconds*float64(time.Second)))
	if err != nil {
		return nil, err
	}
	values := make(map[string]json.RawMessage, len(entries))
	for _, e := range entries {
		values[e.Key] = e.Value
	}
	return json.Marshal(values)
}

func (b builtinCalls) busSend(ctx context.Context, c tool.Call) (json.RawMessage, error) {
	sv := b.site.sv
	if b.e.Bus == nil || sv == nil || !sv.Bus.Enabled {
		return nil, &errs.BusNotConfigured{Robot: b.site.specName()}
	}
	var args struct {
		Channel   string          `json:"channel"`
		Content   json.RawMessage `json:"content"`
		InReplyTo string          `json:"in_reply_to"`
	}
	if json.Unmarshal(c.Arguments, &args) != nil || args.Channel == "" || len(args.Content) == 0 {
		return nil, &errs.ToolRejected{Tool: c.Name, Message: `bus_send needs {"channel": "...", "content": ...}`}
	}
	m, err := b.e.Bus.Send(ctx, b.site.tenant, sv.Name, args.Channel, args.Content, args.InReplyTo)
	if err != nil {
		return nil, err
	}
	return json.Marshal(map[string]string{"message_id": m.MessageID})
}

// delegateToDescription describes the delegate tool's "to": the agents
// as the Spec lists them, an entry name@alias being the Version the
// agent's alias names when the child starts.
func delegateToDescription(delegates []string) string {
	if !slices.ContainsFunc(delegates, func(d string) bool { return strings.Contains(d, "@") }) {
		return "The agent."
	}
	return "The agent, exactly as listed; agent@alias runs the version of the agent that its alias names."
}

type delegateArgs struct {
	To   string `json:"to"`
	Task string `json:"task"`
}

// delegate answers a delegate call from its child's ending, or starts the
// children of this and the following delegate calls of the turn and waits
// for them together.
func (a *attempt) delegate(ctx context.Context, c *runlog.Call, decl spec.Tool) error {
	if c.DelegationID != "" {
		d := a.state.Delegation(c.DelegationID)
		if d.Finished != nil {
			out, failure := childOutcome(d)
			return a.answer(ctx, c, decl, out, failure)
		}
		return a.awaitChildren(ctx)
	}
	if _, err := a.delegateArgs(c); err != nil {
		return a.answer(ctx, c, decl, nil, err)
	}
	limits := a.spec.Limits.Effective()
	started := 0
	for _, d := range a.state.Delegations {
		if d.CallID != "" && a.state.Call(d.CallID) != nil {
			started++
		}
	}
	var ops []runlog.Op
	for _, other := range a.state.Calls {
		if other.Finished || other.DelegationID != "" || other.Name != spec.BuiltinDelegate {
			continue
		}
		oa, err := a.delegateArgs(other)
		if err != nil {
			if other == c {
				return a.answer(ctx, c, decl, nil, err)
			}
			continue
		}
		if started >= limits.MaxDelegationsPerTurn {
			if other == c {
				return a.answer(ctx, c, decl, nil, &errs.ToolRejected{Tool: c.Name, Message: fmt.Sprintf("this turn already started %d delegations, the most limits.max_delegations_per_turn allows", limits.MaxDelegationsPerTurn)})
			}
			continue
		}
		started++
		now := a.e.Clock.Now()
		ops = append(ops, &runlog.DelegationStarted{
			DelegationID: ids.New("dlg", now), ChildRunID: ids.New("run", now), Spec: oa.To, Task: oa.Task, CallID: other.ID,
		})
	}
	if err := a.append(ctx, false, ops...); err != nil {
		return err
	}
	return a.awaitChildren(ctx)
}

func (a *attempt) delegateArgs(c *runlog.Call) (delegateArgs, error) {
	var args delegateArgs
	if json.Unmarshal(c.Arguments, &args) != nil || args.To == "" || args.Task == "" {
		return args, &errs.ToolRejected{Tool: c.Name, Message: `delegate needs {"to": "<agent>", "task": "..."}`}
	}
	if !slices.Contains(a.spec.Delegates, args.To) {
		return args, &errs.ToolRejected{Tool: c.Name, Message: fmt.Sprintf("%q is not one of this agent's delegates (%v)", args.To, a.spec.Delegates)}
	}
	if max := a.spec.Limits.Effective().MaxDelegationDepth; a.state.Admission.Depth+1 > max {
		return args, &errs.ToolRejected{Tool: c.Name, Message: fmt.Sprintf("delegating would go %d levels deep; limits.max_delegation_depth is %d", a.state.Admission.Depth+1, max)}
	}
	return args, nil
}

// awaitChildren makes sure every unfinished child of this turn exists,
// catches up with any that settled, and suspends on the rest.
func (a *attempt) awaitChildren(ctx context.Context) error {
	var waiting []string
	for _, d := range a.state.Delegations {
		if d.Finished != nil || d.CallID == "" || a.state.Call(d.CallID) == nil {
			continue
		}
		child, _, err := a.e.Runs.Start(ctx, runs.StartRequest{
			Tenant: a.state.Admission.Tenant, RunID: d.ChildRunID, Spec: d.Spec, Input: d.Task,
			RequestID: "delegation:" + d.DelegationID,
			Parent:    &runs.Parent{RunID: a.state.RunID, RootRunID: a.state.Admission.RootRunID, DelegationID: d.DelegationID, Depth: a.state.Admission.Depth + 1},
		})
		if err != nil {
			stored := errs.Store(err, "")
			if err := a.append(ctx, false, &runlog.DelegationFinished{DelegationID: d.DelegationID, ChildRunID: d.ChildRunID, State: runlog.StatusFailed, Failure: &stored}); err != nil {
				return err
			}
			continue
		}
		if child.Settled() {
			if err := a.append(ctx, false, finishedFrom(d, child)); err != nil {
				return err
			}
			continue
		}
		waiting = append(waiting, d.DelegationID)
	}
	if len(waiting) == 0 {
		return nil
	}
	return a.suspend(ctx, &runlog.Suspended{Reason: runlog.ReasonChildren, DelegationIDs: waiting})
}

// catchUpChildren resumes a Run waiting on children that have all settled
// although nobody told it (their settling process died in between).
func (a *attempt) catchUpChildren(ctx context.Context) (bool, error) {
	var ops []runlog.Op
	for _, id := range a.state.Suspension.DelegationIDs {
		d := a.state.Delegation(id)
		if d == nil || d.Finished != nil {
			continue
		}
		child, err := a.e.Runs.Get(ctx, a.state.Admission.Tenant, d.ChildRunID)
		if err != nil {
			var nf *errs.RunNotFound
			if errors.As(err, &nf) {
				continue
			}
			return false, err
		}
		if !child.Settled() {
			return false, nil
		}
		ops = append(ops, finishedFrom(d, child))
	}
	ops = append(ops, &runlog.Resumed{Reason: runlog.ReasonChildren})
	if err := a.append(ctx, false, ops...); err != nil {
		return false, err
	}
	return true, nil
}

func finishedFrom(d *runlog.Delegation, child runs.Run) *runlog.DelegationFinished {
	return &runlog.DelegationFinished{DelegationID: d.DelegationID, ChildRunID: child.RunID, State: child.Status, Answer: child.Answer, Failure: child.Failure}
}

// childOutcome is a settled child's ending as the delegate call's result:
// its answer, or its failure as the tool's error.
func childOutcome(d *runlog.Delegation) (json.RawMessage, error) {
	f := d.Finished
	switch {
	case f.State == runlog.StatusCompleted:
		out, _ := json.Marshal(map[string]string{"agent": d.Spec, "answer": f.Answer})
		return out, nil
	case f.Failure != nil:
		return nil, f.Failure.Err()
	case f.State == runlog.StatusAborted:
		return nil, &errs.RunAborted{RunID: f.ChildRunID, State: string(f.State)}
	default:
		return nil, &errs.RunEndedWithoutAnswer{RunID: f.ChildRunID, State: string(f.State)}
	}
}

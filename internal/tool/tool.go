// Package tool is the port to everything that executes tool calls: client
// tools answered through ResumeRun, worker processes on ServeTools, http
// endpoints, MCP servers and built-ins.
//
// An Executor reports two kinds of failure differently. A failure of the
// tool itself is *errs.ToolRejected (it ran and said no) or *errs.ToolFailed
// (it failed and says another try may work), which the model sees as the
// call's result. A failure to reach the tool (no worker, connection lost,
// HTTP 5xx, 429, timeout) is a retryable error such as
// *errs.TransientFailure or *errs.MCPFailed, which the engine retries
// within the Run's retry budget.
package tool

import (
	"context"
	"encoding/json"
	"time"

	"github.com/runsvc/runsvc/internal/secret"
	"github.com/runsvc/runsvc/internal/spec"
)

// Call is one tool call to execute.
type Call struct {
	Tenant string
	RunID  string
	// CallID is stable across retries and takeovers: executors pass it on
	// so tools can deduplicate side effects.
	CallID    string
	Name      string
	Arguments json.RawMessage
	Deadline  time.Time
	// Tool is the Spec's declaration of the tool (for http and MCP tools:
	// where it lives).
	Tool spec.Tool
	// Credential is the resolved secret the tool's Spec entry names, if any.
	Credential string
	// Env is the resolved environment of a stdio MCP server (the Spec's
	// env entries, credentials replaced by their values), by name.
	Env map[string]string
	// Answer is a person's answer to the question the tool asked in an
	// earlier try of this call (see Asked): the executor gives it when the
	// tool asks again. Nil when nobody was asked.
	Answer *string
}

// Asked is the error of a call whose tool asked a question runsvc cannot
// answer itself (an MCP server's elicitation): a Run suspends QUESTION on
// it and, once answered, makes the call again with Call.Answer.
// Elsewhere (InvokeTool) the call fails.
type Asked struct {
	Question string
}

func (a *Asked) Error() string { return "the tool asked a question: " + a.Question }

// GlobalID identifies the call across Runs, stable across its retries:
// RunID/CallID, or CallID alone for a call made outside a Run. Executors
// hand it to tools so they can deduplicate side effects.
func (c Call) GlobalID() string {
	if c.RunID == "" {
		return c.CallID
	}
	return c.RunID + "/" + c.CallID
}

// Executor executes calls of one kind of tool.
type Executor interface {
	// Execute runs a call and returns its output, a JSON value.
	Execute(ctx context.Context, c Call) (json.RawMessage, error)
}

// ResolveEnv resolves the environment of a stdio MCP server: each
// variable's literal value, or the value of its credential in scope. A
// credential that does not resolve is *errs.CredentialNotFound.
func ResolveEnv(ctx context.Context, secrets secret.Resolver, scope string, vars []spec.EnvVar) (map[string]string, error) {
	if len(vars) == 0 {
		return nil, nil
	}
	env := make(map[string]string, len(vars))
	for _, v := range vars {
		if v.Credential == "" {
			env[v.Name] = v.Value
			continue
		}
		val, err := secrets.Resolve(ctx, scope, v.Credential)
		if err != nil {
			return nil, err
		}
		env[v.Name] = val
	}
	return env, nil
}

// Description is what the provider of a tool says about it: what it does
// and its arguments' JSON Schema. A worker registers one for each tool it
// serves; an MCP server lists them.
type Description struct {
	Description string
	Parameters  json.RawMessage
}

// Describer is an Executor that knows what the tools it runs say about
// themselves. The engine offers the model a tool's description and schema
// from it when the Spec declares none.
type Describer interface {
	// Describe returns the description of the tenant's tool, and false
	// when no provider of it is known. It fails only when a store does.
	Describe(ctx context.Context, tenant, name string) (Description, bool, error)
}

// ResourceReader is an Executor that also reads the resources of the
// servers its tools live on (MCP).
type ResourceReader interface {
	// ReadResource reads the resource uri of the server c.Tool names
	// (c.Name names the reading tool), as Execute calls a tool there.
	ReadResource(ctx context.Context, c Call, uri string) (json.RawMessage, error)
}

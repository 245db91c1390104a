// Package spec holds the agent Spec: what an agent is told, which model it
// calls, its tools, delegates and limits, and the validation a Spec passes
// once, at publish. A published Spec is an immutable Version named by the
// hash of its content.
package spec

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"
)

// Spec is an agent's definition. Zero limits mean the defaults; see
// Effective.
type Spec struct {
	Name         string   `json:"name"`
	Instructions string   `json:"instructions,omitempty"`
	Model        Model    `json:"model"`
	Tools        []Tool   `json:"tools,omitempty"`
	Delegates    []string `json:"delegates,omitempty"`
	Limits       Limits   `json:"limits"`
	Expiry       Expiry   `json:"suspensionExpiry"`
	Credentials  []string `json:"credentials,omitempty"`
	Bus          Bus      `json:"bus"`
	// ThreadStrategy is what a start on a thread with an active Run does
	// when the request names none: reject (the default), enqueue,
	// interrupt or steer.
	ThreadStrategy string `json:"threadStrategy,omitempty"`
	// Retention is nil when the Spec sets none, so that Specs published
	// before it existed keep their hash.
	Retention *Retention `json:"retention,omitempty"`
	// MCPServers are MCP servers whose tools Publish imports into Tools.
	MCPServers []MCPServer `json:"mcpServers,omitempty"`
	// Output constrains the final answer; nil leaves it free text.
	Output *Output `json:"output,omitempty"`
	// Compaction, when set, summarises older turns that would not fit
	// the model's context window.
	Compaction *Compaction `json:"compaction,omitempty"`
	// Timers bounds the sleep and wait_until tools; nil takes the
	// defaults (and keeps the hash of Specs published before it existed).
	Timers *Timers `json:"timers,omitempty"`
	// Concurrency limits the Runs active at once per key; nil for no
	// limit (and the hash of Specs published before it existed).
	Concurrency *Concurrency `json:"concurrency,omitempty"`
	// Exposure serves the Spec through the agent protocols; nil serves it
	// through runsvc's API only (and keeps the hash of Specs published
	// before it existed).
	Exposure *Exposure `json:"exposure,omitempty"`
}

// Exposure names the agent protocols a Spec is served on (DESIGN §14).
type Exposure struct {
	// A2A serves the Spec as an A2A agent.
	A2A bool `json:"a2a,omitempty"`
	// MCP serves the Spec as a tool of runsvc's MCP server.
	MCP bool `json:"mcp,omitempty"`
	// Description is what the agent does, for other agents and MCP hosts.
	Description string `json:"description,omitempty"`
	// Alias is the alias whose Version the protocols' Runs take; empty,
	// the newest Version.
	Alias string `json:"alias,omitempty"`
}

// MaxExposureDescription bounds Exposure.Description, in characters.
const MaxExposureDescription = 1024

// Timers bounds the built-in timer tools, sleep and wait_until.
type Timers struct {
	// MaxSleep is the longest one call may sleep; zero means
	// DefaultMaxSleep.
	MaxSleep time.Duration `json:"maxSleep,omitempty"`
}

// EffectiveMaxSleep is the longest one sleep or wait_until call may wait.
func (s *Spec) EffectiveMaxSleep() time.Duration {
	if s.Timers == nil || s.Timers.MaxSleep == 0 {
		return DefaultMaxSleep
	}
	return s.Timers.MaxSleep
}

// Output is what a Spec requires of a Run's final answer.
type Output struct {
	// Schema is the JSON Schema the final answer, a JSON value, must match.
	Schema json.RawMessage `json:"schema,omitempty"`
}

// Retention says how long settled Runs of a Spec are kept.
type Retention struct {
	// SettledRuns is how long after settling a Run is kept; zero: the
	// server's retention.
	SettledRuns time.Duration `json:"settledRuns,omitempty"`
	// DeleteMemory deletes the family memory a root Run owns with it.
	DeleteMemory bool `json:"deleteMemory,omitempty"`
}

// Model providers.
const (
	ProviderScripted = "scripted"
	ProviderOpenAI   = "openai"
	// ProviderAnthropic is Anthropic's Messages API.
	ProviderAnthropic = "anthropic"
)

// Tool choices besides a tool's name: the model decides (auto), calls no
// tool (none), or must call one (required).
const (
	ToolChoiceAuto     = "auto"
	ToolChoiceNone     = "none"
	ToolChoiceRequired = "required"
)

// Model is the model a Spec calls.
type Model struct {
	Provider         string        `json:"provider"`
	Model            string        `json:"model,omitempty"`
	Script           []Turn        `json:"script,omitempty"`
	BaseURL          string        `json:"baseUrl,omitempty"`
	APIKeyCredential string        `json:"apiKeyCredential,omitempty"`
	Pricing          *Pricing      `json:"pricing,omitempty"`
	CallTimeout      time.Duration `json:"callTimeout,omitempty"`
	// Temperature and TopP are the sampling controls; nil leaves the
	// provider's default.
	Temperature *float64 `json:"temperature,omitempty"`
	TopP        *float64 `json:"topP,omitempty"`
	// MaxOutputTokens bounds each answer's output tokens; zero means only
	// the token budget bounds it.
	MaxOutputTokens int64 `json:"maxOutputTokens,omitempty"`
	// Stop lists sequences that end the answer.
	Stop []string `json:"stop,omitempty"`
	// ToolChoice is auto, none, required or the name of a tool the model
	// must call; empty leaves the provider's default.
	ToolChoice string `json:"toolChoice,omitempty"`
	// ParallelToolCalls allows (or, false, forbids) several tool calls in
	// one answer; nil leaves the provider's default.
	ParallelToolCalls *bool `json:"parallelToolCalls,omitempty"`
	// ContextWindow is the model's context window in tokens; 0 uses the
	// known default for its name (see Window).
	ContextWindow int64 `json:"contextWindow,omitempty"`
	// Fallbacks are the models a call moves to, in order, when this one
	// fails in a way another may not (see fallbacks.go).
	Fallbacks []Model `json:"fallbacks,omitempty"`
	// FallbackRetryAfterOver is the Retry-After above which a rate limit
	// falls back rather than waits; zero means DefaultFallbackRetryAfterOver.
	FallbackRetryAfterOver time.Duration `json:"fallbackRetryAfterOver,omitempty"`
	// FallbackOnRejected falls back on INFERENCE_REJECTED too.
	FallbackOnRejected bool `json:"fallbackOnRejected,omitempty"`
}

// Pricing is dollars per million tokens.
type Pricing struct {
	InputPerMillion  float64 `json:"inputPerMillion"`
	OutputPerMillion float64 `json:"outputPerMillion"`
}

// Cost returns the price of a call's tokens.
func (p *Pricing) Cost(input, output int64) float64 {
	return (float64(input)*p.InputPerMillion + float64(output)*p.OutputPerMillion) / 1e6
}

// Turn is one response of a scripted model.
type Turn struct {
	Text      string        `json:"text,omitempty"`
	ToolCalls []ScriptCall  `json:"toolCalls,omitempty"`
	Usage     Usage         `json:"usage"`
	Fail      *Failure      `json:"fail,omitempty"`
	Delay     time.Duration `json:"delay,omitempty"`
}

// ScriptCall is a tool call a scripted turn makes.
type ScriptCall struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

// Usage is a token count.
type Usage struct {
	InputTokens  int64 `json:"inputTokens,omitempty"`
	OutputTokens int64 `json:"outputTokens,omitempty"`
}

// Failure is an injected model failure: the first Times calls of a turn fail
// with HTTPStatus.
type Failure struct {
	HTTPStatus int           `json:"httpStatus"`
	RetryAfter time.Duration `json:"retryAfter,omitempty"`
	Times      int           `json:"times,omitempty"`
	Message    string        `json:"message,omitempty"`
}

// Kind says who executes a tool.
type Kind string

// Tool kinds.
const (
	KindClient  Kind = "client"
	KindWorker  Kind = "worker"
	KindHTTP    Kind = "http"
	KindMCP     Kind = "mcp"
	KindBuiltin Kind = "builtin"
	// KindA2A delegates to a remote A2A agent (see A2ATool).
	KindA2A Kind = "a2a"
)

// Tool is a tool the model may call.
type Tool struct {
	Name         string          `json:"name"`
	Kind         Kind            `json:"kind"`
	Description  string          `json:"description,omitempty"`
	Parameters   json.RawMessage `json:"parameters,omitempty"`
	RaiseOnError bool            `json:"raiseOnError,omitempty"`
	HTTP         *HTTPTool       `json:"http,omitempty"`
	MCP          *MCPTool        `json:"mcp,omitempty"`
	A2A          *A2ATool        `json:"a2a,omitempty"`
	Timeout      time.Duration   `json:"timeout,omitempty"`
	// Delivery is how often runsvc may make one call; "" is AtLeastOnce.
	Delivery Delivery `json:"delivery,omitempty"`
	// InDoubt is what happens to an at-most-once call in doubt; "" is
	// InDoubtTellModel.
	InDoubt InDoubt `json:"inDoubt,omitempty"`
	// Pure declares the tool free of side effects: a replay may make a
	// call to it that the recording does not hold (pure.go).
	Pure bool `json:"pure,omitempty"`
}

// HTTPTool is where an http tool POSTs.
type HTTPTool struct {
	URL        string `json:"url"`
	Credential string `json:"credential,omitempty"`
}

// MCPTool is the MCP server an mcp tool lives on: one reached over
// streamable HTTP at URL, or one runsvc runs as Command and speaks to over
// stdio. Credential is the bearer token of an HTTP server.
type MCPTool struct {
	URL        string `json:"url"`
	RemoteName string `json:"remoteName,omitempty"`
	Credential string `json:"credential,omitempty"`
	// Command, Args and Env start a stdio server (see MCPServer).
	Command string   `json:"command,omitempty"`
	Args    []string `json:"args,omitempty"`
	Env     []EnvVar `json:"env,omitempty"`
	// Server is the MCPServers entry the tool was imported from; Publish
	// sets it.
	Server string `json:"server,omitempty"`
}

// Limits bound every Run of a Spec.
type Limits struct {
	MaxToolRounds         int           `json:"maxToolRounds,omitempty"`
	MaxTurns              int           `json:"maxTurns,omitempty"`
	Deadline              time.Duration `json:"deadline,omitempty"`
	TokenBudget           int64         `json:"tokenBudget,omitempty"`
	CostBudget            float64       `json:"costBudget,omitempty"`
	TransientRetryBudget  int           `json:"transientRetryBudget,omitempty"`
	MaxDelegationDepth    int           `json:"maxDelegationDepth,omitempty"`
	MaxDelegationsPerTurn int           `json:"maxDelegationsPerTurn,omitempty"`
	// OnExhausted is what a Run does when the token budget, the cost
	// budget or max_tool_rounds would be exceeded: "" or BudgetFail fails
	// it, BudgetAsk suspends it for APPROVAL of a new limit.
	OnExhausted BudgetAction `json:"onExhausted,omitempty"`
}

// Expiry says how long each kind of suspension waits.
type Expiry struct {
	ToolResults time.Duration `json:"toolResults,omitempty"`
	Approval    time.Duration `json:"approval,omitempty"`
	Question    time.Duration `json:"question,omitempty"`
	Children    time.Duration `json:"children,omitempty"`
}

// Bus is a Spec's message bus.
type Bus struct {
	Enabled  bool     `json:"enabled,omitempty"`
	Channels []string `json:"channels,omitempty"`
}

// Defaults.
const (
	DefaultMaxToolRounds         = 25
	DefaultMaxTurns              = 50
	DefaultDeadline              = 15 * time.Minute
	MaxDeadline                  = 24 * time.Hour
	DefaultTransientRetryBudget  = 5
	DefaultMaxDelegationDepth    = 3
	DefaultMaxDelegationsPerTurn = 8
	DefaultToolResultsExpiry     = time.Hour
	DefaultApprovalExpiry        = 24 * time.Hour
	DefaultQuestionExpiry        = 24 * time.Hour
	DefaultChildrenExpiry        = time.Hour
	DefaultToolTimeout           = 30 * time.Second
	DefaultModelCallTimeout      = 60 * time.Second
	// DefaultMaxSleep bounds a sleep or wait_until call when the Spec's
	// timers set none; a call never sleeps past the Run's deadline either.
	DefaultMaxSleep = time.Hour
)

// Effective returns the limits with defaults filled in. A retry budget of
// -1 becomes 0.
func (l Limits) Effective() Limits {
	def := func(v, d int) int {
		if v == 0 {
			return d
		}
		return v
	}
	out := l
	out.MaxToolRounds = def(l.MaxToolRounds, DefaultMaxToolRounds)
	out.MaxTurns = def(l.MaxTurns, DefaultMaxTurns)
	out.TransientRetryBudget = def(l.TransientRetryBudget, DefaultTransientRetryBudget)
	if out.TransientRetryBudget < 0 {
		out.TransientRetryBudget = 0
	}
	out.MaxDelegationDepth = def(l.MaxDelegationDepth, DefaultMaxDelegationDepth)
	out.MaxDelegationsPerTurn = def(l.MaxDelegationsPerTurn, DefaultMaxDelegationsPerTurn)
	if out.Deadline == 0 {
		out.Deadline = DefaultDeadline
	}
	return out
}

// Effective returns the expiries with defaults filled in.
func (e Expiry) Effective() Expiry {
	def := func(v, d time.Duration) time.Duration {
		if v == 0 {
			return d
		}
		return v
	}
	return Expiry{
		ToolResults: def(e.ToolResults, DefaultToolResultsExpiry),
		Approval:    def(e.Approval, DefaultApprovalExpiry),
		Question:    def(e.Question, DefaultQuestionExpiry),
		Children:    def(e.Children, DefaultChildrenExpiry),
	}
}

// Tool returns the declared tool named name.
func (s *Spec) Tool(name string) (Tool, bool) {
	for _, t := range s.Tools {
		if t.Name == name {
			return t, true
		}
	}
	return Tool{}, false
}

// Version is a published Spec.
type Version struct {
	Spec
	// Version is the hash of the Spec's canonical content.
	Version    string    `json:"version"`
	CreateTime time.Time `json:"createTime"`
}

// Hash returns the Version name of a Spec's content: equal Specs hash
// equally, whatever the key order of their JSON values.
func Hash(s Spec) string {
	b, err := json.Marshal(Canonical(s))
	if err != nil {
		panic("spec: hashing: " + err.Error())
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// Canonical returns s with its JSON values re-encoded with sorted keys and
// no insignificant space.
func Canonical(s Spec) Spec {
	out := s
	out.Tools = make([]Tool, len(s.Tools))
	for i, t := range s.Tools {
		t.Parameters = canonicalJSON(t.Parameters)
		out.Tools[i] = t
	}
	out.Model.Script = make([]Turn, len(s.Model.Script))
	for i, turn := range s.Model.Script {
		calls := make([]ScriptCall, len(turn.ToolCalls))
		for j, c := range turn.ToolCalls {
			c.Arguments = canonicalJSON(c.Arguments)
			calls[j] = c
		}
		turn.ToolCalls = calls
		out.Model.Script[i] = turn
	}
	if len(out.Tools) == 0 {
		out.Tools = nil
	}
	if s.Output != nil {
		out.Output = &Output{Schema: canonicalJSON(s.Output.Schema)}
	}
	if len(out.Model.Script) == 0 {
		out.Model.Script = nil
	}
	return out
}

func canonicalJSON(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // keep integers beyond float64's precision exact
	var v any
	if err := dec.Decode(&v); err != nil {
		return raw
	}
	b, err := json.Marshal(v)
	if err != nil {
		return raw
	}
	return b
}

// A2ATool is the remote A2A agent an a2a tool delegates to: found through
// its agent card at CardURL, or reached directly at URL (exactly one).
type A2ATool struct {
	CardURL string `json:"cardUrl,omitempty"`
	URL     string `json:"url,omitempty"`
	// Binding is the protocol binding as an agent card names it: "" or
	// A2ABindingJSONRPC, or A2ABindingHTTPJSON.
	Binding    string `json:"binding,omitempty"`
	Credential string `json:"credential,omitempty"`
	// PollInterval is how long runsvc waits between two reads of a working
	// remote task; 0 is DefaultA2APollInterval.
	PollInterval time.Duration `json:"pollInterval,omitempty"`
}

// A2A protocol bindings an a2a tool speaks, as agent cards name them.
const (
	A2ABindingJSONRPC  = "JSONRPC"
	A2ABindingHTTPJSON = "HTTP+JSON"
)

// A2A polling bounds.
const (
	DefaultA2APollInterval = time.Second
	minA2APollInterval     = 10 * time.Millisecond
	maxA2APollInterval     = time.Minute
)

// EffectiveBinding is the binding a2a calls use: Binding, or JSON-RPC.
func (a A2ATool) EffectiveBinding() string {
	if a.Binding == "" {
		return A2ABindingJSONRPC
	}
	return a.Binding
}

// EffectivePollInterval is PollInterval, or its default.
func (a A2ATool) EffectivePollInterval() time.Duration {
	if a.PollInterval == 0 {
		return DefaultA2APollInterval
	}
	return a.PollInterval
}

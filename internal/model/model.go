// Package model is the port to language models: a Request holding the
// conversation and the tools on offer, a Response holding text, tool calls
// and usage. Providers (scripted, openai) live in subpackages.
//
// A provider returns *errs.InferenceRateLimited for a rate limit,
// *errs.InferenceFailed for a failure another try may fix,
// *errs.InferenceRejected when the provider refused the request itself,
// and *errs.CredentialNotFound when the key it
// needs did not resolve. It never returns a bare error for a failed call.
package model

import (
	"context"
	"encoding/json"
	"time"

	"github.com/runsvc/runsvc/internal/spec"
)

// Roles of messages.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// Message is one entry of the conversation.
type Message struct {
	Role string
	Text string
	// ToolCalls are an assistant message's calls.
	ToolCalls []ToolCall
	// CallID and Name identify the call a tool message answers.
	CallID string
	Name   string
}

// ToolCall is a call the model asks for.
type ToolCall struct {
	ID        string
	Name      string
	Arguments json.RawMessage
}

// Tool is a tool offered to the model.
type Tool struct {
	Name        string
	Description string
	Parameters  json.RawMessage
}

// Request is one model call.
type Request struct {
	// RunID is the Run making the call.
	RunID string
	// Turn is the turn, from 1; Attempt counts calls for this turn, from 1.
	Turn    int
	Attempt int
	// Model is the Spec's model reference.
	Model spec.Model
	// APIKey is the resolved credential, if the model names one.
	APIKey   string
	Messages []Message
	Tools    []Tool
	// MaxTokens bounds the answer's output tokens: the smaller of the
	// Spec's max_output_tokens and what remains of the Run's token budget;
	// zero means no bound. Providers send it on every request.
	MaxTokens int64
	// OutputSchema is the JSON Schema the final answer must match, or nil.
	OutputSchema json.RawMessage
	// OnDelta, when set, is told each piece of the answer as the provider
	// streams it, in order, before Complete returns; the Response still
	// holds the whole answer. It must not block for long: the provider
	// calls it from the goroutine reading the stream.
	OnDelta func(Delta)
	// OnWait, when set, is told what the call waits on before the
	// provider is called ("rate_limit:<provider>/<credential>") when it
	// starts waiting, and "" when it stops; a call that waits for nothing
	// tells nothing.
	OnWait func(what string)
}

// Delta is one piece of a streamed answer: text appended to the answer,
// or a piece of a tool call.
type Delta struct {
	// Text is text appended to the answer.
	Text string
	// ToolCall is a piece of a tool call, when set.
	ToolCall *ToolCallDelta
}

// ToolCallDelta is a piece of the tool call at Index (from 0, in the order
// the model issued its calls): ID and Name arrive once, Arguments is a
// fragment appended to the call's arguments so far.
type ToolCallDelta struct {
	Index     int
	ID        string
	Name      string
	Arguments string
}

// Emit tells req.OnDelta about d, when anyone listens.
func (req Request) Emit(d Delta) {
	if req.OnDelta != nil {
		req.OnDelta(d)
	}
}

// Usage is what a call consumed.
type Usage struct {
	InputTokens  int64
	OutputTokens int64
}

// Response is the model's answer.
type Response struct {
	Text      string
	ToolCalls []ToolCall
	Usage     Usage
	// RateLimitWait is how long the call waited for the provider's rate
	// limit before it was sent (set by ratelimit.Limiter).
	RateLimitWait time.Duration
	// Limits is what the provider's rate-limit headers said, when it sent
	// them; the rate limiter learns from it.
	Limits *RateLimitHeaders
}

// RateLimitHeaders is what a provider's x-ratelimit-* headers said: the
// requests and tokens left in its window and when each is reset, and the
// requests the credential may make a minute. A negative Remaining means
// the header was absent; so does a LimitRequests of 0.
type RateLimitHeaders struct {
	RemainingRequests int64
	ResetRequests     time.Duration
	RemainingTokens   int64
	ResetTokens       time.Duration
	LimitRequests     int64
}

// Model makes model calls.
type Model interface {
	// Complete makes one call.
	Complete(ctx context.Context, req Request) (Response, error)
}

// Providers maps provider names to models.
type Providers map[string]Model

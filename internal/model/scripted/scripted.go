// Package scripted is the embedded default model: it returns the turns a
// Spec's script lists, in order, deterministically, including injected
// failures, so every path of the agent loop runs without a network model.
package scripted

import (
	"context"
	"fmt"
	"strings"

	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/spec"
)

// Model plays scripts.
type Model struct {
	clock clock.Clock
}

// New returns a scripted model that waits turn delays on clk.
func New(clk clock.Clock) *Model { return &Model{clock: clk} }

// Complete returns turn req.Turn of the script, telling req.OnDelta its
// text a word at a time and each tool call whole. A turn with a failure fails
// its first fail.times calls (counted by req.Attempt) as an HTTP model
// server would, then succeeds.
func (m *Model) Complete(ctx context.Context, req model.Request) (model.Response, error) {
	script := req.Model.Script
	if req.Turn < 1 || req.Turn > len(script) {
		return model.Response{}, &errs.InferenceRejected{
			Provider: spec.ProviderScripted, Model: req.Model.Model,
			Message: fmt.Sprintf("the script has %d turns and turn %d was asked for", len(script), req.Turn),
		}
	}
	turn := script[req.Turn-1]
	if turn.Delay > 0 {
		if err := m.clock.Sleep(ctx, turn.Delay); err != nil {
			return model.Response{}, err
		}
	}
	if f := turn.Fail; f != nil {
		times := f.Times
		if times == 0 {
			times = 1
		}
		if req.Attempt <= times {
			return model.Response{}, model.HTTPFailure(spec.ProviderScripted, req.Model.Model, f.HTTPStatus, f.RetryAfter, f.Message)
		}
	}
	resp := model.Response{
		Text:  turn.Text,
		Usage: model.Usage{InputTokens: turn.Usage.InputTokens, OutputTokens: turn.Usage.OutputTokens},
	}
	for _, piece := range pieces(turn.Text) {
		req.Emit(model.Delta{Text: piece})
	}
	for i, c := range turn.ToolCalls {
		args := c.Arguments
		if len(args) == 0 {
			args = []byte(`{}`)
		}
		call := model.ToolCall{ID: fmt.Sprintf("call_%d_%d", req.Turn, i+1), Name: c.Name, Arguments: args}
		req.Emit(model.Delta{ToolCall: &model.ToolCallDelta{Index: i, ID: call.ID, Name: call.Name, Arguments: string(args)}})
		resp.ToolCalls = append(resp.ToolCalls, call)
	}
	return resp, nil
}

// pieces cuts text the way a streaming model sends it: a piece a word,
// each with the spaces before the next word.
func pieces(text string) []string {
	var out []string
	for len(text) > 0 {
		i := strings.IndexAny(text, " \n\t")
		if i < 0 {
			return append(out, text)
		}
		j := i
		for j < len(text) && strings.ContainsRune(" \n\t", rune(text[j])) {
			j++
		}
		out, text = append(out, text[:j]), text[j:]
	}
	return out
}

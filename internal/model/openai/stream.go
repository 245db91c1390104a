package openai

import (
	"encoding/json"
	"strconv"
	"strings"

	sdk "github.com/openai/openai-go/v3"

	"github.com/runsvc/runsvc/internal/model"
)

// accumulator builds the answer from a stream's chunks and tells each
// piece to the Request's OnDelta as it comes.
type accumulator struct {
	req      model.Request
	text     strings.Builder
	refusal  strings.Builder
	calls    []*streamedCall
	byIndex  map[int64]int
	usage    model.Usage
	any      bool // a chunk with a choice or usage arrived
	finished bool // a finish_reason arrived
}

// streamedCall is a tool call being streamed.
type streamedCall struct {
	id, name string
	args     strings.Builder
}

func newAccumulator(req model.Request) *accumulator {
	return &accumulator{req: req, byIndex: map[int64]int{}}
}

// chunk folds one chunk in.
func (a *accumulator) chunk(c sdk.ChatCompletionChunk) {
	if c.JSON.Usage.Valid() {
		a.any = true
		a.usage = model.Usage{InputTokens: c.Usage.PromptTokens, OutputTokens: c.Usage.CompletionTokens}
	}
	for _, ch := range c.Choices {
		if ch.Index != 0 {
			continue
		}
		a.any = true
		if ch.FinishReason != "" {
			a.finished = true
		}
		d := ch.Delta
		if d.Content != "" {
			a.text.WriteString(d.Content)
			a.req.Emit(model.Delta{Text: d.Content})
		}
		a.refusal.WriteString(d.Refusal)
		for _, tc := range d.ToolCalls {
			a.toolCall(tc)
		}
	}
}

// toolCall folds one tool-call piece in; pieces of one call share its
// index, and only the first carries the id and name.
func (a *accumulator) toolCall(tc sdk.ChatCompletionChunkChoiceDeltaToolCall) {
	i, ok := a.byIndex[tc.Index]
	if !ok {
		i = len(a.calls)
		a.byIndex[tc.Index] = i
		a.calls = append(a.calls, &streamedCall{})
	}
	c := a.calls[i]
	d := model.ToolCallDelta{Index: i, Arguments: tc.Function.Arguments}
	if c.id == "" && tc.ID != "" {
		c.id, d.ID = tc.ID, tc.ID
	}
	if c.name == "" && tc.Function.Name != "" {
		c.name, d.Name = tc.Function.Name, tc.Function.Name
	}
	c.args.WriteString(tc.Function.Arguments)
	a.req.Emit(model.Delta{ToolCall: &d})
}

// response is the whole answer.
func (a *accumulator) response(turn int) model.Response {
	out := model.Response{Text: a.text.String(), Usage: a.usage}
	if out.Text == "" {
		out.Text = a.refusal.String()
	}
	for i, c := range a.calls {
		id := c.id
		if id == "" {
			id = "call_" + strconv.Itoa(turn) + "_" + strconv.Itoa(i)
		}
		out.ToolCalls = append(out.ToolCalls, model.ToolCall{ID: id, Name: c.name, Arguments: arguments(quoted(c.args.String()))})
	}
	return out
}

// quoted makes streamed argument text the JSON string arguments expects.
func quoted(s string) []byte {
	b, _ := json.Marshal(s) // a string always encodes
	return b
}

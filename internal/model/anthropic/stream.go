package anthropic

import (
	"bytes"
	"encoding/json"
	"strings"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/runsvc/runsvc/internal/model"
)

// accumulator builds the answer from the stream's events and tells each
// piece to the Request's OnDelta as it comes.
type accumulator struct {
	req      model.Request
	text     strings.Builder
	calls    []*streamedCall
	byBlock  map[int64]int
	usage    model.Usage
	finished bool
}

// streamedCall is a tool_use block being streamed.
type streamedCall struct {
	id, name string
	args     strings.Builder
}

// event folds one event in: message_start (input tokens),
// content_block_start (a tool_use's id and name), content_block_delta
// (text_delta, input_json_delta), message_delta (output tokens),
// message_stop.
func (a *accumulator) event(ev sdk.MessageStreamEventUnion) {
	switch ev.Type {
	case "message_start":
		a.usage.InputTokens = ev.Message.Usage.InputTokens
		a.usage.OutputTokens = ev.Message.Usage.OutputTokens
	case "content_block_start":
		if b := ev.ContentBlock; b.Type == "tool_use" {
			i := len(a.calls)
			a.byBlock[ev.Index] = i
			a.calls = append(a.calls, &streamedCall{id: b.ID, name: b.Name})
			a.req.Emit(model.Delta{ToolCall: &model.ToolCallDelta{Index: i, ID: b.ID, Name: b.Name}})
		} else if b.Text != "" {
			a.text.WriteString(b.Text)
			a.req.Emit(model.Delta{Text: b.Text})
		}
	case "content_block_delta":
		switch ev.Delta.Type {
		case "text_delta":
			a.text.WriteString(ev.Delta.Text)
			a.req.Emit(model.Delta{Text: ev.Delta.Text})
		case "input_json_delta":
			if i, ok := a.byBlock[ev.Index]; ok {
				a.calls[i].args.WriteString(ev.Delta.PartialJSON)
				a.req.Emit(model.Delta{ToolCall: &model.ToolCallDelta{Index: i, Arguments: ev.Delta.PartialJSON}})
			}
		}
	case "message_delta":
		if ev.Usage.OutputTokens > 0 {
			a.usage.OutputTokens = ev.Usage.OutputTokens
		}
		if ev.Usage.InputTokens > 0 {
			a.usage.InputTokens = ev.Usage.InputTokens
		}
	case "message_stop":
		a.finished = true
	}
}

// response is the whole answer.
func (a *accumulator) response() model.Response {
	out := model.Response{Text: a.text.String(), Usage: a.usage}
	for _, c := range a.calls {
		args := bytes.TrimSpace([]byte(c.args.String()))
		switch {
		case len(args) == 0:
			args = []byte(`{}`)
		case !json.Valid(args):
			args, _ = json.Marshal(map[string]string{"_raw": string(args)})
		}
		out.ToolCalls = append(out.ToolCalls, model.ToolCall{ID: c.id, Name: c.name, Arguments: args})
	}
	return out
}

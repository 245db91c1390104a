package openai

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/runsvc/runsvc/internal/model"
)

// chatRequest is the body of POST /chat/completions.
type chatRequest struct {
	Model    string        `json:"model"`
	Messages []chatMessage `json:"messages"`
	Tools    []chatTool    `json:"tools,omitempty"`
	Stream   bool          `json:"stream"`
}

// chatMessage is one message of a request. Content is null only on an
// assistant message that holds tool calls and no text.
type chatMessage struct {
	Role       string         `json:"role"`
	Content    *string        `json:"content"`
	ToolCalls  []wireToolCall `json:"tool_calls,omitempty"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
}

// wireToolCall is an assistant's tool call as a request carries it.
type wireToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function wireFunction `json:"function"`
}

// wireFunction is a call's function; Arguments is a JSON document encoded
// as a string.
type wireFunction struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// chatTool is a tool on offer.
type chatTool struct {
	Type     string       `json:"type"`
	Function toolFunction `json:"function"`
}

// toolFunction describes a tool. Parameters is omitted for a tool that
// takes none.
type toolFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

// chatResponse is a successful answer. Error is set by the few servers that
// report a failure with HTTP 200.
type chatResponse struct {
	ID      string          `json:"id"`
	Choices []chatChoice    `json:"choices"`
	Usage   *chatUsage      `json:"usage"`
	Error   json.RawMessage `json:"error"`
}

// chatChoice is one choice of a response.
type chatChoice struct {
	Index        int             `json:"index"`
	Message      responseMessage `json:"message"`
	FinishReason string          `json:"finish_reason"`
}

// responseMessage is the model's message. Content is a string, null, or
// (on some compatible servers) an array of text parts.
type responseMessage struct {
	Role      string             `json:"role"`
	Content   json.RawMessage    `json:"content"`
	Refusal   *string            `json:"refusal"`
	ToolCalls []responseToolCall `json:"tool_calls"`
}

// responseToolCall is a tool call as a response carries it. Arguments is
// normally a JSON string holding a JSON document; an object is tolerated.
type responseToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

// chatUsage is the token count of a call.
type chatUsage struct {
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
	TotalTokens      int64 `json:"total_tokens"`
}

// apiError is the usual error shape: {"error": {"message", "type", "param",
// "code"}}. Code is a string on OpenAI and a number on some other servers.
type apiError struct {
	Message string          `json:"message"`
	Type    string          `json:"type"`
	Param   *string         `json:"param"`
	Code    json.RawMessage `json:"code"`
}

// buildRequest turns a model.Request into the wire body.
func buildRequest(req model.Request) (chatRequest, error) {
	out := chatRequest{Model: req.Model.Model, Messages: make([]chatMessage, 0, len(req.Messages))}
	for _, m := range req.Messages {
		text := m.Text
		msg := chatMessage{Role: m.Role, Content: &text}
		switch m.Role {
		case model.RoleAssistant:
			for _, c := range m.ToolCalls {
				msg.ToolCalls = append(msg.ToolCalls, wireToolCall{
					ID:       c.ID,
					Type:     "function",
					Function: wireFunction{Name: c.Name, Arguments: argumentString(c.Arguments)},
				})
			}
			if len(msg.ToolCalls) > 0 && text == "" {
				msg.Content = nil
			}
		case model.RoleTool:
			msg.ToolCallID = m.CallID
		}
		out.Messages = append(out.Messages, msg)
	}
	for _, t := range req.Tools {
		params := bytes.TrimSpace(t.Parameters)
		if bytes.Equal(params, []byte("null")) {
			params = nil
		}
		if len(params) > 0 && !json.Valid(params) {
			return chatRequest{}, fmt.Errorf("tool %s has parameters that are not valid JSON", t.Name)
		}
		out.Tools = append(out.Tools, chatTool{
			Type:     "function",
			Function: toolFunction{Name: t.Name, Description: t.Description, Parameters: params},
		})
	}
	return out, nil
}

// argumentString encodes a call's arguments as the string the wire wants:
// compact JSON, "{}" for none, and the bytes as they are if they are not
// JSON.
func argumentString(args json.RawMessage) string {
	if len(bytes.TrimSpace(args)) == 0 {
		return "{}"
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, args); err != nil {
		return string(args)
	}
	return buf.String()
}

// text returns a response message's text: the content string, the text
// parts of a content array, or else the refusal.
func (m responseMessage) text() string {
	var s string
	if err := json.Unmarshal(m.Content, &s); err == nil && s != "" {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(m.Content, &parts); err == nil {
		var b bytes.Buffer
		for _, p := range parts {
			if p.Type == "text" || p.Type == "output_text" {
				b.WriteString(p.Text)
			}
		}
		if b.Len() > 0 {
			return b.String()
		}
	}
	if m.Refusal != nil {
		return *m.Refusal
	}
	return ""
}

// arguments decodes a tool call's arguments. Arguments that are not JSON
// become {"_raw": "<the string>"} so the call can still be answered.
func arguments(raw json.RawMessage) json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return json.RawMessage("{}")
	}
	s := string(raw)
	if raw[0] == '"' {
		if err := json.Unmarshal(raw, &s); err != nil {
			return rawArguments(string(raw))
		}
		if len(bytes.TrimSpace([]byte(s))) == 0 {
			return json.RawMessage("{}")
		}
	}
	if !json.Valid([]byte(s)) {
		return rawArguments(s)
	}
	return json.RawMessage(s)
}

// rawArguments wraps arguments that are not JSON as {"_raw": s}.
func rawArguments(s string) json.RawMessage {
	b, err := json.Marshal(map[string]string{"_raw": s})
	if err != nil {
		return json.RawMessage("{}")
	}
	return b
}

// errorMessage returns the server's error message from an error body: the
// usual {"error": {"message": ...}}, {"error": "..."}, or a top-level
// "message" or "detail" string. code is the error's code, if any.
func errorMessage(body []byte) (msg, code string) {
	var shape struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(body, &shape) != nil {
		return "", ""
	}
	if msg, code = apiErrorMessage(shape.Error); msg != "" {
		return msg, code
	}
	if shape.Message != "" {
		return shape.Message, ""
	}
	var detail string
	if json.Unmarshal(shape.Detail, &detail) == nil {
		return detail, ""
	}
	return "", code
}

// apiErrorMessage reads an "error" value, an object or a string.
func apiErrorMessage(raw json.RawMessage) (msg, code string) {
	if len(raw) == 0 {
		return "", ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, ""
	}
	var e apiError
	if json.Unmarshal(raw, &e) != nil {
		return "", ""
	}
	if json.Unmarshal(e.Code, &code) != nil {
		code = string(bytes.TrimSpace(e.Code))
		if code == "null" {
			code = ""
		}
	}
	if e.Message == "" {
		e.Message = e.Type
	}
	return e.Message, code
}

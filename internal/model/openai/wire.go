package openai

import (
	"bytes"
	"encoding/json"
)

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

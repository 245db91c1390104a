package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"

	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/spec"
)

// buildParams turns a model.Request into the Messages API request, and
// options for the controls the SDK's params do not hold (temperature,
// top_p).
func buildParams(req model.Request) (sdk.MessageNewParams, []option.RequestOption, error) {
	p := sdk.MessageNewParams{Model: sdk.Model(req.Model.Model), MaxTokens: req.MaxTokens}
	if p.MaxTokens <= 0 {
		p.MaxTokens = DefaultMaxTokens
	}
	p.System, p.Messages = conversation(req.Messages)
	for _, t := range req.Tools {
		tool, err := toolParam(t)
		if err != nil {
			return p, nil, err
		}
		p.Tools = append(p.Tools, sdk.ToolUnionParam{OfTool: tool})
	}
	var extra []option.RequestOption
	m := req.Model
	if m.Temperature != nil {
		extra = append(extra, option.WithJSONSet("temperature", *m.Temperature))
	}
	if m.TopP != nil {
		extra = append(extra, option.WithJSONSet("top_p", *m.TopP))
	}
	p.StopSequences = m.Stop
	p.ToolChoice = toolChoice(m, len(req.Tools) > 0)
	if len(req.OutputSchema) > 0 {
		var schema map[string]any
		if err := json.Unmarshal(req.OutputSchema, &schema); err != nil {
			return p, nil, fmt.Errorf("the output schema is not a JSON object: %v", err)
		}
		p.OutputConfig = sdk.OutputConfigParam{Format: sdk.JSONOutputFormatParam{Schema: schema}}
	}
	return p, extra, nil
}

// toolChoice maps the Spec's tool choice and parallel-calls switch:
// required is "any", a tool's name is "tool", parallel_tool_calls false is
// disable_parallel_tool_use.
func toolChoice(m spec.Model, tools bool) sdk.ToolChoiceUnionParam {
	var disable param.Opt[bool]
	if m.ParallelToolCalls != nil && tools {
		disable = param.NewOpt(!*m.ParallelToolCalls)
	}
	switch m.ToolChoice {
	case "":
		if disable.Valid() {
			return sdk.ToolChoiceUnionParam{OfAuto: &sdk.ToolChoiceAutoParam{DisableParallelToolUse: disable}}
		}
		return sdk.ToolChoiceUnionParam{}
	case spec.ToolChoiceAuto:
		return sdk.ToolChoiceUnionParam{OfAuto: &sdk.ToolChoiceAutoParam{DisableParallelToolUse: disable}}
	case spec.ToolChoiceNone:
		return sdk.ToolChoiceUnionParam{OfNone: &sdk.ToolChoiceNoneParam{}}
	case spec.ToolChoiceRequired:
		return sdk.ToolChoiceUnionParam{OfAny: &sdk.ToolChoiceAnyParam{DisableParallelToolUse: disable}}
	default:
		return sdk.ToolChoiceUnionParam{OfTool: &sdk.ToolChoiceToolParam{Name: m.ToolChoice, DisableParallelToolUse: disable}}
	}
}

// toolParam describes a tool; its JSON Schema's properties and required
// go in their fields, every other keyword beside them.
func toolParam(t model.Tool) (*sdk.ToolParam, error) {
	tool := &sdk.ToolParam{Name: t.Name}
	if t.Description != "" {
		tool.Description = param.NewOpt(t.Description)
	}
	raw := bytes.TrimSpace(t.Parameters)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return tool, nil
	}
	var schema map[string]any
	if err := json.Unmarshal(raw, &schema); err != nil {
		return nil, fmt.Errorf("tool %s has parameters that are not a JSON object", t.Name)
	}
	tool.InputSchema.Properties = schema["properties"]
	if req, ok := schema["required"].([]any); ok {
		for _, r := range req {
			if s, ok := r.(string); ok {
				tool.InputSchema.Required = append(tool.InputSchema.Required, s)
			}
		}
	}
	delete(schema, "properties")
	delete(schema, "required")
	delete(schema, "type")
	if len(schema) > 0 {
		tool.InputSchema.ExtraFields = schema
	}
	return tool, nil
}

// conversation splits the system text off and groups the rest into the
// alternating user/assistant turns the API wants: tool results go in a
// user message, with any user text that follows them.
func conversation(msgs []model.Message) ([]sdk.TextBlockParam, []sdk.MessageParam) {
	var system []sdk.TextBlockParam
	var out []sdk.MessageParam
	const user, assistant = "user", "assistant"
	var roles []string
	add := func(role string, b sdk.ContentBlockParamUnion) {
		n := len(out)
		switch {
		case n > 0 && roles[n-1] == role && role == user:
			out[n-1].OfUser.Content = append(out[n-1].OfUser.Content, b)
		case n > 0 && roles[n-1] == role:
			out[n-1].OfAssistant.Content = append(out[n-1].OfAssistant.Content, b)
		case role == user:
			out, roles = append(out, sdk.NewUserMessage(b)), append(roles, role)
		default:
			out, roles = append(out, sdk.NewAssistantMessage(b)), append(roles, role)
		}
	}
	for _, m := range msgs {
		switch m.Role {
		case model.RoleSystem:
			system = append(system, sdk.TextBlockParam{Text: m.Text})
		case model.RoleTool:
			add(user, sdk.NewToolResultBlock(m.CallID, m.Text, false))
		case model.RoleAssistant:
			if m.Text != "" {
				add(assistant, sdk.NewTextBlock(m.Text))
			}
			for _, c := range m.ToolCalls {
				args := json.RawMessage(bytes.TrimSpace(c.Arguments))
				if len(args) == 0 || !json.Valid(args) {
					args = json.RawMessage(`{}`)
				}
				add(assistant, sdk.NewToolUseBlock(c.ID, args, c.Name))
			}
		default:
			add(user, sdk.NewTextBlock(m.Text))
		}
	}
	return system, out
}

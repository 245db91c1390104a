package openai

import (
	"bytes"
	"encoding/json"
	"fmt"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/shared"

	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/spec"
)

// outputSchemaName names the answer's schema in response_format.
const outputSchemaName = "answer"

// buildParams turns a model.Request into the SDK's request: the
// conversation, the tools, the Spec's model controls, max_tokens when the
// Request bounds the answer, and usage in the stream.
func buildParams(req model.Request) (sdk.ChatCompletionNewParams, error) {
	p := sdk.ChatCompletionNewParams{
		Model:         shared.ChatModel(req.Model.Model),
		Messages:      make([]sdk.ChatCompletionMessageParamUnion, 0, len(req.Messages)),
		StreamOptions: sdk.ChatCompletionStreamOptionsParam{IncludeUsage: param.NewOpt(true)},
	}
	for _, m := range req.Messages {
		p.Messages = append(p.Messages, message(m))
	}
	for _, t := range req.Tools {
		fn := shared.FunctionDefinitionParam{Name: t.Name}
		if t.Description != "" {
			fn.Description = param.NewOpt(t.Description)
		}
		params := bytes.TrimSpace(t.Parameters)
		if len(params) > 0 && !bytes.Equal(params, []byte("null")) {
			var schema shared.FunctionParameters
			if err := json.Unmarshal(params, &schema); err != nil {
				return p, fmt.Errorf("tool %s has parameters that are not a JSON object", t.Name)
			}
			fn.Parameters = schema
		}
		p.Tools = append(p.Tools, sdk.ChatCompletionFunctionTool(fn))
	}
	if err := controls(&p, req); err != nil {
		return p, err
	}
	return p, nil
}

// controls sets the Spec's model controls, the output bound and the
// answer's schema.
func controls(p *sdk.ChatCompletionNewParams, req model.Request) error {
	m := req.Model
	if m.Temperature != nil {
		p.Temperature = param.NewOpt(*m.Temperature)
	}
	if m.TopP != nil {
		p.TopP = param.NewOpt(*m.TopP)
	}
	if req.MaxTokens > 0 {
		p.MaxTokens = param.NewOpt(req.MaxTokens)
	}
	if len(m.Stop) > 0 {
		p.Stop = sdk.ChatCompletionNewParamsStopUnion{OfStringArray: m.Stop}
	}
	switch m.ToolChoice {
	case "":
	case spec.ToolChoiceAuto, spec.ToolChoiceNone, spec.ToolChoiceRequired:
		p.ToolChoice = sdk.ChatCompletionToolChoiceOptionUnionParam{OfAuto: param.NewOpt(m.ToolChoice)}
	default:
		p.ToolChoice = sdk.ChatCompletionToolChoiceOptionUnionParam{OfFunctionToolChoice: &sdk.ChatCompletionNamedToolChoiceParam{
			Function: sdk.ChatCompletionNamedToolChoiceFunctionParam{Name: m.ToolChoice},
		}}
	}
	if m.ParallelToolCalls != nil && len(req.Tools) > 0 {
		p.ParallelToolCalls = param.NewOpt(*m.ParallelToolCalls)
	}
	if len(req.OutputSchema) > 0 {
		var schema any
		if err := json.Unmarshal(req.OutputSchema, &schema); err != nil {
			return fmt.Errorf("the output schema is not JSON: %v", err)
		}
		p.ResponseFormat = sdk.ChatCompletionNewParamsResponseFormatUnion{OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{
			JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{Name: outputSchemaName, Schema: schema},
		}}
	}
	return nil
}

// message turns one conversation entry into the SDK's message.
func message(m model.Message) sdk.ChatCompletionMessageParamUnion {
	switch m.Role {
	case model.RoleSystem:
		return sdk.SystemMessage(m.Text)
	case model.RoleTool:
		return sdk.ToolMessage(m.Text, m.CallID)
	case model.RoleAssistant:
		a := &sdk.ChatCompletionAssistantMessageParam{}
		if m.Text != "" || len(m.ToolCalls) == 0 {
			a.Content.OfString = param.NewOpt(m.Text)
		}
		for _, c := range m.ToolCalls {
			a.ToolCalls = append(a.ToolCalls, sdk.ChatCompletionMessageToolCallUnionParam{
				OfFunction: &sdk.ChatCompletionMessageFunctionToolCallParam{
					ID:       c.ID,
					Function: sdk.ChatCompletionMessageFunctionToolCallFunctionParam{Name: c.Name, Arguments: argumentString(c.Arguments)},
				},
			})
		}
		return sdk.ChatCompletionMessageParamUnion{OfAssistant: a}
	default:
		return sdk.UserMessage(m.Text)
	}
}

package spec_test

import (
	"strings"
	"testing"

	"github.com/runsvc/runsvc/internal/spec"
)

// anthropicSpec is a minimal valid Spec on the anthropic provider.
func anthropicSpec() spec.Spec {
	return spec.Spec{Name: "triage", Model: spec.Model{Provider: spec.ProviderAnthropic, Model: "claude-sonnet-4-5"}}
}

func TestValidateModelControls(t *testing.T) {
	withTool := func(s *spec.Spec) { s.Tools = []spec.Tool{{Name: "lookup", Kind: spec.KindClient}} }
	tests := []struct {
		name   string
		base   func() spec.Spec
		modify func(*spec.Spec)
		// want maps each field expected in a violation to a word its
		// description holds; empty means the Spec is valid.
		want map[string]string
	}{
		{name: "every control in range", base: openai, modify: func(s *spec.Spec) {
			withTool(s)
			s.Model.Temperature, s.Model.TopP, s.Model.ParallelToolCalls = ptr(0.7), ptr(1.0), ptr(false)
			s.Model.MaxOutputTokens, s.Model.Stop, s.Model.ToolChoice = 512, []string{"END", "\n\n"}, "lookup"
		}},
		{name: "anthropic without a base URL", base: anthropicSpec, modify: func(*spec.Spec) {}},
		{name: "anthropic needs a model", base: anthropicSpec, modify: func(s *spec.Spec) { s.Model.Model = "" }, want: map[string]string{"model.model": "anthropic"}},
		{name: "every control out of range, all reported", base: openai, modify: func(s *spec.Spec) {
			s.Model.Temperature, s.Model.TopP = ptr(2.5), ptr(0.0)
			s.Model.MaxOutputTokens = -1
			s.Model.Stop = []string{"a", "", "c", "d", "e"}
			s.Model.ToolChoice = "nope"
		}, want: map[string]string{
			"model.temperature": "between 0 and 2", "model.top_p": "greater than 0", "model.max_output_tokens": "negative",
			"model.stop": "at most 4", "model.stop[1]": "empty", "model.tool_choice": "nope",
		}},
		{name: "a stop sequence too long", base: openai, modify: func(s *spec.Spec) { s.Model.Stop = []string{strings.Repeat("x", 257)} }, want: map[string]string{"model.stop[0]": "257"}},
		{name: "required with no tools", base: openai, modify: func(s *spec.Spec) { s.Model.ToolChoice = "required" }, want: map[string]string{"model.tool_choice": "no tool"}},
		{name: "max output above the token budget", base: openai, modify: func(s *spec.Spec) {
			s.Model.MaxOutputTokens, s.Limits.TokenBudget = 5000, 1000
		}, want: map[string]string{"model.max_output_tokens": "token budget"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.base()
			tt.modify(&s)
			if len(tt.want) == 0 {
				if err := spec.Validate(s, nothingPublished); err != nil {
					t.Fatalf("Validate: %v", err)
				}
				return
			}
			got := map[string]string{}
			for _, v := range violations(t, s, nothingPublished) {
				got[v.Field] += v.Description
			}
			if len(got) != len(tt.want) {
				t.Errorf("violations %v, want fields %v", got, tt.want)
			}
			for f, word := range tt.want {
				if !strings.Contains(got[f], word) {
					t.Errorf("%s: %q, want it to hold %q", f, got[f], word)
				}
			}
		})
	}
}

package spec_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/spec"
)

// TestFallbackAndBudgetFieldsValidated: every problem of the fallbacks
// and limits.on_exhausted comes back at once, each at its field.
func TestFallbackAndBudgetFieldsValidated(t *testing.T) {
	s := spec.Spec{
		Name: "fb",
		Model: spec.Model{
			Provider: spec.ProviderOpenAI, Model: "m", BaseURL: "http://127.0.0.1:1/v1",
			Pricing:                &spec.Pricing{InputPerMillion: 1},
			FallbackRetryAfterOver: 2 * time.Hour,
			Fallbacks: []spec.Model{
				{Provider: "nope"},
				{Provider: spec.ProviderOpenAI, APIKeyCredential: "undeclared", Fallbacks: []spec.Model{{Provider: spec.ProviderScripted}}},
				{Provider: spec.ProviderScripted, Script: []spec.Turn{{Text: "ok"}}, Pricing: &spec.Pricing{InputPerMillion: -1}},
			},
		},
		Limits: spec.Limits{CostBudget: 1, OnExhausted: "MAYBE"},
	}
	var invalid *errs.SpecInvalid
	if err := spec.Validate(s, nil); !errors.As(err, &invalid) {
		t.Fatalf("Validate = %v, want SpecInvalid", err)
	}
	var fields []string
	for _, v := range invalid.Violations {
		fields = append(fields, v.Field)
	}
	for _, want := range []string{
		"model.fallback_retry_after_over", "model.fallbacks[0].provider", "model.fallbacks[0].pricing",
		"model.fallbacks[1].model", "model.fallbacks[1].base_url", "model.fallbacks[1].api_key_credential",
		"model.fallbacks[1].fallbacks", "model.fallbacks[2].pricing", "limits.on_exhausted",
	} {
		if !slices.Contains(fields, want) {
			t.Errorf("no violation at %s; got %v", want, fields)
		}
	}
	ok := spec.Spec{Name: "ok", Model: spec.Model{Provider: spec.ProviderScripted, Script: []spec.Turn{{Text: "hi"}},
		Fallbacks: []spec.Model{{Provider: spec.ProviderScripted, Script: []spec.Turn{{Text: "hi"}}}}}, Limits: spec.Limits{OnExhausted: spec.BudgetAsk}}
	if err := spec.Validate(ok, nil); err != nil {
		t.Errorf("a valid Spec: %v", err)
	}
}

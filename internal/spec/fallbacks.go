package spec

import (
	"fmt"
	"time"
)

// DefaultFallbackRetryAfterOver is the Retry-After above which a rate
// limited call falls back when the Spec sets no threshold.
const DefaultFallbackRetryAfterOver = 10 * time.Second

// Bounds of the fallback settings.
const (
	maxFallbacks              = 8
	maxFallbackRetryAfterOver = time.Hour
)

// BudgetAction is what a Run does when a budget would be exceeded.
type BudgetAction string

// Budget actions.
const (
	BudgetFail BudgetAction = "FAIL"
	BudgetAsk  BudgetAction = "ASK"
)

// Chain is the model and its fallbacks, in the order a call tries them.
func (m Model) Chain() []Model {
	return append([]Model{m}, m.Fallbacks...)
}

// RetryAfterOver is the rate-limit threshold in force.
func (m Model) RetryAfterOver() time.Duration {
	if m.FallbackRetryAfterOver > 0 {
		return m.FallbackRetryAfterOver
	}
	return DefaultFallbackRetryAfterOver
}

// Name is the model as records and metrics name it: provider/model.
func (m Model) Name() string {
	if m.Model == "" {
		return m.Provider
	}
	return m.Provider + "/" + m.Model
}

// fallbacks checks model.fallbacks and its settings, each fallback as a
// model of its own: every problem at its field.
func (v *validator) fallbacks(s Spec, credential func(string, string)) {
	m := s.Model
	if len(m.Fallbacks) > maxFallbacks {
		v.add("model.fallbacks", "has %d models; at most %d are allowed", len(m.Fallbacks), maxFallbacks)
	}
	if m.FallbackRetryAfterOver < 0 || m.FallbackRetryAfterOver > maxFallbackRetryAfterOver {
		v.add("model.fallback_retry_after_over", "must be between 0 and %s (0 means %s)", maxFallbackRetryAfterOver, DefaultFallbackRetryAfterOver)
	}
	if len(m.Fallbacks) == 0 && (m.FallbackRetryAfterOver != 0 || m.FallbackOnRejected) {
		v.add("model.fallbacks", "fallback_retry_after_over and fallback_on_rejected need at least one fallback")
	}
	for i, f := range m.Fallbacks {
		v.fallback(fmt.Sprintf("model.fallbacks[%d]", i), f, s, credential)
	}
}

// fallback checks one fallback model at path.
func (v *validator) fallback(path string, f Model, s Spec, credential func(string, string)) {
	switch f.Provider {
	case ProviderScripted:
		if len(f.Script) == 0 {
			v.add(path+".script.turns", "a scripted model needs at least one turn")
		}
	case ProviderOpenAI, ProviderAnthropic:
		if f.Model == "" {
			v.add(path+".model", "is required for the %s provider", f.Provider)
		}
		if f.Provider == ProviderOpenAI || f.BaseURL != "" {
			v.url(path+".base_url", f.BaseURL, true)
		}
		if len(f.Script) > 0 {
			v.add(path+".script", "only a scripted model takes a script")
		}
		credential(path+".api_key_credential", f.APIKeyCredential)
	case "":
		v.add(path+".provider", "is required: %s, %s or %s", ProviderScripted, ProviderOpenAI, ProviderAnthropic)
	default:
		v.add(path+".provider", "unknown provider %q; use %s, %s or %s", f.Provider, ProviderScripted, ProviderOpenAI, ProviderAnthropic)
	}
	if len(f.Fallbacks) > 0 || f.FallbackRetryAfterOver != 0 || f.FallbackOnRejected {
		v.add(path+".fallbacks", "a fallback has no fallbacks of its own: list every model in the Spec's model.fallbacks")
	}
	if p := f.Pricing; p != nil {
		finite := v.finite(path+".pricing.input_per_million", p.InputPerMillion)
		finite = v.finite(path+".pricing.output_per_million", p.OutputPerMillion) && finite
		if finite && (p.InputPerMillion < 0 || p.OutputPerMillion < 0) {
			v.add(path+".pricing", "prices must not be negative")
		}
	} else if s.Limits.CostBudget > 0 {
		v.add(path+".pricing", "the Spec has a cost budget, so every fallback needs pricing too")
	}
	if f.CallTimeout < 0 || f.CallTimeout > maxCallTimeout {
		v.add(path+".call_timeout", "must be between 0 and %s", maxCallTimeout)
	}
}

// budgetAction checks limits.on_exhausted.
func (v *validator) budgetAction(l Limits) {
	switch l.OnExhausted {
	case "", BudgetFail, BudgetAsk:
	default:
		v.add("limits.on_exhausted", "%q is neither FAIL nor ASK", l.OnExhausted)
	}
}

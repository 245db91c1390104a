package spec

import "fmt"

// Bounds of the model controls.
const (
	maxTemperature   = 2.0
	maxStopSequences = 4
	maxStopLength    = 256
)

// controls checks the model controls: every problem, each at its field.
func (v *validator) controls(s Spec) {
	m := s.Model
	if t := m.Temperature; t != nil && v.finite("model.temperature", *t) && (*t < 0 || *t > maxTemperature) {
		v.add("model.temperature", "is %v; it must be between 0 and %v", *t, maxTemperature)
	}
	if p := m.TopP; p != nil && v.finite("model.top_p", *p) && (*p <= 0 || *p > 1) {
		v.add("model.top_p", "is %v; it must be greater than 0 and at most 1", *p)
	}
	if m.MaxOutputTokens < 0 {
		v.add("model.max_output_tokens", "is %d; it must not be negative", m.MaxOutputTokens)
	}
	if b := s.Limits.TokenBudget; m.MaxOutputTokens > 0 && b > 0 && m.MaxOutputTokens > b {
		v.add("model.max_output_tokens", "is %d, more than the token budget (%d): no answer could use it", m.MaxOutputTokens, b)
	}
	if len(m.Stop) > maxStopSequences {
		v.add("model.stop", "has %d sequences; at most %d are allowed", len(m.Stop), maxStopSequences)
	}
	for i, st := range m.Stop {
		switch {
		case st == "":
			v.add(fmt.Sprintf("model.stop[%d]", i), "must not be empty")
		case len(st) > maxStopLength:
			v.add(fmt.Sprintf("model.stop[%d]", i), "is %d bytes; at most %d are allowed", len(st), maxStopLength)
		}
	}
	switch tc := m.ToolChoice; tc {
	case "", ToolChoiceAuto, ToolChoiceNone:
	case ToolChoiceRequired:
		if len(s.Tools) == 0 && len(s.Delegates) == 0 {
			v.add("model.tool_choice", "is required, but the Spec offers no tool")
		}
	default:
		if _, ok := s.Tool(tc); !ok && !(tc == BuiltinDelegate && len(s.Delegates) > 0) {
			v.add("model.tool_choice", "%q is neither auto, none, required nor one of the Spec's tools", tc)
		}
	}
}

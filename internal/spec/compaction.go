package spec

import "strings"

// Compaction asks that a Run's older turns be summarised when the next
// model request would not fit the model's context window.
type Compaction struct {
	// Model summarises; nil uses the Spec's model.
	Model *Model `json:"model,omitempty"`
}

// contextWindows are the context windows, in tokens, of common models, by
// name prefix; the longest matching prefix wins.
var contextWindows = map[string]int64{
	"gpt-4o":        128000,
	"gpt-4.1":       1047576,
	"gpt-4-turbo":   128000,
	"gpt-4":         8192,
	"gpt-3.5-turbo": 16385,
	"gpt-5":         400000,
	"o1":            200000,
	"o3":            200000,
	"o4-mini":       200000,
	"claude-":       200000,
	"llama3":        8192,
	"llama3.1":      128000,
	"mistral":       32768,
}

// Window returns the model's context window in tokens: the Spec's own
// ContextWindow, else the known default for its name, else 0 (unknown).
func (m Model) Window() int64 {
	if m.ContextWindow > 0 {
		return m.ContextWindow
	}
	best, window := "", int64(0)
	for prefix, w := range contextWindows {
		if strings.HasPrefix(m.Model, prefix) && len(prefix) > len(best) {
			best, window = prefix, w
		}
	}
	return window
}

// compaction checks that a Spec asking for compaction can have it: the
// model's window is known and the summarising model is one runsvc can call.
func (v *validator) compaction(s Spec) {
	c := s.Compaction
	if s.Model.ContextWindow < 0 {
		v.add("model.context_window", "must not be negative")
	}
	if c == nil {
		return
	}
	if s.Model.Window() == 0 {
		v.add("model.context_window", "compaction needs the model's context window: model %q has no known default, so set context_window", s.Model.Model)
	}
	if m := c.Model; m != nil {
		switch m.Provider {
		case ProviderOpenAI:
			if m.Model == "" {
				v.add("compaction.model.model", "is required for the openai provider, e.g. gpt-4o-mini")
			}
			v.url("compaction.model.base_url", m.BaseURL, true)
		case ProviderScripted:
			if len(m.Script) == 0 {
				v.add("compaction.model.script.turns", "a scripted model needs at least one turn")
			}
		default:
			v.add("compaction.model.provider", "unknown provider %q: the summaries cannot be made; use %s or %s", m.Provider, ProviderScripted, ProviderOpenAI)
		}
	}
}

package spec

import (
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/runsvc/runsvc/internal/errs"
)

// Built-in tool names.
const (
	BuiltinAskUser   = "ask_user"
	BuiltinDelegate  = "delegate"
	BuiltinMemoryGet = "memory_get"
	BuiltinMemorySet = "memory_set"
	BuiltinBusSend   = "bus_send"
	// BuiltinSleep and BuiltinWaitUntil suspend the Run on a TIMER. Their
	// names are not reserved: a Spec may declare another kind of tool
	// with either name, and then that tool is what the name means.
	BuiltinSleep     = "sleep"
	BuiltinWaitUntil = "wait_until"
	// BuiltinMCPReadResource reads a resource of one of the Spec's MCP
	// servers; offered only when the Spec declares it.
	BuiltinMCPReadResource = "mcp_read_resource"
)

// Builtins lists the built-in tools.
var Builtins = []string{BuiltinAskUser, BuiltinDelegate, BuiltinMemoryGet, BuiltinMemorySet, BuiltinBusSend, BuiltinSleep, BuiltinWaitUntil, BuiltinMCPReadResource}

// IsTimer reports whether name is a timer tool's (sleep, wait_until).
func IsTimer(name string) bool { return name == BuiltinSleep || name == BuiltinWaitUntil }

var (
	namePattern       = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,62}$`)
	toolNamePattern   = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	credentialPattern = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_.-]{0,127}$`)
)

// Limits of what a Spec may ask for.
const (
	maxInstructions    = 256 << 10
	maxScriptTurns     = 10000
	maxToolsPerSpec    = 512
	maxToolRoundsLimit = 10000
	maxTurnsLimit      = 10000
	maxRetryBudget     = 1000
	maxDepthLimit      = 16
	maxFanOutLimit     = 256
	maxToolTimeout     = 30 * time.Minute
	maxCallTimeout     = 30 * time.Minute
	maxExpiry          = 30 * 24 * time.Hour
)

// Lookup finds the newest published Version of a Spec by name.
type Lookup func(name string) (*Spec, bool)

// Validate checks a Spec for publishing and returns *errs.SpecInvalid
// listing every problem, or nil. published finds the delegates.
func Validate(s Spec, published Lookup) error {
	v := &validator{}
	v.name(s)
	if len(s.Instructions) > maxInstructions {
		v.add("instructions", "is %d bytes; at most %d are allowed", len(s.Instructions), maxInstructions)
	}
	declared := map[string]bool{}
	for i, c := range s.Credentials {
		p := fmt.Sprintf("credentials[%d]", i)
		switch {
		case !credentialPattern.MatchString(c):
			v.add(p, "credential name %q must start with a letter and hold only letters, digits, '_', '.' and '-' (at most 128)", c)
		case declared[c]:
			v.add(p, "credential %q is declared twice", c)
		}
		declared[c] = true
	}
	credential := func(path, name string) {
		if name != "" && !declared[name] {
			v.add(path, "credential %q is referenced but not declared in credentials", name)
		}
	}
	v.model(s, credential)
	v.fallbacks(s, credential)
	v.tools(s, credential)
	v.mcpServers(s, credential)
	v.limits(s)
	v.budgetAction(s.Limits)
	v.expiry(s.Expiry)
	v.concurrency(s.Concurrency)
	if t := s.Timers; t != nil && (t.MaxSleep < 0 || t.MaxSleep > MaxDeadline) {
		v.add("timers.max_sleep", "%s is out of range: at most %s, the longest deadline", t.MaxSleep, MaxDeadline)
	}
	if x := s.Exposure; x != nil && x.Alias != "" && !namePattern.MatchString(x.Alias) {
		v.add("exposure.alias", "%q is not an alias name: lower case letters, digits, '-' and '_', starting with a letter, at most 63", x.Alias)
	}
	if x := s.Exposure; x != nil && utf8.RuneCountInString(x.Description) > MaxExposureDescription {
		v.add("exposure.description", "has %d characters; at most %d are allowed", utf8.RuneCountInString(x.Description), MaxExposureDescription)
	}
	v.delegates(s, published)
	v.bus(s.Bus)
	v.output(s.Output)
	v.compaction(s)
	if len(v.violations) > 0 {
		return &errs.SpecInvalid{Spec: s.Name, Violations: v.violations}
	}
	return nil
}

type validator struct{ violations []errs.FieldViolation }

func (v *validator) add(field, format string, args ...any) {
	v.violations = append(v.violations, errs.FieldViolation{Field: field, Description: fmt.Sprintf(format, args...)})
}

func (v *validator) name(s Spec) {
	switch {
	case s.Name == "":
		v.add("name", "is required")
	case !namePattern.MatchString(s.Name):
		v.add("name", "%q must start with a lower-case letter and hold only a-z, 0-9, '-' and '_' (at most 63)", s.Name)
	}
}

func (v *validator) model(s Spec, credential func(string, string)) {
	m := s.Model
	switch m.Provider {
	case "":
		v.add("model.provider", "is required: %s, %s or %s", ProviderScripted, ProviderOpenAI, ProviderAnthropic)
	case ProviderScripted:
		if len(m.Script) == 0 {
			v.add("model.script.turns", "a scripted model needs at least one turn")
		}
		if len(m.Script) > maxScriptTurns {
			v.add("model.script.turns", "has %d turns; at most %d are allowed", len(m.Script), maxScriptTurns)
		}
		if m.BaseURL != "" {
			v.add("model.base_url", "a scripted model calls no server; remove base_url")
		}
		maxFanOut := s.Limits.Effective().MaxDelegationsPerTurn
		for i, t := range m.Script[:min(len(m.Script), maxScriptTurns)] {
			v.turn(fmt.Sprintf("model.script.turns[%d]", i), t, maxFanOut)
		}
	case ProviderAnthropic:
		if m.Model == "" {
			v.add("model.model", "is required for the anthropic provider, e.g. claude-sonnet-4-5")
		}
		if m.BaseURL != "" {
			v.url("model.base_url", m.BaseURL, true)
		}
		if len(m.Script) > 0 {
			v.add("model.script", "only a scripted model takes a script")
		}
		credential("model.api_key_credential", m.APIKeyCredential)
	case ProviderOpenAI:
		if m.Model == "" {
			v.add("model.model", "is required for the openai provider, e.g. gpt-4o-mini")
		}
		v.url("model.base_url", m.BaseURL, true)
		if len(m.Script) > 0 {
			v.add("model.script", "only a scripted model takes a script")
		}
		credential("model.api_key_credential", m.APIKeyCredential)
	default:
		v.add("model.provider", "unknown provider %q; use %s, %s or %s", m.Provider, ProviderScripted, ProviderOpenAI, ProviderAnthropic)
	}
	if p := m.Pricing; p != nil {
		finite := v.finite("model.pricing.input_per_million", p.InputPerMillion)
		finite = v.finite("model.pricing.output_per_million", p.OutputPerMillion) && finite
		if finite && (p.InputPerMillion < 0 || p.OutputPerMillion < 0) {
			v.add("model.pricing", "prices must not be negative")
		}
	}
	if m.CallTimeout < 0 || m.CallTimeout > maxCallTimeout {
		v.add("model.call_timeout", "must be between 0 and %s", maxCallTimeout)
	}
	v.controls(s)
}

func (v *validator) turn(path string, t Turn, maxFanOut int) {
	delegations := 0
	for _, c := range t.ToolCalls {
		if c.Name == BuiltinDelegate {
			delegations++
		}
	}
	if maxFanOut > 0 && delegations > maxFanOut {
		v.add(path+".tool_calls", "the turn delegates %d times, over limits.max_delegations_per_turn (%d)", delegations, maxFanOut)
	}
	for j, c := range t.ToolCalls {
		p := fmt.Sprintf("%s.tool_calls[%d]", path, j)
		if c.Name == "" {
			v.add(p+".name", "is required")
		}
		if len(c.Arguments) > 0 && !isJSONObject(c.Arguments) {
			v.add(p+".arguments", "must be a JSON object")
		}
	}
	if t.Usage.InputTokens < 0 || t.Usage.OutputTokens < 0 {
		v.add(path+".usage", "token counts must not be negative")
	}
	if f := t.Fail; f != nil {
		if f.HTTPStatus < 400 || f.HTTPStatus > 599 {
			v.add(path+".fail.http_status", "%d is not an HTTP error status (400-599)", f.HTTPStatus)
		}
		if f.Times < 0 {
			v.add(path+".fail.times", "must not be negative")
		}
		if f.RetryAfter < 0 {
			v.add(path+".fail.retry_after", "must not be negative")
		}
	}
	if t.Delay < 0 || t.Delay > time.Hour {
		v.add(path+".delay", "must be between 0 and 1h")
	}
}

func (v *validator) tools(s Spec, credential func(string, string)) {
	tools := s.Tools
	if len(tools) > maxToolsPerSpec {
		// Refused anyway: checking the first ones bounds the work and the
		// violations a hostile Spec costs.
		v.add("tools", "has %d tools; at most %d are allowed", len(tools), maxToolsPerSpec)
		tools = tools[:maxToolsPerSpec]
	}
	seen := map[string]int{}
	for i, t := range tools {
		p := fmt.Sprintf("tools[%d]", i)
		switch {
		case t.Name == "":
			v.add(p+".name", "is required")
		case !toolNamePattern.MatchString(t.Name):
			v.add(p+".name", "%q must hold only letters, digits, '_' and '-' (1 to 64)", t.Name)
		}
		if first, dup := seen[t.Name]; dup && t.Name != "" {
			v.add(p+".name", "duplicates tools[%d].name %q", first, t.Name)
		} else {
			seen[t.Name] = i
		}
		switch t.Kind {
		case KindClient, KindWorker:
			if t.HTTP != nil || t.MCP != nil || t.A2A != nil {
				v.add(p, "a %s tool takes no http, mcp or a2a settings", t.Kind)
			}
		case KindA2A:
			v.a2a(p, t, credential)
		case KindHTTP:
			if t.HTTP == nil {
				v.add(p+".http.url", "is required for an http tool")
			} else {
				v.url(p+".http.url", t.HTTP.URL, true)
				credential(p+".http.credential", t.HTTP.Credential)
			}
		case KindMCP:
			if t.MCP == nil {
				v.add(p+".mcp.url", "is required for an mcp tool")
			} else {
				v.mcpEndpoint(p+".mcp", *t.MCP, credential)
			}
		case KindBuiltin:
			if !isBuiltin(t.Name) {
				v.add(p+".name", "%q is not a built-in tool; built-ins are %s", t.Name, strings.Join(Builtins, ", "))
			}
			if t.Name == BuiltinDelegate && len(s.Delegates) == 0 {
				v.add(p, "the delegate tool needs at least one entry in delegates")
			}
			if t.Name == BuiltinBusSend && !s.Bus.Enabled {
				v.add(p, "the bus_send tool needs bus.enabled")
			}
			if t.Name == BuiltinMCPReadResource && len(s.MCPServers) == 0 && !hasMCPTool(s) {
				v.add(p, "the mcp_read_resource tool reads the Spec's MCP servers, and it has none (mcp_servers or an mcp tool)")
			}
		case "":
			v.add(p+".kind", "is required: client, worker, http, mcp, builtin or a2a")
		default:
			v.add(p+".kind", "unknown tool kind %q: use client, worker, http, mcp, builtin or a2a", t.Kind)
		}
		if t.Kind != KindBuiltin && isBuiltin(t.Name) && !IsTimer(t.Name) {
			v.add(p+".name", "%q is the name of a built-in tool; declare it with kind builtin", t.Name)
		}
		if len(t.Parameters) > 0 {
			v.schema(p+".parameters", t.Parameters)
		}
		if t.Timeout < 0 || t.Timeout > maxToolTimeout {
			v.add(p+".timeout", "must be between 0 and %s", maxToolTimeout)
		}
		v.delivery(p, t)
		v.pure(p, t)
	}
}

func (v *validator) schema(path string, raw json.RawMessage) {
	var schema map[string]any
	if err := json.Unmarshal(raw, &schema); err != nil {
		v.add(path, "must be a JSON Schema object")
		return
	}
	if t, ok := schema["type"]; ok && t != "object" {
		v.add(path+".type", "tool arguments are an object; the schema's type must be \"object\", not %v", t)
	}
	v.compile(path, raw)
}

// output checks the final answer's schema: a JSON Schema object that
// compiles.
func (v *validator) output(o *Output) {
	if o == nil {
		return
	}
	if len(o.Schema) == 0 {
		v.add("output.schema", "is required when output is set")
		return
	}
	var doc map[string]any
	if err := json.Unmarshal(o.Schema, &doc); err != nil {
		v.add("output.schema", "must be a JSON Schema object")
		return
	}
	v.compile("output.schema", o.Schema)
}

func (v *validator) limits(s Spec) {
	l := s.Limits
	between := func(field string, n, lo, hi int) {
		if n < lo || n > hi {
			v.add("limits."+field, "%d is out of range: use %d to %d (0 means the default)", n, lo, hi)
		}
	}
	between("max_tool_rounds", l.MaxToolRounds, 0, maxToolRoundsLimit)
	between("max_turns", l.MaxTurns, 0, maxTurnsLimit)
	between("transient_retry_budget", l.TransientRetryBudget, -1, maxRetryBudget)
	between("max_delegation_depth", l.MaxDelegationDepth, 0, maxDepthLimit)
	between("max_delegations_per_turn", l.MaxDelegationsPerTurn, 0, maxFanOutLimit)
	if l.Deadline < 0 || l.Deadline > MaxDeadline {
		v.add("limits.deadline", "%s is out of range: at most %s (0 means %s)", l.Deadline, MaxDeadline, DefaultDeadline)
	} else if l.Deadline > 0 && l.Deadline < time.Second {
		v.add("limits.deadline", "%s is too short: at least 1s", l.Deadline)
	}
	if l.TokenBudget < 0 {
		v.add("limits.token_budget", "must not be negative")
	}
	switch {
	case !v.finite("limits.cost_budget", l.CostBudget):
	case l.CostBudget < 0:
		v.add("limits.cost_budget", "must not be negative")
	case l.CostBudget > 0 && s.Model.Pricing == nil:
		v.add("limits.cost_budget", "a cost budget needs model.pricing: an unpriced call cannot be counted as cost")
	}
}

// finite refuses NaN and ±Inf, which no budget or price can mean and JSON
// cannot store, and reports whether f is finite.
func (v *validator) finite(field string, f float64) bool {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		v.add(field, "%v is not a number: use a finite value", f)
		return false
	}
	return true
}

func (v *validator) expiry(e Expiry) {
	for _, x := range []struct {
		field string
		d     time.Duration
	}{{"tool_results", e.ToolResults}, {"approval", e.Approval}, {"question", e.Question}, {"children", e.Children}} {
		if x.d < 0 || x.d > maxExpiry {
			v.add("suspension_expiry."+x.field, "%s is out of range: at most %s", x.d, maxExpiry)
		}
	}
}

// DelegateSpec is the Spec a delegates entry names: the entry, or its
// part before the '@' of a `name@alias` entry.
func DelegateSpec(entry string) string {
	name, _, _ := strings.Cut(entry, "@")
	return name
}

// delegates checks the delegates list. An entry is a Spec's name, or
// `name@alias` for whichever Version the alias names when a child starts:
// the Spec must be published, the alias need not exist yet (aliases are
// created and moved on their own), but its name must be one AliasService
// takes.
func (v *validator) delegates(s Spec, published Lookup) {
	seen := map[string]bool{}
	for i, d := range s.Delegates {
		p := fmt.Sprintf("delegates[%d]", i)
		if seen[d] {
			v.add(p, "delegate %q is listed twice", d)
			continue
		}
		seen[d] = true
		name, alias, named := strings.Cut(d, "@")
		if named && !namePattern.MatchString(alias) {
			v.add(p, "delegate %q names %q, which is not an alias name: lower case letters, digits, '-' and '_', starting with a letter, at most 63", d, alias)
			continue
		}
		if name == s.Name {
			v.add(p, "a Spec cannot delegate to itself")
			continue
		}
		if _, ok := published(name); !ok {
			v.add(p, "delegate %q is not a published Spec; publish it first", name)
		}
	}
	maxDepth := s.Limits.Effective().MaxDelegationDepth
	if maxDepth < 0 {
		return // reported as out of range by limits
	}
	switch depth, chain, cycle := delegationDepth(s, published); {
	case cycle:
		v.add("delegates", "the delegation chain %s loops back on itself, so limits.max_delegation_depth (%d) cannot bound it", strings.Join(chain, " -> "), maxDepth)
	case depth > maxDepth:
		v.add("delegates", "the delegation chain %s is %d deep, over limits.max_delegation_depth (%d)", strings.Join(chain, " -> "), depth, maxDepth)
	}
}

// delegationDepth returns the longest chain of delegations starting at s
// through published Specs, or the first cycle found. Delegating to itself
// is reported on its own and left out here.
func delegationDepth(s Spec, published Lookup) (int, []string, bool) {
	var walk func(delegates []string, path []string, onPath map[string]bool) (int, []string, bool)
	walk = func(delegates []string, path []string, onPath map[string]bool) (int, []string, bool) {
		best, bestChain := 0, path
		for _, d := range delegates {
			// An alias is walked as the Spec's newest Version, as a
			// plain entry is.
			name := DelegateSpec(d)
			if name == s.Name && len(path) == 1 {
				continue
			}
			next := append(append([]string{}, path...), d)
			if onPath[name] {
				return 0, next, true
			}
			child, ok := published(name)
			if !ok {
				continue
			}
			onPath[name] = true
			depth, chain, cycle := walk(child.Delegates, next, onPath)
			delete(onPath, name)
			if cycle {
				return 0, chain, true
			}
			if depth+1 > best {
				best, bestChain = depth+1, chain
			}
		}
		return best, bestChain, false
	}
	return walk(s.Delegates, []string{s.Name}, map[string]bool{s.Name: true})
}

func (v *validator) bus(b Bus) {
	seen := map[string]bool{}
	for i, c := range b.Channels {
		p := fmt.Sprintf("bus.channels[%d]", i)
		switch {
		case !b.Enabled:
			v.add(p, "channels need bus.enabled")
		case !namePattern.MatchString(c):
			v.add(p, "channel %q must start with a lower-case letter and hold only a-z, 0-9, '-' and '_'", c)
		case seen[c]:
			v.add(p, "channel %q is listed twice", c)
		}
		seen[c] = true
	}
}

func (v *validator) url(path, raw string, required bool) {
	if raw == "" {
		if required {
			v.add(path, "is required")
		}
		return
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		v.add(path, "%q is not an http or https URL", raw)
	}
}

func hasMCPTool(s Spec) bool {
	for _, t := range s.Tools {
		if t.Kind == KindMCP && t.MCP != nil {
			return true
		}
	}
	return false
}

func isBuiltin(name string) bool {
	for _, b := range Builtins {
		if b == name {
			return true
		}
	}
	return false
}

func isJSONObject(raw json.RawMessage) bool {
	var m map[string]any
	return json.Unmarshal(raw, &m) == nil
}

package spec_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/spec"
)

// valid returns a minimal Spec that passes validation.
func valid() spec.Spec {
	return spec.Spec{
		Name:  "triage",
		Model: spec.Model{Provider: spec.ProviderScripted, Script: []spec.Turn{{Text: "done"}}},
	}
}

// openai returns a minimal valid Spec on the openai provider.
func openai() spec.Spec {
	return spec.Spec{
		Name:  "triage",
		Model: spec.Model{Provider: spec.ProviderOpenAI, Model: "gpt-4o-mini", BaseURL: "https://api.example.com/v1"},
	}
}

// lookupFrom builds a Lookup over a map of published Specs.
func lookupFrom(published map[string]*spec.Spec) spec.Lookup {
	return func(name string) (*spec.Spec, bool) {
		s, ok := published[name]
		return s, ok
	}
}

// published builds a map of published Specs from name -> delegates.
func published(graph map[string][]string) map[string]*spec.Spec {
	out := map[string]*spec.Spec{}
	for name, delegates := range graph {
		s := valid()
		s.Name = name
		s.Delegates = delegates
		out[name] = &s
	}
	return out
}

var nothingPublished = lookupFrom(nil)

// violations runs Validate and returns the *errs.SpecInvalid's violations,
// failing the test when the error is of another type.
func violations(t *testing.T, s spec.Spec, lookup spec.Lookup) []errs.FieldViolation {
	t.Helper()
	err := spec.Validate(s, lookup)
	if err == nil {
		return nil
	}
	var si *errs.SpecInvalid
	if !errors.As(err, &si) {
		t.Fatalf("Validate returned %T (%v), want *errs.SpecInvalid", err, err)
	}
	if si.Spec != s.Name {
		t.Errorf("SpecInvalid.Spec = %q, want %q", si.Spec, s.Name)
	}
	if len(si.Violations) == 0 {
		t.Errorf("SpecInvalid has no violations")
	}
	for _, v := range si.Violations {
		if v.Description == "" {
			t.Errorf("violation of %s has no description", v.Field)
		}
	}
	return si.Violations
}

func describe(vs []errs.FieldViolation) string {
	var b strings.Builder
	for _, v := range vs {
		fmt.Fprintf(&b, "\n  %s: %s", v.Field, v.Description)
	}
	return b.String()
}

func TestValidateAcceptsValidSpecs(t *testing.T) {
	pub := published(map[string][]string{"helper": nil, "researcher": {"helper"}})
	tests := []struct {
		name string
		spec func() spec.Spec
	}{
		{"minimal scripted", valid},
		{"minimal openai", openai},
		{"openai with declared api key credential", func() spec.Spec {
			s := openai()
			s.Credentials = []string{"openai.key"}
			s.Model.APIKeyCredential = "openai.key"
			s.Model.Pricing = &spec.Pricing{InputPerMillion: 0.15, OutputPerMillion: 0.6}
			s.Model.CallTimeout = 30 * time.Minute
			return s
		}},
		{"every tool kind", func() spec.Spec {
			s := valid()
			s.Credentials = []string{"search_token", "mcp-token"}
			s.Delegates = []string{"researcher"}
			s.Bus = spec.Bus{Enabled: true, Channels: []string{"alerts", "jobs"}}
			s.Tools = []spec.Tool{
				{Name: "approve", Kind: spec.KindClient, Parameters: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}}}`)},
				{Name: "resize", Kind: spec.KindWorker, Timeout: 30 * time.Minute},
				{Name: "search", Kind: spec.KindHTTP, HTTP: &spec.HTTPTool{URL: "http://127.0.0.1:8080/search", Credential: "search_token"}},
				{Name: "files", Kind: spec.KindMCP, MCP: &spec.MCPTool{URL: "https://mcp.example.com/", Credential: "mcp-token"}},
				{Name: spec.BuiltinAskUser, Kind: spec.KindBuiltin},
				{Name: spec.BuiltinDelegate, Kind: spec.KindBuiltin},
				{Name: spec.BuiltinMemoryGet, Kind: spec.KindBuiltin},
				{Name: spec.BuiltinMemorySet, Kind: spec.KindBuiltin},
				{Name: spec.BuiltinBusSend, Kind: spec.KindBuiltin},
			}
			return s
		}},
		{"scripted turns with calls, usage and failures", func() spec.Spec {
			s := valid()
			s.Model.Script = []spec.Turn{
				{ToolCalls: []spec.ScriptCall{{Name: "lookup", Arguments: json.RawMessage(`{"q":"x"}`)}, {Name: "noargs"}}, Usage: spec.Usage{InputTokens: 10, OutputTokens: 5}},
				{Fail: &spec.Failure{HTTPStatus: 503, Times: 2, RetryAfter: time.Second}, Delay: time.Hour},
				{Text: "done"},
			}
			return s
		}},
		{"limits at their bounds", func() spec.Spec {
			s := valid()
			s.Model.Pricing = &spec.Pricing{}
			s.Limits = spec.Limits{
				MaxToolRounds: 10000, MaxTurns: 10000, Deadline: 24 * time.Hour, TokenBudget: 1,
				CostBudget: 0.5, TransientRetryBudget: -1, MaxDelegationDepth: 16, MaxDelegationsPerTurn: 256,
			}
			return s
		}},
		{"shortest deadline", func() spec.Spec {
			s := valid()
			s.Limits.Deadline = time.Second
			return s
		}},
		{"expiries at their bounds", func() spec.Spec {
			s := valid()
			month := 30 * 24 * time.Hour
			s.Expiry = spec.Expiry{ToolResults: month, Approval: month, Question: month, Children: time.Minute}
			return s
		}},
		{"delegates published", func() spec.Spec {
			s := valid()
			s.Delegates = []string{"helper", "researcher"}
			return s
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := spec.Validate(tt.spec(), lookupFrom(pub)); err != nil {
				t.Fatalf("Validate = %v, want nil", err)
			}
		})
	}
}

// withTools is a mutation of TestValidateReportsEachRule that sets the
// Spec's tools to ts.
func withTools(ts ...spec.Tool) func(*spec.Spec) {
	return func(s *spec.Spec) { s.Tools = ts }
}

// withTurn is a mutation of TestValidateReportsEachRule that makes tn the
// script's only turn.
func withTurn(tn spec.Turn) func(*spec.Spec) {
	return func(s *spec.Spec) { s.Model.Script = []spec.Turn{tn} }
}

// manyTools is one tool more than a Spec may have.
func manyTools() []spec.Tool {
	ts := make([]spec.Tool, 513)
	for i := range ts {
		ts[i] = spec.Tool{Name: fmt.Sprintf("t%d", i), Kind: spec.KindClient}
	}
	return ts
}

// manyTurns is one turn more than a script may have.
func manyTurns() []spec.Turn { return make([]spec.Turn, 10001) }

// ruleCase is a case of TestValidateReportsEachRule: a Spec made invalid
// in one way, and the one violation that must name it.
type ruleCase struct {
	name   string
	base   func() spec.Spec
	mutate func(*spec.Spec)
	field  string
	// contains is a word the description must hold.
	contains string
}

// ruleCases are the cases of TestValidateReportsEachRule, one or more a
// rule.
var ruleCases = []ruleCase{
	// name
	{"name missing", valid, func(s *spec.Spec) { s.Name = "" }, "name", "required"},
	{"name upper case", valid, func(s *spec.Spec) { s.Name = "Triage" }, "name", "Triage"},
	{"name starts with a digit", valid, func(s *spec.Spec) { s.Name = "9lives" }, "name", "9lives"},
	{"name with a dot", valid, func(s *spec.Spec) { s.Name = "a.b" }, "name", "a.b"},
	{"name too long", valid, func(s *spec.Spec) { s.Name = "a" + strings.Repeat("b", 63) }, "name", "63"},

	// instructions
	{"instructions too long", valid, func(s *spec.Spec) { s.Instructions = strings.Repeat("x", 256<<10+1) }, "instructions", "bytes"},

	// credentials
	{"credential name starts with a digit", valid, func(s *spec.Spec) { s.Credentials = []string{"1key"} }, "credentials[0]", "1key"},
	{"credential name with a space", valid, func(s *spec.Spec) { s.Credentials = []string{"ok", "my key"} }, "credentials[1]", "my key"},
	{"credential declared twice", valid, func(s *spec.Spec) { s.Credentials = []string{"key", "other", "key"} }, "credentials[2]", "twice"},

	// model
	{"provider missing", valid, func(s *spec.Spec) { s.Model.Provider = "" }, "model.provider", "required"},
	{"provider unknown", valid, func(s *spec.Spec) { s.Model.Provider = "gemini" }, "model.provider", "gemini"},
	{"scripted without turns", valid, func(s *spec.Spec) { s.Model.Script = nil }, "model.script.turns", "at least one"},
	{"scripted with too many turns", valid, func(s *spec.Spec) { s.Model.Script = manyTurns() }, "model.script.turns", "10000"},
	{"scripted with base url", valid, func(s *spec.Spec) { s.Model.BaseURL = "http://localhost" }, "model.base_url", "base_url"},
	{"openai without model", openai, func(s *spec.Spec) { s.Model.Model = "" }, "model.model", "required"},
	{"openai without base url", openai, func(s *spec.Spec) { s.Model.BaseURL = "" }, "model.base_url", "required"},
	{"openai base url not http", openai, func(s *spec.Spec) { s.Model.BaseURL = "ftp://example.com" }, "model.base_url", "ftp://example.com"},
	{"openai base url without host", openai, func(s *spec.Spec) { s.Model.BaseURL = "https://" }, "model.base_url", "https://"},
	{"openai with a script", openai, func(s *spec.Spec) { s.Model.Script = []spec.Turn{{Text: "x"}} }, "model.script", "scripted"},
	{"openai api key credential not declared", openai, func(s *spec.Spec) { s.Model.APIKeyCredential = "openai" }, "model.api_key_credential", "openai"},
	{"negative input price", valid, func(s *spec.Spec) { s.Model.Pricing = &spec.Pricing{InputPerMillion: -1} }, "model.pricing", "negative"},
	{"negative output price", valid, func(s *spec.Spec) { s.Model.Pricing = &spec.Pricing{OutputPerMillion: -0.1} }, "model.pricing", "negative"},
	{"negative call timeout", valid, func(s *spec.Spec) { s.Model.CallTimeout = -time.Second }, "model.call_timeout", "between"},
	{"call timeout too long", valid, func(s *spec.Spec) { s.Model.CallTimeout = 31 * time.Minute }, "model.call_timeout", "between"},

	// scripted turns
	{"script call without name", valid, withTurn(spec.Turn{ToolCalls: []spec.ScriptCall{{Name: "ok"}, {}}}), "model.script.turns[0].tool_calls[1].name", "required"},
	{"script call arguments not an object", valid, withTurn(spec.Turn{ToolCalls: []spec.ScriptCall{{Name: "x", Arguments: json.RawMessage(`[1,2]`)}}}), "model.script.turns[0].tool_calls[0].arguments", "object"},
	{"script call arguments not JSON", valid, withTurn(spec.Turn{ToolCalls: []spec.ScriptCall{{Name: "x", Arguments: json.RawMessage(`{nope`)}}}), "model.script.turns[0].tool_calls[0].arguments", "object"},
	{"negative usage", valid, withTurn(spec.Turn{Usage: spec.Usage{OutputTokens: -1}}), "model.script.turns[0].usage", "negative"},
	{"fail status not an error", valid, withTurn(spec.Turn{Fail: &spec.Failure{HTTPStatus: 200}}), "model.script.turns[0].fail.http_status", "200"},
	{"fail status too high", valid, withTurn(spec.Turn{Fail: &spec.Failure{HTTPStatus: 600}}), "model.script.turns[0].fail.http_status", "600"},
	{"fail negative times", valid, withTurn(spec.Turn{Fail: &spec.Failure{HTTPStatus: 500, Times: -1}}), "model.script.turns[0].fail.times", "negative"},
	{"fail negative retry after", valid, withTurn(spec.Turn{Fail: &spec.Failure{HTTPStatus: 429, RetryAfter: -time.Second}}), "model.script.turns[0].fail.retry_after", "negative"},
	{"negative delay", valid, withTurn(spec.Turn{Delay: -time.Millisecond}), "model.script.turns[0].delay", "between"},
	{"delay over an hour", valid, withTurn(spec.Turn{Delay: time.Hour + time.Second}), "model.script.turns[0].delay", "between"},
	{"second turn is named by index", valid, func(s *spec.Spec) {
		s.Model.Script = []spec.Turn{{Text: "a"}, {Usage: spec.Usage{InputTokens: -5}}}
	}, "model.script.turns[1].usage", "negative"},

	// tools
	{"too many tools", valid, withTools(manyTools()...), "tools", "512"},
	{"tool without name", valid, withTools(spec.Tool{Kind: spec.KindClient}), "tools[0].name", "required"},
	{"tool name with a space", valid, withTools(spec.Tool{Name: "look up", Kind: spec.KindClient}), "tools[0].name", "look up"},
	{"tool name too long", valid, withTools(spec.Tool{Name: strings.Repeat("t", 65), Kind: spec.KindClient}), "tools[0].name", "64"},
	{"duplicate tool name", valid, withTools(spec.Tool{Name: "a", Kind: spec.KindClient}, spec.Tool{Name: "b", Kind: spec.KindClient}, spec.Tool{Name: "a", Kind: spec.KindWorker}), "tools[2].name", "tools[0]"},
	{"client tool with http settings", valid, withTools(spec.Tool{Name: "a", Kind: spec.KindClient, HTTP: &spec.HTTPTool{URL: "http://x"}}), "tools[0]", "client"},
	{"worker tool with mcp settings", valid, withTools(spec.Tool{Name: "a", Kind: spec.KindWorker, MCP: &spec.MCPTool{URL: "http://x"}}), "tools[0]", "worker"},
	{"http tool without settings", valid, withTools(spec.Tool{Name: "a", Kind: spec.KindHTTP}), "tools[0].http.url", "required"},
	{"http tool without url", valid, withTools(spec.Tool{Name: "a", Kind: spec.KindHTTP, HTTP: &spec.HTTPTool{}}), "tools[0].http.url", "required"},
	{"http tool with a bad url", valid, withTools(spec.Tool{Name: "a", Kind: spec.KindHTTP, HTTP: &spec.HTTPTool{URL: "file:///etc/passwd"}}), "tools[0].http.url", "file:///etc/passwd"},
	{"http tool credential not declared", valid, withTools(spec.Tool{Name: "a", Kind: spec.KindHTTP, HTTP: &spec.HTTPTool{URL: "http://x", Credential: "tok"}}), "tools[0].http.credential", "tok"},
	{"mcp tool without settings", valid, withTools(spec.Tool{Name: "a", Kind: spec.KindMCP}), "tools[0].mcp.url", "required"},
	{"mcp tool with a bad url", valid, withTools(spec.Tool{Name: "a", Kind: spec.KindMCP, MCP: &spec.MCPTool{URL: "localhost:9000"}}), "tools[0].mcp.url", "localhost:9000"},
	{"mcp tool credential not declared", valid, withTools(spec.Tool{Name: "a", Kind: spec.KindMCP, MCP: &spec.MCPTool{URL: "https://x", Credential: "tok"}}), "tools[0].mcp.credential", "tok"},
	{"builtin that does not exist", valid, withTools(spec.Tool{Name: "web_search", Kind: spec.KindBuiltin}), "tools[0].name", "web_search"},
	{"builtin delegate without delegates", valid, withTools(spec.Tool{Name: spec.BuiltinDelegate, Kind: spec.KindBuiltin}), "tools[0]", "delegates"},
	{"builtin bus_send without a bus", valid, withTools(spec.Tool{Name: spec.BuiltinBusSend, Kind: spec.KindBuiltin}), "tools[0]", "bus.enabled"},
	{"builtin name declared as a client tool", valid, withTools(spec.Tool{Name: spec.BuiltinAskUser, Kind: spec.KindClient}), "tools[0].name", "builtin"},
	{"builtin name declared as an http tool", valid, withTools(spec.Tool{Name: spec.BuiltinMemorySet, Kind: spec.KindHTTP, HTTP: &spec.HTTPTool{URL: "http://x"}}), "tools[0].name", "builtin"},
	{"tool kind missing", valid, withTools(spec.Tool{Name: "a"}), "tools[0].kind", "required"},
	{"tool kind unknown", valid, withTools(spec.Tool{Name: "a", Kind: "lambda"}), "tools[0].kind", "lambda"},
	{"parameters not an object", valid, withTools(spec.Tool{Name: "a", Kind: spec.KindClient, Parameters: json.RawMessage(`["x"]`)}), "tools[0].parameters", "JSON Schema"},
	{"parameters not JSON", valid, withTools(spec.Tool{Name: "a", Kind: spec.KindClient, Parameters: json.RawMessage(`{`)}), "tools[0].parameters", "JSON Schema"},
	{"parameters type not object", valid, withTools(spec.Tool{Name: "a", Kind: spec.KindClient, Parameters: json.RawMessage(`{"type":"string"}`)}), "tools[0].parameters.type", "object"},
	{"parameters properties not an object", valid, withTools(spec.Tool{Name: "a", Kind: spec.KindClient, Parameters: json.RawMessage(`{"type":"object","properties":[]}`)}), "tools[0].parameters.properties", "object"},
	{"parameters with a misspelt type", valid, withTools(spec.Tool{Name: "a", Kind: spec.KindClient, Parameters: json.RawMessage(`{"type":"object","properties":{"q":{"type":"strng"}}}`)}), "tools[0].parameters.properties.q.type", "schema path /properties/q/type"},
	{"parameters requiring an undefined property", valid, withTools(spec.Tool{Name: "a", Kind: spec.KindClient, Parameters: json.RawMessage(`{"type":"object","properties":{"q":{}},"required":["q","missing"]}`)}), "tools[0].parameters.required[1]", `"missing"`},
	{"output without a schema", valid, func(s *spec.Spec) { s.Output = &spec.Output{} }, "output.schema", "required"},
	{"output schema not an object", valid, func(s *spec.Spec) { s.Output = &spec.Output{Schema: json.RawMessage(`"x"`)} }, "output.schema", "JSON Schema object"},
	{"output schema that does not compile", valid, func(s *spec.Spec) { s.Output = &spec.Output{Schema: json.RawMessage(`{"minLength":-1}`)} }, "output.schema.minLength", "schema path /minLength"},
	{"negative tool timeout", valid, withTools(spec.Tool{Name: "a", Kind: spec.KindWorker, Timeout: -1}), "tools[0].timeout", "between"},
	{"tool timeout too long", valid, withTools(spec.Tool{Name: "a", Kind: spec.KindWorker, Timeout: 31 * time.Minute}), "tools[0].timeout", "between"},
	{"second tool is named by index", valid, withTools(spec.Tool{Name: "a", Kind: spec.KindClient}, spec.Tool{Name: "b", Kind: "nope"}), "tools[1].kind", "nope"},

	// limits
	{"negative max_tool_rounds", valid, func(s *spec.Spec) { s.Limits.MaxToolRounds = -1 }, "limits.max_tool_rounds", "-1"},
	{"max_tool_rounds too high", valid, func(s *spec.Spec) { s.Limits.MaxToolRounds = 10001 }, "limits.max_tool_rounds", "10001"},
	{"negative max_turns", valid, func(s *spec.Spec) { s.Limits.MaxTurns = -3 }, "limits.max_turns", "-3"},
	{"max_turns too high", valid, func(s *spec.Spec) { s.Limits.MaxTurns = 10001 }, "limits.max_turns", "10001"},
	{"retry budget below -1", valid, func(s *spec.Spec) { s.Limits.TransientRetryBudget = -2 }, "limits.transient_retry_budget", "-2"},
	{"retry budget too high", valid, func(s *spec.Spec) { s.Limits.TransientRetryBudget = 1001 }, "limits.transient_retry_budget", "1001"},
	{"negative delegation depth", valid, func(s *spec.Spec) { s.Limits.MaxDelegationDepth = -1 }, "limits.max_delegation_depth", "-1"},
	{"delegation depth too high", valid, func(s *spec.Spec) { s.Limits.MaxDelegationDepth = 17 }, "limits.max_delegation_depth", "17"},
	{"negative delegations per turn", valid, func(s *spec.Spec) { s.Limits.MaxDelegationsPerTurn = -1 }, "limits.max_delegations_per_turn", "-1"},
	{"delegations per turn too high", valid, func(s *spec.Spec) { s.Limits.MaxDelegationsPerTurn = 257 }, "limits.max_delegations_per_turn", "257"},
	{"negative deadline", valid, func(s *spec.Spec) { s.Limits.Deadline = -time.Second }, "limits.deadline", "out of range"},
	{"deadline over a day", valid, func(s *spec.Spec) { s.Limits.Deadline = 24*time.Hour + time.Second }, "limits.deadline", "out of range"},
	{"deadline under a second", valid, func(s *spec.Spec) { s.Limits.Deadline = 500 * time.Millisecond }, "limits.deadline", "too short"},
	{"negative token budget", valid, func(s *spec.Spec) { s.Limits.TokenBudget = -1 }, "limits.token_budget", "negative"},
	{"negative cost budget", valid, func(s *spec.Spec) { s.Limits.CostBudget = -1 }, "limits.cost_budget", "negative"},
	{"cost budget without pricing", valid, func(s *spec.Spec) { s.Limits.CostBudget = 1.5 }, "limits.cost_budget", "pricing"},
	{"NaN cost budget", valid, func(s *spec.Spec) { s.Limits.CostBudget = math.NaN() }, "limits.cost_budget", "NaN is not a number"},
	{"infinite cost budget", valid, func(s *spec.Spec) {
		s.Limits.CostBudget = math.Inf(1)
		s.Model.Pricing = &spec.Pricing{}
	}, "limits.cost_budget", "+Inf is not a number"},
	{"NaN input price", valid, func(s *spec.Spec) { s.Model.Pricing = &spec.Pricing{InputPerMillion: math.NaN()} }, "model.pricing.input_per_million", "NaN"},
	{"negative infinite output price", valid, func(s *spec.Spec) { s.Model.Pricing = &spec.Pricing{OutputPerMillion: math.Inf(-1)} }, "model.pricing.output_per_million", "-Inf"},

	// suspension expiry
	{"negative tool results expiry", valid, func(s *spec.Spec) { s.Expiry.ToolResults = -time.Second }, "suspension_expiry.tool_results", "out of range"},
	{"approval expiry over 30 days", valid, func(s *spec.Spec) { s.Expiry.Approval = 31 * 24 * time.Hour }, "suspension_expiry.approval", "out of range"},
	{"negative question expiry", valid, func(s *spec.Spec) { s.Expiry.Question = -1 }, "suspension_expiry.question", "out of range"},
	{"children expiry over 30 days", valid, func(s *spec.Spec) { s.Expiry.Children = 30*24*time.Hour + 1 }, "suspension_expiry.children", "out of range"},
	{"max sleep over a day", valid, func(s *spec.Spec) { s.Timers = &spec.Timers{MaxSleep: 25 * time.Hour} }, "timers.max_sleep", "out of range"},
	{"negative max sleep", valid, func(s *spec.Spec) { s.Timers = &spec.Timers{MaxSleep: -time.Second} }, "timers.max_sleep", "out of range"},

	// delegates
	{"delegate not published", valid, func(s *spec.Spec) { s.Delegates = []string{"ghost"} }, "delegates[0]", "not a published Spec"},
	{"delegate listed twice", valid, func(s *spec.Spec) { s.Delegates = []string{"helper", "helper"} }, "delegates[1]", "twice"},
	{"second delegate not published", valid, func(s *spec.Spec) { s.Delegates = []string{"helper", "ghost"} }, "delegates[1]", "ghost"},
	{"delegate alias of an unpublished Spec", valid, func(s *spec.Spec) { s.Delegates = []string{"ghost@prod"} }, "delegates[0]", `"ghost" is not a published Spec`},
	{"delegate alias not an alias name", valid, func(s *spec.Spec) { s.Delegates = []string{"helper@Prod!"} }, "delegates[0]", `"helper@Prod!" names "Prod!"`},
	{"delegate alias empty", valid, func(s *spec.Spec) { s.Delegates = []string{"helper@"} }, "delegates[0]", "not an alias name"},
	{"delegate alias twice", valid, func(s *spec.Spec) { s.Delegates = []string{"helper@prod", "helper@a@b"} }, "delegates[1]", `names "a@b"`},
	{"delegate alias listed twice", valid, func(s *spec.Spec) { s.Delegates = []string{"helper@prod", "helper@prod"} }, "delegates[1]", "twice"},
	{"delegate alias of itself", valid, func(s *spec.Spec) { s.Delegates = []string{s.Name + "@prod"} }, "delegates[0]", "itself"},

	// bus
	{"channels without bus", valid, func(s *spec.Spec) { s.Bus = spec.Bus{Channels: []string{"alerts"}} }, "bus.channels[0]", "bus.enabled"},
	{"bad channel name", valid, func(s *spec.Spec) { s.Bus = spec.Bus{Enabled: true, Channels: []string{"ok", "Alerts!"}} }, "bus.channels[1]", "Alerts!"},
	{"channel listed twice", valid, func(s *spec.Spec) { s.Bus = spec.Bus{Enabled: true, Channels: []string{"a", "b", "a"}} }, "bus.channels[2]", "twice"},

	// exposure (issue 36): the description is counted in characters.
	{"exposure description too long", valid, func(s *spec.Spec) {
		s.Exposure = &spec.Exposure{A2A: true, Description: strings.Repeat("é", spec.MaxExposureDescription+1)}
	}, "exposure.description", "1025 characters"},
	{"exposure alias not an alias name", valid, func(s *spec.Spec) { s.Exposure = &spec.Exposure{MCP: true, Alias: "Prod!"} }, "exposure.alias", "Prod!"},
}

// TestValidateExposureAtItsBound: a description of exactly 1,024
// characters (2,048 bytes) is accepted.
func TestValidateExposureAtItsBound(t *testing.T) {
	s := valid()
	s.Exposure = &spec.Exposure{A2A: true, MCP: true, Description: strings.Repeat("é", spec.MaxExposureDescription)}
	if vs := violations(t, s, lookupFrom(published(map[string][]string{"helper": nil}))); len(vs) != 0 {
		t.Errorf("violations = %s", describe(vs))
	}
}

func TestValidateReportsEachRule(t *testing.T) {
	tests := ruleCases
	lookup := lookupFrom(published(map[string][]string{"helper": nil}))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.base()
			tt.mutate(&s)
			vs := violations(t, s, lookup)
			if len(vs) != 1 || vs[0].Field != tt.field {
				t.Fatalf("violations = %s\nwant exactly one, of %s", describe(vs), tt.field)
			}
			if !strings.Contains(vs[0].Description, tt.contains) {
				t.Errorf("description %q does not mention %q", vs[0].Description, tt.contains)
			}
		})
	}
}

func TestValidateReportsEveryProblemAtOnce(t *testing.T) {
	s := spec.Spec{
		Name:         "many-problems",
		Instructions: "be careful",
		Model: spec.Model{
			Provider: spec.ProviderOpenAI,
			BaseURL:  "gopher://x",
			Pricing:  &spec.Pricing{InputPerMillion: -1},
		},
		Credentials: []string{"ok", "ok"},
		Tools: []spec.Tool{
			{Name: "bad name", Kind: spec.KindClient},
			{Name: "fetch", Kind: spec.KindHTTP},
			{Name: "x", Kind: "lambda"},
		},
		Delegates: []string{"ghost"},
		Limits:    spec.Limits{MaxTurns: -1, Deadline: 48 * time.Hour, TokenBudget: -5},
		Expiry:    spec.Expiry{Approval: -time.Minute},
		Bus:       spec.Bus{Channels: []string{"alerts"}},
	}
	want := []string{
		"credentials[1]",
		"model.model",
		"model.base_url",
		"model.pricing",
		"tools[0].name",
		"tools[1].http.url",
		"tools[2].kind",
		"limits.max_turns",
		"limits.deadline",
		"limits.token_budget",
		"suspension_expiry.approval",
		"delegates[0]",
		"bus.channels[0]",
	}
	err := spec.Validate(s, nothingPublished)
	var si *errs.SpecInvalid
	if !errors.As(err, &si) {
		t.Fatalf("Validate = %T %v, want *errs.SpecInvalid", err, err)
	}
	if si.Spec != "many-problems" {
		t.Errorf("Spec = %q, want many-problems", si.Spec)
	}
	var got []string
	for _, v := range si.Violations {
		got = append(got, v.Field)
	}
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("violation fields:\n%s\nwant (one each):\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(err.Error(), "and 12 more") {
		t.Errorf("Error() = %q, want it to say how many more problems there are", err.Error())
	}
}

// TestValidateAcceptsDelegatesByAlias: a delegates entry may name an
// alias of a published Spec, whether or not the alias exists yet.
func TestValidateAcceptsDelegatesByAlias(t *testing.T) {
	s := valid()
	s.Delegates = []string{"helper@prod", "helper", "researcher@canary-2_b"}
	if vs := violations(t, s, lookupFrom(published(map[string][]string{"helper": nil, "researcher": {"helper@prod"}}))); len(vs) != 0 {
		t.Fatalf("violations = %s, want none", describe(vs))
	}
}

// aliasDepthCases are TestValidateDelegationDepth's cases of delegates
// naming aliases: an entry name@alias counts as its Spec.
var aliasDepthCases = []struct {
	name      string
	graph     map[string][]string // published Specs and their delegates
	delegates []string            // the Spec under test ("root")
	maxDepth  int
	wantErr   bool
	// chain is what the violation must name, e.g. "root -> a -> b".
	chain string
}{
	{
		name:  "an alias counts as its Spec",
		graph: map[string][]string{"a": {"b@prod"}, "b": {"c"}, "c": {"d@canary"}, "d": nil}, delegates: []string{"a@prod"},
		wantErr: true, chain: "root -> a@prod -> b@prod -> c -> d@canary",
	},
	{
		name:  "a cycle through aliases",
		graph: map[string][]string{"a": {"b@prod"}, "b": {"a"}}, delegates: []string{"a@prod"},
		maxDepth: 16, wantErr: true, chain: "root -> a@prod -> b@prod -> a",
	},
	{
		name:  "a cycle back to the Spec itself by an alias",
		graph: map[string][]string{"a": {"root@prod"}}, delegates: []string{"a"},
		maxDepth: 16, wantErr: true, chain: "root -> a -> root@prod",
	},
}

func TestValidateDelegationDepth(t *testing.T) {
	tests := []struct {
		name      string
		graph     map[string][]string // published Specs and their delegates
		delegates []string            // the Spec under test ("root")
		maxDepth  int
		wantErr   bool
		// chain is what the violation must name, e.g. "root -> a -> b".
		chain string
	}{
		{name: "no delegates", graph: nil, delegates: nil},
		{name: "one level", graph: map[string][]string{"a": nil}, delegates: []string{"a"}},
		{name: "chain of three is the default limit", graph: map[string][]string{"a": {"b"}, "b": {"c"}, "c": nil}, delegates: []string{"a"}},
		{
			name:  "chain of four is over the default limit",
			graph: map[string][]string{"a": {"b"}, "b": {"c"}, "c": {"d"}, "d": nil}, delegates: []string{"a"},
			wantErr: true, chain: "root -> a -> b -> c -> d",
		},
		{
			name:  "chain of four with a raised limit",
			graph: map[string][]string{"a": {"b"}, "b": {"c"}, "c": {"d"}, "d": nil}, delegates: []string{"a"},
			maxDepth: 4,
		},
		{
			name:  "limit of one",
			graph: map[string][]string{"a": {"b"}, "b": nil}, delegates: []string{"a"},
			maxDepth: 1, wantErr: true, chain: "root -> a -> b",
		},
		{
			name:  "longest branch counts",
			graph: map[string][]string{"a": nil, "b": {"c"}, "c": {"d"}, "d": {"e"}, "e": nil}, delegates: []string{"a", "b"},
			wantErr: true, chain: "root -> b -> c -> d -> e",
		},
		{
			name:  "shared delegates in a diamond are not a cycle",
			graph: map[string][]string{"a": {"c"}, "b": {"c"}, "c": nil}, delegates: []string{"a", "b"},
		},
		{
			name:  "unpublished delegates deeper down do not count",
			graph: map[string][]string{"a": {"ghost"}}, delegates: []string{"a"},
			maxDepth: 1,
		},
		{
			name:  "cycle between delegates",
			graph: map[string][]string{"a": {"b"}, "b": {"a"}}, delegates: []string{"a"},
			maxDepth: 16, wantErr: true, chain: "root -> a -> b -> a",
		},
		{
			name:  "cycle back to the Spec itself",
			graph: map[string][]string{"a": {"root"}}, delegates: []string{"a"},
			maxDepth: 16, wantErr: true, chain: "root -> a -> root",
		},
	}
	for _, tt := range append(tests, aliasDepthCases...) {
		t.Run(tt.name, func(t *testing.T) {
			s := valid()
			s.Name = "root"
			s.Delegates = tt.delegates
			s.Limits.MaxDelegationDepth = tt.maxDepth
			vs := violations(t, s, lookupFrom(published(tt.graph)))
			if !tt.wantErr {
				if len(vs) != 0 {
					t.Fatalf("violations = %s, want none", describe(vs))
				}
				return
			}
			if len(vs) != 1 || vs[0].Field != "delegates" {
				t.Fatalf("violations = %s\nwant exactly one, of delegates", describe(vs))
			}
			if !strings.Contains(vs[0].Description, tt.chain) {
				t.Errorf("description %q does not name the chain %q", vs[0].Description, tt.chain)
			}
			if !strings.Contains(vs[0].Description, "max_delegation_depth") {
				t.Errorf("description %q does not name the limit", vs[0].Description)
			}
		})
	}
}

// A cycle is reported as over the limit; its description must not present
// the internal "unbounded" sentinel as if it were a real depth.
func TestValidateDelegationCycleDescription(t *testing.T) {
	s := valid()
	s.Name = "root"
	s.Delegates = []string{"a"}
	vs := violations(t, s, lookupFrom(published(map[string][]string{"a": {"b"}, "b": {"a"}})))
	if len(vs) != 1 {
		t.Fatalf("violations = %s, want one", describe(vs))
	}
	for _, word := range strings.Fields(vs[0].Description) {
		if n, err := strconv.Atoi(strings.Trim(word, "(),.")); err == nil && n >= 1<<20 {
			t.Errorf("description %q reports a depth of %d for a cycle; it should say the chain is a cycle", vs[0].Description, n)
		}
	}
}

// Delegating to oneself is one problem and must be reported once, at
// delegates[0]; the depth walk must not report it a second time as an
// unbounded chain.
func TestValidateSelfDelegationReportedOnce(t *testing.T) {
	s := valid()
	s.Delegates = []string{s.Name}
	vs := violations(t, s, nothingPublished)
	if len(vs) != 1 || vs[0].Field != "delegates[0]" {
		t.Fatalf("violations = %s\nwant exactly one, of delegates[0]", describe(vs))
	}
	if !strings.Contains(vs[0].Description, "itself") {
		t.Errorf("description %q does not say the Spec delegates to itself", vs[0].Description)
	}
}

func TestLimitsEffective(t *testing.T) {
	tests := []struct {
		name string
		in   spec.Limits
		want spec.Limits
	}{
		{
			name: "zero means the defaults",
			in:   spec.Limits{},
			want: spec.Limits{
				MaxToolRounds: spec.DefaultMaxToolRounds, MaxTurns: spec.DefaultMaxTurns, Deadline: spec.DefaultDeadline,
				TransientRetryBudget: spec.DefaultTransientRetryBudget, MaxDelegationDepth: spec.DefaultMaxDelegationDepth,
				MaxDelegationsPerTurn: spec.DefaultMaxDelegationsPerTurn,
			},
		},
		{
			name: "set values are kept",
			in: spec.Limits{
				MaxToolRounds: 3, MaxTurns: 4, Deadline: time.Minute, TokenBudget: 100, CostBudget: 0.25,
				TransientRetryBudget: 7, MaxDelegationDepth: 2, MaxDelegationsPerTurn: 1,
			},
			want: spec.Limits{
				MaxToolRounds: 3, MaxTurns: 4, Deadline: time.Minute, TokenBudget: 100, CostBudget: 0.25,
				TransientRetryBudget: 7, MaxDelegationDepth: 2, MaxDelegationsPerTurn: 1,
			},
		},
		{
			name: "retry budget -1 means no retries",
			in:   spec.Limits{TransientRetryBudget: -1},
			want: spec.Limits{
				MaxToolRounds: spec.DefaultMaxToolRounds, MaxTurns: spec.DefaultMaxTurns, Deadline: spec.DefaultDeadline,
				TransientRetryBudget: 0, MaxDelegationDepth: spec.DefaultMaxDelegationDepth,
				MaxDelegationsPerTurn: spec.DefaultMaxDelegationsPerTurn,
			},
		},
		{
			name: "budgets have no default",
			in:   spec.Limits{MaxTurns: 9},
			want: spec.Limits{
				MaxToolRounds: spec.DefaultMaxToolRounds, MaxTurns: 9, Deadline: spec.DefaultDeadline,
				TransientRetryBudget: spec.DefaultTransientRetryBudget, MaxDelegationDepth: spec.DefaultMaxDelegationDepth,
				MaxDelegationsPerTurn: spec.DefaultMaxDelegationsPerTurn,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.in.Effective(); got != tt.want {
				t.Errorf("Effective() = %+v\nwant %+v", got, tt.want)
			}
		})
	}
	t.Run("documented defaults", func(t *testing.T) {
		got := spec.Limits{}.Effective()
		if got.Deadline != 15*time.Minute || got.MaxToolRounds != 25 || got.MaxTurns != 50 || got.TransientRetryBudget != 5 {
			t.Errorf("defaults = %+v, want deadline 15m, 25 tool rounds, 50 turns, retry budget 5", got)
		}
	})
}

func TestExpiryEffective(t *testing.T) {
	tests := []struct {
		name string
		in   spec.Expiry
		want spec.Expiry
	}{
		{
			name: "zero means the defaults",
			in:   spec.Expiry{},
			want: spec.Expiry{ToolResults: time.Hour, Approval: 24 * time.Hour, Question: 24 * time.Hour, Children: time.Hour},
		},
		{
			name: "set values are kept",
			in:   spec.Expiry{ToolResults: time.Minute, Approval: 2 * time.Minute, Question: 3 * time.Minute, Children: 4 * time.Minute},
			want: spec.Expiry{ToolResults: time.Minute, Approval: 2 * time.Minute, Question: 3 * time.Minute, Children: 4 * time.Minute},
		},
		{
			name: "each field defaults on its own",
			in:   spec.Expiry{Question: time.Second},
			want: spec.Expiry{ToolResults: spec.DefaultToolResultsExpiry, Approval: spec.DefaultApprovalExpiry, Question: time.Second, Children: spec.DefaultChildrenExpiry},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.in.Effective(); got != tt.want {
				t.Errorf("Effective() = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestValidateBoundsHostileSpecs: a Spec with far too many tools or turns
// is refused after checking only as many as are allowed, so its cost and
// its violations stay bounded.
func TestValidateBoundsHostileSpecs(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(*spec.Spec)
		field string
	}{
		{"200,000 nameless tools", func(s *spec.Spec) { s.Tools = make([]spec.Tool, 200000) }, "tools"},
		{"200,000 empty turns", func(s *spec.Spec) { s.Model.Script = make([]spec.Turn, 200000) }, "model.script.turns"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := valid()
			tt.edit(&s)
			vs := violations(t, s, nothingPublished)
			counted := false
			for _, v := range vs {
				counted = counted || (v.Field == tt.field && strings.Contains(v.Description, "at most"))
			}
			if !counted {
				t.Errorf("no violation on %s saying how many are allowed", tt.field)
			}
			if len(vs) > 4*10000 {
				t.Errorf("%d violations, want them bounded by the limits", len(vs))
			}
		})
	}
}

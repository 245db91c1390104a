package policy_test

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runsvc/runsvc/internal/policy"
)

// writeRules writes a rules file into a fresh temporary directory.
func writeRules(t *testing.T, body string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "policy.json")
	if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

func mustLoad(t *testing.T, body string) *policy.Rules {
	t.Helper()
	r, err := policy.LoadRules(writeRules(t, body))
	if err != nil {
		t.Fatalf("LoadRules = %v", err)
	}
	return r
}

func TestLoadRulesAcceptsValidFiles(t *testing.T) {
	tests := []struct {
		name      string
		body      string
		wantRules int
		wantTools int
	}{
		{"empty object", `{}`, 0, 0},
		{"no rules", `{"tools": {"search": {"effect": "read_only"}}}`, 0, 1},
		{"the documented example", `{
		  "tools": {"delete_repo": {"effect": "destructive"}, "search": {"effect": "read_only"}},
		  "rules": [
		    {"effect": "destructive", "decision": "require_approval", "reason": "destructive tools need a person"},
		    {"spec": "intern-*", "effect": "write", "decision": "narrow", "reason": "interns only read"},
		    {"action": "start_run", "spec": "legacy", "decision": "deny", "reason": "retired"}
		  ]
		}`, 3, 2},
		{"every decision", `{"rules": [
		  {"decision": "allow"}, {"decision": "deny"}, {"decision": "narrow"}, {"decision": "require_approval"},
		  {"action": "start_run", "decision": "allow"}, {"action": "start_run", "decision": "deny"}
		]}`, 6, 0},
		{"every effect", `{"tools": {"a": {"effect": "read_only"}, "b": {"effect": "write"}, "c": {"effect": "destructive"}}}`, 0, 3},
		{"globs with classes", `{"rules": [{"spec": "team-[a-c]?", "tool": "get_*", "decision": "deny"}]}`, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := mustLoad(t, tt.body)
			if len(r.Rules) != tt.wantRules || len(r.Tools) != tt.wantTools {
				t.Errorf("loaded %d rules and %d tools, want %d and %d", len(r.Rules), len(r.Tools), tt.wantRules, tt.wantTools)
			}
		})
	}
}

func TestLoadRulesRejectsInvalidFiles(t *testing.T) {
	tests := []struct {
		name string
		body string
		// want are words the error must hold so its reader can fix the file.
		want []string
	}{
		{"not JSON", `{"rules": [`, []string{"policy file"}},
		{"rules not a list", `{"rules": {"decision": "deny"}}`, []string{"policy file"}},
		{"bad tool effect", `{"tools": {"rm": {"effect": "dangerous"}}}`, []string{"tools.rm.effect", "dangerous", "read_only"}},
		{"missing tool effect", `{"tools": {"rm": {}}}`, []string{"tools.rm.effect"}},
		{"bad rule effect", `{"rules": [{"effect": "destrutive", "decision": "deny"}]}`, []string{"rules[0]", "destrutive"}},
		{"bad decision", `{"rules": [{"decision": "allow"}, {"decision": "maybe"}]}`, []string{"rules[1].decision", "maybe", "require_approval"}},
		{"missing decision", `{"rules": [{"tool": "x"}]}`, []string{"rules[0].decision"}},
		{"bad action", `{"rules": [{"action": "delete_run", "decision": "deny"}]}`, []string{"rules[0].action", "delete_run", "start_run"}},
		{"bad spec glob", `{"rules": [{"spec": "team-[", "decision": "deny"}]}`, []string{"rules[0]", "team-["}},
		{"bad tool glob", `{"rules": [{"decision": "allow"}, {"tool": "a[b", "decision": "deny"}]}`, []string{"rules[1]", "a[b"}},
		{"start_run with narrow", `{"rules": [{"action": "start_run", "decision": "narrow"}]}`, []string{"rules[0]", "allowed or denied"}},
		{"start_run with require_approval", `{"rules": [{"action": "start_run", "decision": "require_approval"}]}`, []string{"rules[0]", "allowed or denied"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := policy.LoadRules(writeRules(t, tt.body))
			if err == nil {
				t.Fatalf("LoadRules accepted %s", tt.body)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
	t.Run("missing file", func(t *testing.T) {
		_, err := policy.LoadRules(filepath.Join(t.TempDir(), "absent.json"))
		if !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("LoadRules = %v, want an error wrapping not-exist", err)
		}
	})
}

const rulesFile = `{
  "tools": {
    "delete_repo": {"effect": "destructive"},
    "search":      {"effect": "read_only"},
    "get_issue":   {"effect": "read_only"},
    "comment":     {"effect": "write"}
  },
  "rules": [
    {"action": "start_run", "spec": "legacy", "decision": "deny", "reason": "retired"},
    {"action": "start_run", "spec": "legacy-*", "decision": "allow"},
    {"action": "start_run", "spec": "old-*", "decision": "deny"},
    {"effect": "destructive", "decision": "require_approval", "reason": "destructive tools need a person"},
    {"spec": "intern-*", "effect": "write", "decision": "narrow", "reason": "interns only read"},
    {"spec": "intern-*", "tool": "get_*", "decision": "deny", "reason": "interns may not read issues"},
    {"spec": "bot", "tool": "search", "decision": "deny", "reason": "bots do not search"},
    {"tool": "search", "decision": "allow"},
    {"spec": "*", "tool": "search", "decision": "deny", "reason": "never reached"},
    {"tool": "shell", "effect": "write", "decision": "deny"}
  ]
}`

func TestRulesToolCall(t *testing.T) {
	r := mustLoad(t, rulesFile)
	tests := []struct {
		name       string
		spec, tool string
		want       policy.Outcome
		wantReason string
	}{
		{"no rule matches", "triage", "comment", policy.Allow, ""},
		{"effect rule matches a listed destructive tool", "triage", "delete_repo", policy.Approve, "destructive tools need a person"},
		{"first matching rule wins over a later narrower one", "intern-1", "delete_repo", policy.Approve, "destructive tools need a person"},
		{"spec glob and listed write effect", "intern-1", "comment", policy.Narrow, "interns only read"},
		{"an unlisted tool has effect write", "intern-7", "unlisted", policy.Narrow, "interns only read"},
		{"read_only is not write", "intern-1", "search", policy.Allow, ""},
		{"tool glob", "intern-1", "get_issue", policy.Deny, "interns may not read issues"},
		{"spec glob does not match another name", "interns", "comment", policy.Allow, ""},
		{"exact spec and tool", "bot", "search", policy.Deny, "bots do not search"},
		{"first rule wins over a later one matching the same call", "triage", "search", policy.Allow, ""},
		{"unlisted tool matches effect write", "triage", "shell", policy.Deny, "policy rule decided deny"},
		{"start_run rules do not apply to tool calls", "legacy", "comment", policy.Allow, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := r.ToolCall(context.Background(), policy.Subject{Tenant: "default", Spec: tt.spec, RunID: "run_1"}, tt.tool, json.RawMessage(`{}`))
			if got.Outcome != tt.want {
				t.Fatalf("ToolCall(%s, %s) = %+v, want %s", tt.spec, tt.tool, got, tt.want)
			}
			if tt.want != policy.Allow && got.Reason != tt.wantReason {
				t.Errorf("reason = %q, want %q", got.Reason, tt.wantReason)
			}
		})
	}
}

func TestRulesStartRun(t *testing.T) {
	r := mustLoad(t, rulesFile)
	tests := []struct {
		name       string
		spec       string
		want       policy.Outcome
		wantReason string
	}{
		{"exact name", "legacy", policy.Deny, "retired"},
		{"glob allow", "legacy-2", policy.Allow, ""},
		{"glob deny with the default reason", "old-triage", policy.Deny, "policy rule decided deny"},
		{"no start_run rule matches", "triage", policy.Allow, ""},
		{"tool_call rules do not apply to run starts", "intern-1", policy.Allow, ""},
		{"tool_call rules without spec or tool do not apply", "bot", policy.Allow, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := r.StartRun(context.Background(), policy.Subject{Tenant: "default", Spec: tt.spec})
			if got.Outcome != tt.want {
				t.Fatalf("StartRun(%s) = %+v, want %s", tt.spec, got, tt.want)
			}
			if tt.want != policy.Allow && got.Reason != tt.wantReason {
				t.Errorf("reason = %q, want %q", got.Reason, tt.wantReason)
			}
		})
	}
	t.Run("explicit tool_call action is not a start", func(t *testing.T) {
		r := mustLoad(t, `{"rules": [{"action": "tool_call", "decision": "deny"}]}`)
		if got := r.StartRun(context.Background(), policy.Subject{Spec: "x"}); got.Outcome != policy.Allow {
			t.Errorf("StartRun = %+v, want allow", got)
		}
		if got := r.ToolCall(context.Background(), policy.Subject{Spec: "x"}, "t", nil); got.Outcome != policy.Deny {
			t.Errorf("ToolCall = %+v, want deny", got)
		}
	})
}

func TestRulesEffect(t *testing.T) {
	r := mustLoad(t, rulesFile)
	tests := []struct{ tool, want string }{
		{"delete_repo", policy.EffectDestructive},
		{"search", policy.EffectReadOnly},
		{"comment", policy.EffectWrite},
		{"unlisted", policy.EffectWrite},
		{"", policy.EffectWrite},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			if got := r.Effect(tt.tool); got != tt.want {
				t.Errorf("Effect(%q) = %q, want %q", tt.tool, got, tt.want)
			}
		})
	}
}

func TestAllowAll(t *testing.T) {
	var p policy.Policy = policy.AllowAll{}
	subjects := []policy.Subject{{}, {Tenant: "default", Spec: "legacy", RunID: "run_1"}}
	for _, s := range subjects {
		t.Run("subject "+s.Spec, func(t *testing.T) {
			if got := p.StartRun(context.Background(), s); got.Outcome != policy.Allow {
				t.Errorf("StartRun = %+v, want allow", got)
			}
			if got := p.ToolCall(context.Background(), s, "delete_repo", json.RawMessage(`{"force":true}`)); got.Outcome != policy.Allow {
				t.Errorf("ToolCall = %+v, want allow", got)
			}
		})
	}
	t.Run("rules are a Policy", func(t *testing.T) {
		var _ policy.Policy = mustLoad(t, `{}`)
	})
}

package catalogue

import (
	"fmt"
	"strings"
)

// RubyPath is where RubyConstants is written, from the repository root.
const RubyPath = "clients/ruby/lib/runsvc/reasons.rb"

// A rubyFamily is a subclass of Runsvc::Error that a group of reasons
// raise, so that a Ruby caller rescues a kind of failure by class.
type rubyFamily struct {
	class, doc string
}

// The families, in the order the generated file declares them.
var rubyFamilies = []rubyFamily{
	{"InvalidRequest", "The request or the Spec is wrong: fix it, do not retry."},
	{"NotFound", "What the request names does not exist."},
	{"AccessDenied", "The caller is not authenticated, or not allowed."},
	{"ConfigurationError", "The server's or a Spec's configuration lacks something an operator must supply."},
	{"PreconditionFailed", "The Run, thread or call is not in the state the request needs."},
	{"QuotaExceeded", "The caller's quota is spent for now: retry after the delay."},
	{"BudgetExceeded", "A Run's budget or limit (tokens, cost, tool loops, attempts) is spent."},
	{"InferenceError", "The model provider failed, refused or rate-limited the call."},
	{"ToolError", "A tool (worker, http, MCP) failed, refused, is in doubt or missing."},
	{"AwaitTimeout", "Waiting for something (an await, a delegation) timed out."},
	{"DeadlineExceeded", "A Run's own deadline passed."},
	{"Unavailable", "runsvc or its store is unavailable or overloaded for now."},
	{"InternalError", "runsvc failed internally (a bug, a corrupt log, an unknown method)."},
}

// rubyFamilyOf picks a reason's family: by name for the families the
// name tells (INFERENCE_*, TOOL_* and MCP_*, BUDGET_*, *_TIMEOUT, a few
// listed), else by its code. A new reason thus lands in a family without
// an edit here.
func rubyFamilyOf(reason, code string) string {
	switch reason {
	case "TOOL_LOOP_LIMIT", "ATTEMPTS_EXHAUSTED":
		return "BudgetExceeded"
	case "TOOL_NARROWED":
		return "AccessDenied"
	case "CONFIGURATION_INVALID", "DEPENDENCY_MISSING", "BUS_NOT_CONFIGURED", "CREDENTIAL_NOT_FOUND":
		return "ConfigurationError"
	}
	switch {
	case strings.HasPrefix(reason, "INFERENCE_"):
		return "InferenceError"
	case strings.HasPrefix(reason, "TOOL_"), strings.HasPrefix(reason, "MCP_"):
		return "ToolError"
	case strings.HasPrefix(reason, "BUDGET_"):
		return "BudgetExceeded"
	case strings.HasSuffix(reason, "_TIMEOUT"):
		return "AwaitTimeout"
	}
	return rubyFamilyOfCode(code)
}

// rubyFamilyOfCode is the family of a reason the name does not place, and
// of a reason this client does not know (a newer server's), by its code.
func rubyFamilyOfCode(code string) string {
	switch code {
	case "INVALID_ARGUMENT", "OUT_OF_RANGE":
		return "InvalidRequest"
	case "NOT_FOUND":
		return "NotFound"
	case "PERMISSION_DENIED", "UNAUTHENTICATED":
		return "AccessDenied"
	case "FAILED_PRECONDITION", "ALREADY_EXISTS", "ABORTED":
		return "PreconditionFailed"
	case "RESOURCE_EXHAUSTED":
		return "QuotaExceeded"
	case "DEADLINE_EXCEEDED":
		return "DeadlineExceeded"
	case "UNAVAILABLE":
		return "Unavailable"
	}
	return "InternalError"
}

// rubyCodes are the codes rubyFamilyOfCode places, for the generated
// CODE_FAMILIES table.
var rubyCodes = []string{
	"INVALID_ARGUMENT", "OUT_OF_RANGE", "NOT_FOUND", "PERMISSION_DENIED", "UNAUTHENTICATED",
	"FAILED_PRECONDITION", "ALREADY_EXISTS", "ABORTED", "RESOURCE_EXHAUSTED", "DEADLINE_EXCEEDED",
	"UNAVAILABLE", "INTERNAL", "DATA_LOSS", "UNIMPLEMENTED", "UNKNOWN",
}

// RubyConstants renders clients/ruby/lib/runsvc/reasons.rb: a constant per
// reason in Runsvc::Reasons, the lists, and the Runsvc::Error subclass
// per reason family with the table from reason (and, for a reason this
// version does not know, from code) to family.
func RubyConstants(doc Document) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# frozen_string_literal: true\n\n# %s\n# The reasons of runsvc's errors (docs/errors.md) and the Runsvc::Error\n# subclass each raises.\n\nrequire \"runsvc/error\"\n\nmodule Runsvc\n", header)
	fmt.Fprintf(&b, "  # The error catalogue's version; the gem's too.\n  CATALOGUE_VERSION = %q\n\n  # The ErrorInfo domain of a runsvc server that configures none.\n  DEFAULT_DOMAIN = %q\n\n", doc.Version, doc.Domain)
	b.WriteString("  # The ErrorInfo reasons of runsvc's errors, one constant each.\n  module Reasons\n")
	for _, e := range doc.Reasons {
		fmt.Fprintf(&b, "    %s = %q\n", e.Reason, e.Reason)
	}
	b.WriteString("\n    # The caller's own cancellation and deadline.\n")
	for _, r := range doc.CallerReasons {
		fmt.Fprintf(&b, "    %s = %q\n", r, r)
	}
	b.WriteString("\n    # Every reason of the catalogue, in its order.\n    ALL = [\n")
	for _, e := range doc.Reasons {
		fmt.Fprintf(&b, "      %s,\n", e.Reason)
	}
	b.WriteString("    ].freeze\n\n    # Reasons that can carry RetryInfo (always or per error).\n    RETRYABLE = [\n")
	for _, e := range doc.Reasons {
		if e.Retryable != "no" {
			fmt.Fprintf(&b, "      %s,\n", e.Reason)
		}
	}
	b.WriteString("    ].freeze\n  end\n")
	writeRubyFamilies(&b, doc)
	b.WriteString("end\n")
	return []byte(b.String())
}

// writeRubyFamilies writes the family classes and the tables that pick them.
func writeRubyFamilies(b *strings.Builder, doc Document) {
	for _, f := range rubyFamilies {
		var reasons []string
		for _, e := range doc.Reasons {
			if rubyFamilyOf(e.Reason, e.Code) == f.class {
				reasons = append(reasons, e.Reason)
			}
		}
		fmt.Fprintf(b, "\n  # %s\n  # Reasons: %s.\n  class %s < Error; end\n", f.doc, orNone(reasons), f.class)
	}
	b.WriteString("\n  # The family each reason raises.\n  FAMILIES = {\n")
	for _, e := range doc.Reasons {
		fmt.Fprintf(b, "    %q => %s,\n", e.Reason, rubyFamilyOf(e.Reason, e.Code))
	}
	b.WriteString("  }.freeze\n\n  # The family of a reason this version does not know, by its code.\n  CODE_FAMILIES = {\n")
	for _, c := range rubyCodes {
		fmt.Fprintf(b, "    %q => %s,\n", c, rubyFamilyOfCode(c))
	}
	b.WriteString("  }.freeze\n")
}

func orNone(reasons []string) string {
	if len(reasons) == 0 {
		return "none yet (by code only)"
	}
	return strings.Join(reasons, ", ")
}

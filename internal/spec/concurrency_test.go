package spec_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/runsvc/runsvc/internal/spec"
)

// TestValidateConcurrency: each rule of a Spec's concurrency is its own
// violation, and a Spec breaking all of them gets every one at once.
func TestValidateConcurrency(t *testing.T) {
	tests := []struct {
		name string
		c    spec.Concurrency
		want []string // violation fields, sorted
	}{
		{"a field of the input", spec.Concurrency{Key: "input.ticket_id", Limit: 1}, nil},
		{"the whole input, default limit and mode", spec.Concurrency{Key: "input"}, nil},
		{"nested fields, replace", spec.Concurrency{Key: "input.customer.id", Limit: 1000, Mode: spec.ConcurrencyReplace}, nil},
		{"reject", spec.Concurrency{Key: "input.user", Mode: spec.ConcurrencyReject}, nil},
		{"empty key", spec.Concurrency{Limit: 1}, []string{"concurrency.key"}},
		{"metadata is not a key", spec.Concurrency{Key: "metadata.user"}, []string{"concurrency.key"}},
		{"a trailing dot", spec.Concurrency{Key: "input."}, []string{"concurrency.key"}},
		{"an expression", spec.Concurrency{Key: "input.a || input.b"}, []string{"concurrency.key"}},
		{"negative limit", spec.Concurrency{Key: "input", Limit: -1}, []string{"concurrency.limit"}},
		{"limit too high", spec.Concurrency{Key: "input", Limit: 1001}, []string{"concurrency.limit"}},
		{"unknown mode", spec.Concurrency{Key: "input", Mode: "drop"}, []string{"concurrency.mode"}},
		{"every problem at once", spec.Concurrency{Key: "ticket", Limit: 5000, Mode: "drop"},
			[]string{"concurrency.key", "concurrency.limit", "concurrency.mode"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := valid()
			c := tt.c
			s.Concurrency = &c
			var got []string
			for _, v := range violations(t, s, nothingPublished) {
				got = append(got, v.Field)
			}
			sort.Strings(got)
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Fatalf("violations = %v; want %v", got, tt.want)
			}
		})
	}
}

// TestConcurrencyKeyOf: the key a Run's input gives, "" where the input
// has no usable value (the Run is then not limited).
func TestConcurrencyKeyOf(t *testing.T) {
	tests := []struct {
		expr, input, want string
	}{
		{"input.ticket_id", `{"ticket_id":"T-42"}`, "input.ticket_id=T-42"},
		{"input.ticket_id", `{"ticket_id":42}`, "input.ticket_id=42"},
		{"input.ticket_id", `{"ticket_id":true}`, "input.ticket_id=true"},
		{"input.customer.id", `{"customer":{"id":"c1"}}`, "input.customer.id=c1"},
		{"input.ticket_id", `{"other":1}`, ""},
		{"input.ticket_id", `{"ticket_id":null}`, ""},
		{"input.ticket_id", `{"ticket_id":{"a":1}}`, ""},
		{"input.ticket_id", `not json`, ""},
		{"input.customer.id", `{"customer":"c1"}`, ""},
		{"input", `hello`, "input=hello"},
	}
	for _, tt := range tests {
		if got := (spec.Concurrency{Key: tt.expr}).KeyOf(tt.input); got != tt.want {
			t.Errorf("KeyOf(%s, %s) = %q; want %q", tt.expr, tt.input, got, tt.want)
		}
	}
	long := spec.Concurrency{Key: "input"}
	a, b := long.KeyOf(strings.Repeat("x", 300)+"a"), long.KeyOf(strings.Repeat("x", 300)+"b")
	if len(a) != spec.MaxConcurrencyKeyBytes || a == b {
		t.Errorf("two long inputs' keys = %q, %q; want %d bytes each, different", a, b, spec.MaxConcurrencyKeyBytes)
	}
}

package spec_test

import (
	"encoding/json"
	"math"
	"regexp"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/spec"
)

// withJSON returns a valid Spec whose tool parameters and scripted call
// arguments are the given raw JSON texts.
func withJSON(parameters, arguments string) spec.Spec {
	s := valid()
	s.Tools = []spec.Tool{{Name: "lookup", Kind: spec.KindClient, Parameters: json.RawMessage(parameters)}}
	s.Model.Script = []spec.Turn{
		{ToolCalls: []spec.ScriptCall{{Name: "lookup", Arguments: json.RawMessage(arguments)}}},
		{Text: "done"},
	}
	return s
}

const (
	params      = `{"type":"object","properties":{"q":{"type":"string","minLength":1},"n":{"type":"integer"}},"required":["q"]}`
	paramsKeys  = `{"required":["q"],"properties":{"n":{"type":"integer"},"q":{"minLength":1,"type":"string"}},"type":"object"}`
	paramsSpace = `{
	  "type" : "object",
	  "properties" : { "q" : { "type" : "string", "minLength" : 1 }, "n" : { "type" : "integer" } },
	  "required" : [ "q" ]
	}`
	args      = `{"q":"weather","filters":{"city":"Oslo","days":3}}`
	argsKeys  = `{"filters":{"days":3,"city":"Oslo"},"q":"weather"}`
	argsSpace = "{ \"q\" : \"weather\",\n\t\"filters\" : {\"city\":\"Oslo\", \"days\":3} }"
)

// hashPair is a Spec that must not hash as another does.
type hashPair struct {
	name string
	spec spec.Spec
	// against is the Spec to compare with; nil means TestHash's base Spec.
	against *spec.Spec
}

// hashBaseWith is TestHash's base Spec changed by f.
func hashBaseWith(f func(*spec.Spec)) spec.Spec {
	s := withJSON(params, args)
	f(&s)
	return s
}

// differentHashPairs are the Specs TestHash requires to hash differently
// from its base Spec or from their against.
func differentHashPairs() []hashPair {
	neighbour := withJSON(params, `{"q":"weather","filters":{"city":"Oslo","days":3},"id":9007199254740992}`)
	return []hashPair{
		{name: "parameter value", spec: withJSON(`{"type":"object","properties":{"q":{"type":"string","minLength":2},"n":{"type":"integer"}},"required":["q"]}`, args)},
		{name: "parameter added", spec: withJSON(`{"type":"object","properties":{"q":{"type":"string","minLength":1},"n":{"type":"integer"}},"required":["q","n"]}`, args)},
		{name: "argument value", spec: withJSON(params, `{"q":"weather","filters":{"city":"Bergen","days":3}}`)},
		{name: "argument added", spec: withJSON(params, `{"q":"weather","filters":{"city":"Oslo","days":3},"tags":["b","a"]}`)},
		{name: "argument number as a string", spec: withJSON(params, `{"q":"weather","filters":{"city":"Oslo","days":"3"}}`)},
		{name: "name", spec: hashBaseWith(func(s *spec.Spec) { s.Name = "other" })},
		{name: "instructions", spec: hashBaseWith(func(s *spec.Spec) { s.Instructions = "be brief" })},
		{name: "model", spec: hashBaseWith(func(s *spec.Spec) { s.Model.Model = "m2" })},
		{name: "limits", spec: hashBaseWith(func(s *spec.Spec) { s.Limits.MaxTurns = 7 })},
		{name: "expiry", spec: hashBaseWith(func(s *spec.Spec) { s.Expiry.Approval = time.Minute })},
		{name: "tool order", spec: hashBaseWith(func(s *spec.Spec) {
			s.Tools = append(s.Tools, spec.Tool{Name: "a", Kind: spec.KindWorker})
			s.Tools[0], s.Tools[1] = s.Tools[1], s.Tools[0]
		}), against: ptr(hashBaseWith(func(s *spec.Spec) {
			s.Tools = append(s.Tools, spec.Tool{Name: "a", Kind: spec.KindWorker})
		}))},
		{name: "delegates", spec: hashBaseWith(func(s *spec.Spec) { s.Delegates = []string{"helper"} })},
		{name: "credentials", spec: hashBaseWith(func(s *spec.Spec) { s.Credentials = []string{"key"} })},
		{name: "bus", spec: hashBaseWith(func(s *spec.Spec) { s.Bus.Enabled = true })},
		{name: "raise_on_error", spec: hashBaseWith(func(s *spec.Spec) { s.Tools[0].RaiseOnError = true })},
		{name: "array order in arguments", spec: withJSON(params, `{"l":[1,2]}`), against: ptr(withJSON(params, `{"l":[2,1]}`))},
		// JSON numbers are exact: two integers a float64 cannot tell apart
		// are still different values.
		{
			name:    "integers beyond float64 precision",
			spec:    withJSON(params, `{"q":"weather","filters":{"city":"Oslo","days":3},"id":9007199254740993}`),
			against: &neighbour,
		},
	}
}

func TestHash(t *testing.T) {
	base := withJSON(params, args)
	hash := spec.Hash(base)
	if !regexp.MustCompile(`^[0-9a-f]{16}$`).MatchString(hash) {
		t.Fatalf("Hash = %q, want 16 lower-case hex digits", hash)
	}

	same := []struct {
		name string
		spec spec.Spec
	}{
		{"identical", withJSON(params, args)},
		{"parameters keys reordered", withJSON(paramsKeys, args)},
		{"parameters with spacing", withJSON(paramsSpace, args)},
		{"arguments keys reordered", withJSON(params, argsKeys)},
		{"arguments with spacing", withJSON(params, argsSpace)},
		{"everything reordered and spaced", withJSON(paramsSpace, argsSpace)},
		{"canonical form of itself", spec.Canonical(base)},
	}
	for _, tt := range same {
		t.Run("equal/"+tt.name, func(t *testing.T) {
			if got := spec.Hash(tt.spec); got != hash {
				t.Errorf("Hash = %s, want %s (the JSON values are equal)", got, hash)
			}
		})
	}

	different := differentHashPairs()
	for _, tt := range different {
		t.Run("different/"+tt.name, func(t *testing.T) {
			against := hash
			if tt.against != nil {
				against = spec.Hash(*tt.against)
			}
			if got := spec.Hash(tt.spec); got == against {
				t.Errorf("Hash = %s for a different Spec, want a different hash", got)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestCanonical(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		wantOut string
	}{
		{"sorts keys", `{"b":1,"a":{"d":2,"c":3}}`, `{"a":{"c":3,"d":2},"b":1}`},
		{"drops insignificant space", "{ \"a\" :\n [1, 2,\t3] }", `{"a":[1,2,3]}`},
		{"keeps array order", `{"a":[3,1,2]}`, `{"a":[3,1,2]}`},
		{"keeps large integers exact", `{"id":9007199254740993}`, `{"id":9007199254740993}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := spec.Canonical(withJSON(tt.in, tt.in))
			if got := string(c.Tools[0].Parameters); got != tt.wantOut {
				t.Errorf("parameters = %s, want %s", got, tt.wantOut)
			}
			if got := string(c.Model.Script[0].ToolCalls[0].Arguments); got != tt.wantOut {
				t.Errorf("arguments = %s, want %s", got, tt.wantOut)
			}
		})
	}
	t.Run("does not change its input", func(t *testing.T) {
		s := withJSON(paramsKeys, argsKeys)
		_ = spec.Canonical(s)
		if string(s.Tools[0].Parameters) != paramsKeys || string(s.Model.Script[0].ToolCalls[0].Arguments) != argsKeys {
			t.Errorf("Canonical modified the Spec it was given")
		}
	})
	t.Run("empty lists become nil", func(t *testing.T) {
		s := valid()
		s.Tools = []spec.Tool{}
		s.Model.Script = []spec.Turn{}
		c := spec.Canonical(s)
		if c.Tools != nil || c.Model.Script != nil {
			t.Errorf("Canonical kept empty lists: tools %#v, script %#v", c.Tools, c.Model.Script)
		}
		if spec.Hash(s) != spec.Hash(spec.Spec{Name: s.Name, Model: spec.Model{Provider: spec.ProviderScripted}}) {
			t.Errorf("an empty tool list and no tool list hash differently")
		}
	})
}

func TestSpecTool(t *testing.T) {
	s := valid()
	s.Tools = []spec.Tool{{Name: "a", Kind: spec.KindClient}, {Name: "b", Kind: spec.KindWorker}}
	tests := []struct {
		name     string
		wantOK   bool
		wantKind spec.Kind
	}{
		{"a", true, spec.KindClient},
		{"b", true, spec.KindWorker},
		{"c", false, ""},
		{"", false, ""},
	}
	for _, tt := range tests {
		t.Run("tool "+tt.name, func(t *testing.T) {
			got, ok := s.Tool(tt.name)
			if ok != tt.wantOK || got.Kind != tt.wantKind || (ok && got.Name != tt.name) {
				t.Errorf("Tool(%q) = %+v, %v; want kind %q, %v", tt.name, got, ok, tt.wantKind, tt.wantOK)
			}
		})
	}
}

func TestPricingCost(t *testing.T) {
	p := &spec.Pricing{InputPerMillion: 0.15, OutputPerMillion: 0.6}
	tests := []struct {
		name          string
		input, output int64
		want          float64
	}{
		{"nothing", 0, 0, 0},
		{"a million of each", 1_000_000, 1_000_000, 0.75},
		{"input only", 2_000_000, 0, 0.3},
		{"a small call", 1000, 500, 0.00045},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := p.Cost(tt.input, tt.output); math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("Cost(%d, %d) = %v, want %v", tt.input, tt.output, got, tt.want)
			}
		})
	}
}

package cli

import (
	"errors"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// FuzzParseSpec: any YAML or JSON file either reads as a Spec or is a
// usage error saying why, never a panic; a Spec it reads encodes, and
// reads back the same through protojson.
func FuzzParseSpec(f *testing.F) {
	f.Add(false, []byte("name: triage\nmodel:\n  provider: scripted\n  script:\n    turns:\n      - text: done\ntools:\n  - name: lookup\n    kind: http\n    http: {url: 'http://127.0.0.1:1/x'}\n    timeout: 1h30m\nlimits:\n  costBudget: .nan\n"))
	f.Add(true, []byte(`{"spec": {"name": "triage", "model": {"provider": "scripted"}, "limits": {"cost_budget": "Infinity"}}}`))
	f.Add(false, []byte("a: &a [*a, *a]\nb: [*a,*a,*a,*a]\n"))
	f.Add(false, []byte("name: x\ntools: [{kind: nope}]\nsuspension_expiry: {approval: 5m}\n"))
	f.Add(true, []byte(`{"name": "\ud800", "tools": [{"parameters": {"type": "object", "properties": {"a": {"type": "integer"}}}}]}`))
	f.Fuzz(func(t *testing.T, asJSON bool, data []byte) {
		name := "spec.yaml"
		if asJSON {
			name = "spec.json"
		}
		sp, err := parseSpec(name, data)
		if err != nil {
			var usage *usageError
			if !errors.As(err, &usage) || usage.msg == "" {
				t.Fatalf("parseSpec: %T %v, want a usage error", err, err)
			}
			return
		}
		b, err := protojson.Marshal(sp)
		if err != nil {
			return // NaN and Inf are the server's to refuse: SPEC_INVALID
		}
		back := &runsvcv1.Spec{}
		if err := protojson.Unmarshal(b, back); err != nil || !proto.Equal(sp, back) {
			t.Fatalf("a Spec read from %s does not round-trip: %v\n%s", name, err, b)
		}
	})
}

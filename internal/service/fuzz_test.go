package service

import (
	"encoding/json"
	"errors"
	"math"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/known/structpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/spec"
)

// requestTypes are every runsvc.v1 request message, in a stable order.
func requestTypes(t testing.TB) []protoreflect.MessageType {
	var out []protoreflect.MessageType
	protoregistry.GlobalTypes.RangeMessages(func(mt protoreflect.MessageType) bool {
		d := mt.Descriptor()
		if d.ParentFile().Package() == "runsvc.v1" && len(d.Name()) > 7 && d.Name()[len(d.Name())-7:] == "Request" {
			out = append(out, mt)
		}
		return true
	})
	if len(out) < 20 {
		t.Fatalf("found %d request types", len(out))
	}
	sortTypes(out)
	return out
}

func sortTypes(ts []protoreflect.MessageType) {
	for i := 1; i < len(ts); i++ {
		for j := i; j > 0 && ts[j].Descriptor().FullName() < ts[j-1].Descriptor().FullName(); j-- {
			ts[j], ts[j-1] = ts[j-1], ts[j]
		}
	}
}

// convertStructs runs the handlers' Struct and Value conversions over every
// Struct and Value in m, which must not panic and must refuse only with
// typed errors.
func convertStructs(t *testing.T, m protoreflect.Message) {
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		if fd.Kind() != protoreflect.MessageKind || fd.IsList() || fd.IsMap() {
			return true
		}
		switch x := v.Message().Interface().(type) {
		case *structpb.Struct:
			var bad []errs.FieldViolation
			if raw := structField(string(fd.Name()), x, &bad); raw != nil && !json.Valid(raw) {
				t.Fatalf("Struct %s converted to invalid JSON %s", fd.Name(), raw)
			}
		case *structpb.Value:
			raw, err := portableJSON(string(fd.Name()), x)
			var np *errs.ValueNotPortable
			if err != nil && !errors.As(err, &np) {
				t.Fatalf("Value %s: %T %v, want ValueNotPortable", fd.Name(), err, err)
			}
			if err == nil && raw != nil && !json.Valid(raw) {
				t.Fatalf("Value %s converted to invalid JSON %s", fd.Name(), raw)
			}
		default:
			convertStructs(t, v.Message())
		}
		return true
	})
}

// FuzzDecodeRequest: any bytes, as any request, decode or are refused with
// one INVALID_REQUEST violation, never a panic; what decodes converts
// without panicking, and re-encodes to bytes that decode to the same
// message.
func FuzzDecodeRequest(f *testing.F) {
	types := requestTypes(f)
	f.Add(uint8(0), []byte{})
	f.Add(uint8(3), []byte("\x0a\x04run_"))
	f.Add(uint8(5), []byte("\x0a\x02\xff\xfe"))
	f.Add(uint8(7), []byte{0x0a, 0xff, 0xff, 0x03})
	f.Add(uint8(9), []byte("\x12\x0e\x0a\x0c\x0a\x01k\x12\x07\x11\x00\x00\x00\x00\x00\x00\xf8\x7f"))
	codec := NewCodec(1 << 20)
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		mt := types[int(which)%len(types)]
		m := mt.New().Interface()
		bad := codec.Decode(data, m)
		if bad != nil {
			if len(bad.Violations) != 1 || bad.Violations[0].Description == "" {
				t.Fatalf("%s: refused with %v, want one violation saying what is wrong", mt.Descriptor().FullName(), bad.Violations)
			}
			if !proto.Equal(m, mt.New().Interface()) {
				t.Fatalf("%s: a refused request was left half decoded", mt.Descriptor().FullName())
			}
			return
		}
		convertStructs(t, m.ProtoReflect())
		if p, ok := m.(*runsvcv1.PublishSpecRequest); ok {
			checkSpec(t, p.GetSpec())
		}
		again, err := proto.Marshal(m)
		if err != nil {
			t.Fatalf("%s: a decoded request does not encode: %v", mt.Descriptor().FullName(), err)
		}
		back := mt.New().Interface()
		if bad := codec.Decode(again, back); bad != nil || !proto.Equal(m, back) {
			t.Fatalf("%s: re-encoded request decodes as %v, %v", mt.Descriptor().FullName(), back, bad)
		}
	})
}

// checkSpec converts and validates a Spec: it is accepted, or refused as
// SPEC_INVALID, and an accepted one is storable as JSON (no NaN or Inf
// anywhere).
func checkSpec(t *testing.T, p *runsvcv1.Spec) {
	s, bad := specFromProto(p)
	err := spec.Validate(s, func(string) (*spec.Spec, bool) { return nil, false })
	var invalid *errs.SpecInvalid
	if err != nil && !errors.As(err, &invalid) {
		t.Fatalf("Validate: %T %v, want SpecInvalid", err, err)
	}
	if err != nil || len(bad) > 0 {
		return
	}
	if _, err := json.Marshal(s); err != nil {
		t.Fatalf("an accepted Spec does not encode: %v", err)
	}
	if s.Limits.CostBudget != 0 && (math.IsNaN(s.Limits.CostBudget) || math.IsInf(s.Limits.CostBudget, 0)) {
		t.Fatalf("cost budget %v accepted", s.Limits.CostBudget)
	}
}

// FuzzSpecFromProto: any bytes decoded as a Spec convert and validate
// without panicking; an accepted Spec is storable.
func FuzzSpecFromProto(f *testing.F) {
	seed := func(s *runsvcv1.Spec) {
		b, err := proto.Marshal(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	seed(&runsvcv1.Spec{Name: "triage", Model: &runsvcv1.ModelRef{Provider: "scripted", Script: &runsvcv1.Script{Turns: []*runsvcv1.ScriptTurn{{Text: "done"}}}}})
	seed(&runsvcv1.Spec{Name: "priced", Model: &runsvcv1.ModelRef{Provider: "openai", Model: "gpt-4o-mini", BaseUrl: "https://api.example.com/v1",
		Pricing: &runsvcv1.Pricing{InputPerMillion: 0.15, OutputPerMillion: math.NaN()}}, Limits: &runsvcv1.Limits{CostBudget: math.Inf(1)}})
	seed(&runsvcv1.Spec{Name: "tools", Model: &runsvcv1.ModelRef{Provider: "scripted", Script: &runsvcv1.Script{Turns: []*runsvcv1.ScriptTurn{{Text: "x"}}}},
		Tools: []*runsvcv1.Tool{{Name: "lookup", Kind: runsvcv1.ToolKind_TOOL_KIND_HTTP, Http: &runsvcv1.HttpTool{Url: "http://127.0.0.1:1/x"}}}})
	codec := NewCodec(1 << 20)
	f.Fuzz(func(t *testing.T, data []byte) {
		p := &runsvcv1.Spec{}
		if codec.Decode(data, p) != nil {
			return
		}
		checkSpec(t, p)
	})
}

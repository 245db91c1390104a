package service

import (
	"encoding/json"
	"fmt"
	"time"

	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/runsvc/runsvc/internal/errs"
)

// structJSON encodes a Struct as a JSON object, nil for nil.
func structJSON(s *structpb.Struct) json.RawMessage {
	if s == nil {
		return nil
	}
	b, err := protojson.Marshal(s)
	if err != nil {
		return nil
	}
	return b
}

// structField encodes a Struct field of a request, reporting one JSON
// cannot represent (NaN or ±Inf numbers) as a violation at field.
func structField(field string, s *structpb.Struct, bad *[]errs.FieldViolation) json.RawMessage {
	if s == nil {
		return nil
	}
	b, err := protojson.Marshal(s)
	if err != nil {
		*bad = append(*bad, errs.FieldViolation{Field: field, Description: "is not representable as JSON (NaN and Infinity are not numbers JSON has)"})
		return nil
	}
	return b
}

// valueJSON encodes a Value as JSON, nil for nil.
func valueJSON(v *structpb.Value) (json.RawMessage, error) {
	if v == nil {
		return nil, nil
	}
	return protojson.Marshal(v)
}

// portableJSON encodes a Value a caller hands runsvc to keep, refusing
// one JSON cannot represent as VALUE_NOT_PORTABLE at path.
func portableJSON(path string, v *structpb.Value) (json.RawMessage, error) {
	b, err := valueJSON(v)
	if err != nil {
		return nil, &errs.ValueNotPortable{Path: path, Reason: "it is not representable as JSON: " + err.Error()}
	}
	return b, nil
}

// toStruct decodes a JSON object; anything else comes back as nil.
func toStruct(raw json.RawMessage) *structpb.Struct {
	if len(raw) == 0 {
		return nil
	}
	s := &structpb.Struct{}
	if err := protojson.Unmarshal(raw, s); err != nil {
		return nil
	}
	return s
}

// toValue decodes any JSON value; invalid JSON comes back as its text.
func toValue(raw json.RawMessage) *structpb.Value {
	if len(raw) == 0 {
		return nil
	}
	v := &structpb.Value{}
	if err := protojson.Unmarshal(raw, v); err != nil {
		return structpb.NewStringValue(string(raw))
	}
	return v
}

// invert returns m with keys and values swapped; m's values must be
// unique.
func invert[K, V comparable](m map[K]V) map[V]K {
	out := make(map[V]K, len(m))
	for k, v := range m {
		out[v] = k
	}
	return out
}

func ts(t time.Time) *timestamppb.Timestamp {
	if t.IsZero() {
		return nil
	}
	return timestamppb.New(t)
}

func dur(d time.Duration) *durationpb.Duration {
	if d == 0 {
		return nil
	}
	return durationpb.New(d)
}

// durationArg reads a Duration field checked on its own, refusing a
// negative or invalid one as INVALID_REQUEST.
func durationArg(field string, d *durationpb.Duration) (time.Duration, error) {
	var bad []errs.FieldViolation
	v := durationField(field, d, &bad)
	if len(bad) > 0 {
		return 0, &errs.InvalidRequest{Violations: bad}
	}
	return v, nil
}

// durationField reads a Duration field, refusing negative or invalid ones.
func durationField(field string, d *durationpb.Duration, bad *[]errs.FieldViolation) time.Duration {
	if d == nil {
		return 0
	}
	if err := d.CheckValid(); err != nil || d.AsDuration() < 0 {
		*bad = append(*bad, errs.FieldViolation{Field: field, Description: fmt.Sprintf("%v is not a valid non-negative duration", d)})
		return 0
	}
	return d.AsDuration()
}

// statusOf is a stored failure as a client sees it: the status it was
// stored as.
func (s *Service) statusOf(stored *errs.Stored) *spb.Status {
	return s.mapper.FailureStatus(stored)
}

package errs

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"
)

// messageEncoder stands in for the table (which this package cannot
// import): it stores a typed error's message, so a test can see which
// error a stored failure was rebuilt into.
func messageEncoder(typed error) Stored {
	return Stored{Code: 9, Reason: "R", Message: typed.Error()}
}

// renameEveryType makes the registry name every typed error differently,
// as if each struct had been renamed, until the test ends.
func renameEveryType(t *testing.T) {
	oldKinds, oldKindOf := kinds, kindOf
	kinds, kindOf = map[string]func() error{}, map[reflect.Type]string{}
	i := 0
	for typ := range oldKindOf {
		i++
		name := fmt.Sprintf("Renamed%d", i)
		kindOf[typ] = name
		elem := typ.Elem()
		kinds[name] = func() error { return reflect.New(elem).Interface().(error) }
	}
	t.Cleanup(func() { kinds, kindOf = oldKinds, oldKindOf })
}

// TestOldRunsReadTheSameAfterARename reads version 1 and version 2
// failures with every typed error renamed: version 1 names are frozen
// literals and version 2 names no type, so each reads as it did.
func TestOldRunsReadTheSameAfterARename(t *testing.T) {
	SetFailureEncoder(messageEncoder)
	tests := []struct {
		name, stored string
		want         string
	}{
		{"v1 RunNotFound", `{"kind":"RunNotFound","fields":{"RunID":"run_1"}}`, (&RunNotFound{RunID: "run_1"}).Error()},
		{"v1 ToolLoopLimit", `{"kind":"ToolLoopLimit","fields":{"Calls":11,"Max":10}}`, (&ToolLoopLimit{Calls: 11, Max: 10}).Error()},
		{"v1 SuspensionExpired", `{"kind":"SuspensionExpired","fields":{"RunID":"run_1","Reason":"APPROVAL","ExpireTime":"2026-12-01T12:00:00Z"}}`, "SuspensionExpired"},
		{"v1 Internal", `{"kind":"Internal","fields":{"ErrorID":"err_1"}}`, (&Internal{ErrorID: "err_1"}).Error()},
		{"v2 names no type", `{"v":2,"code":5,"reason":"RUN_NOT_FOUND","message":"run run_1 not found"}`, "run run_1 not found"},
	}
	for _, rename := range []bool{false, true} {
		for _, tc := range tests {
			t.Run(fmt.Sprintf("%s renamed=%t", tc.name, rename), func(t *testing.T) {
				if rename {
					renameEveryType(t)
				}
				var s Stored
				if err := json.Unmarshal([]byte(tc.stored), &s); err != nil {
					t.Fatal(err)
				}
				want := tc.want
				if want == "SuspensionExpired" {
					var se SuspensionExpired
					if err := json.Unmarshal([]byte(`{"RunID":"run_1","Reason":"APPROVAL","ExpireTime":"2026-12-01T12:00:00Z"}`), &se); err != nil {
						t.Fatal(err)
					}
					want = se.Error()
				}
				if s.Message != want || s.V != StoredVersion {
					t.Errorf("read v%d %q, want v%d %q", s.V, s.Message, StoredVersion, want)
				}
			})
		}
	}
}

// TestUnknownVersion1KindIsInternal: a version 1 kind no build ever wrote
// reads as an INTERNAL failure, as an unexpected error always has.
func TestUnknownVersion1KindIsInternal(t *testing.T) {
	SetFailureEncoder(messageEncoder)
	var s Stored
	if err := json.Unmarshal([]byte(`{"kind":"NeverWritten","fields":{}}`), &s); err != nil {
		t.Fatal(err)
	}
	if want := "internal error (errorId "; len(s.Message) < len(want) || s.Message[:len(want)] != want {
		t.Errorf("read %q, want an internal error", s.Message)
	}
}

// TestStoreKeepsAStoredFailure: a failure read back and stored again (a
// child's failure becoming its parent's tool error) is kept exactly.
func TestStoreKeepsAStoredFailure(t *testing.T) {
	SetFailureEncoder(messageEncoder)
	first := Store(&ToolFailed{Tool: "t", Message: "boom"}, "")
	again := Store(fmt.Errorf("wrapped: %w", first.Err()), "")
	if !reflect.DeepEqual(first, again) {
		t.Errorf("stored again as %+v, want %+v", again, first)
	}
	if text, retry := again.Said(); text != "boom" || !retry {
		t.Errorf("the model is told %q retryable=%t, want the tool's own message, retryable", text, retry)
	}
}

// TestAStoredFailureIsTyped: a failure read back is one of the table's,
// not an unexpected error to log and hide behind INTERNAL.
func TestAStoredFailureIsTyped(t *testing.T) {
	s := &Stored{V: StoredVersion, Code: 9, Reason: "TOOL_LOOP_LIMIT", Message: "m"}
	tests := []struct {
		name string
		err  error
		want error
	}{
		{"itself", s, s},
		{"wrapped", fmt.Errorf("delegate: %w", s), s},
		{"an untyped error", fmt.Errorf("boom"), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Typed(tc.err); got != tc.want {
				t.Errorf("Typed = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestStoredIsItsKind: errors.Is tells a stored failure's kind by the
// reason the encoder gives it, and nothing else.
func TestStoredIsItsKind(t *testing.T) {
	SetFailureEncoder(func(typed error) Stored {
		if _, ok := typed.(*CorruptLog); ok {
			return Stored{Code: 15, Reason: "LOG_CORRUPT", Message: typed.Error()}
		}
		return Stored{Code: 13, Reason: "OTHER", Message: typed.Error()}
	})
	corrupt := Store(&CorruptLog{RunID: "run_1", Seq: 3, Reason: CorruptNoOpenModelCall}, "")
	tests := []struct {
		name   string
		target error
		want   bool
	}{
		{"the same kind, other fields", &CorruptLog{}, true},
		{"another kind", &RunNotFound{}, false},
		{"an untyped error", fmt.Errorf("boom"), false},
		{"another stored failure", &Stored{Reason: "LOG_CORRUPT"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := errors.Is(fmt.Errorf("wrapped: %w", corrupt.Err()), tc.target); got != tc.want {
				t.Errorf("errors.Is = %t, want %t", got, tc.want)
			}
		})
	}
}

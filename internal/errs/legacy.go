package errs

import (
	"encoding/json"
	"fmt"
)

// legacyKinds decodes version 1 stored failures, which named a typed
// error by its Go type's name as it was then and held its fields as
// encoding/json wrote them. The names are literals, frozen: renaming a
// type changes the constructor here, never the name, so an old Run still
// reads. Version 1 is closed; a new typed error never appears here.
var legacyKinds = map[string]func() error{
	"InvalidRequest":        func() error { return &InvalidRequest{} },
	"SpecInvalid":           func() error { return &SpecInvalid{} },
	"SpecUnbuildable":       func() error { return &SpecUnbuildable{} },
	"ValueNotPortable":      func() error { return &ValueNotPortable{} },
	"ConfigurationInvalid":  func() error { return &ConfigurationInvalid{} },
	"DependencyMissing":     func() error { return &DependencyMissing{} },
	"RunNotFound":           func() error { return &RunNotFound{} },
	"SpecNotFound":          func() error { return &SpecNotFound{} },
	"DelegationNotFound":    func() error { return &DelegationNotFound{} },
	"ToolNotFound":          func() error { return &ToolNotFound{} },
	"RequestIDReused":       func() error { return &RequestIDReused{} },
	"RunNotSuspended":       func() error { return &RunNotSuspended{} },
	"RunAlreadySettled":     func() error { return &RunAlreadySettled{} },
	"SuspensionExpired":     func() error { return &SuspensionExpired{} },
	"RunEndedWithoutAnswer": func() error { return &RunEndedWithoutAnswer{} },
	"RunFailed":             func() error { return &RunFailed{} },
	"RunAborted":            func() error { return &RunAborted{} },
	"AccessDenied":          func() error { return &AccessDenied{} },
	"ToolNarrowed":          func() error { return &ToolNarrowed{} },
	"Unauthenticated":       func() error { return &Unauthenticated{} },
	"CredentialNotFound":    func() error { return &CredentialNotFound{} },
	"BudgetExceeded":        func() error { return &BudgetExceeded{} },
	"BudgetOverrun":         func() error { return &BudgetOverrun{} },
	"ToolLoopLimit":         func() error { return &ToolLoopLimit{} },
	"InferenceRateLimited":  func() error { return &InferenceRateLimited{} },
	"InferenceFailed":       func() error { return &InferenceFailed{} },
	"TransientFailure":      func() error { return &TransientFailure{} },
	"StoreUnavailable":      func() error { return &StoreUnavailable{} },
	"Overloaded":            func() error { return &Overloaded{} },
	"ToolFailed":            func() error { return &ToolFailed{} },
	"MCPFailed":             func() error { return &MCPFailed{} },
	"SeqConflict":           func() error { return &SeqConflict{} },
	"LeaseLost":             func() error { return &LeaseLost{} },
	"CorruptLog":            func() error { return &CorruptLog{} },
	"RunDeadlineExceeded":   func() error { return &RunDeadlineExceeded{} },
	"AwaitTimeout":          func() error { return &AwaitTimeout{} },
	"DelegationTimeout":     func() error { return &DelegationTimeout{} },
	"BusNotConfigured":      func() error { return &BusNotConfigured{} },
	"ChannelNotFound":       func() error { return &ChannelNotFound{} },
	"Internal":              func() error { return &Internal{} },
}

// legacyError rebuilds the typed error a version 1 failure stored. An
// unknown kind, or fields that do not decode, is an untyped error, stored
// as Internal like any unexpected failure.
func legacyError(kind string, fields json.RawMessage) error {
	mk, ok := legacyKinds[kind]
	if !ok {
		return fmt.Errorf("stored error of unknown kind %q", kind)
	}
	e := mk()
	if len(fields) > 0 {
		if err := json.Unmarshal(fields, e); err != nil {
			return fmt.Errorf("stored %s error does not decode: %w", kind, err)
		}
	}
	if code, ok := supersededCode(kind, fields); ok {
		return &Superseded{Err: e, Code: code}
	}
	return e
}

// supersededCode is the code a version 1 failure was stored with when the
// table has since given its case a reason of its own: a ToolFailed or
// MCPFailed that was not retryable was INTERNAL (now TOOL_REJECTED and
// MCP_REJECTED), a permanent InferenceFailed FAILED_PRECONDITION (now
// INFERENCE_REJECTED). Such a failure keeps its old reason and code.
func supersededCode(kind string, fields json.RawMessage) (int32, bool) {
	var flags struct {
		Retryable *bool
		Permanent bool
	}
	if json.Unmarshal(fields, &flags) != nil {
		return 0, false
	}
	switch {
	case (kind == "ToolFailed" || kind == "MCPFailed") && flags.Retryable != nil && !*flags.Retryable:
		return codeInternal, true
	case kind == "InferenceFailed" && flags.Permanent:
		return codeFailedPrecondition, true
	}
	return 0, false
}

// The google.rpc.Code values superseded failures were stored with.
const (
	codeFailedPrecondition int32 = 9
	codeInternal           int32 = 13
)

// Superseded is a version 1 failure whose case the table has since split
// off under a reason of its own: the typed error it decodes to, and the
// code it was stored with, never retryable. Only the failure encoder
// looks inside, to store it as it was.
type Superseded struct {
	Err  error
	Code int32
}

// Error returns the wrapped error's message.
func (e *Superseded) Error() string { return e.Err.Error() }

// Unwrap returns the typed error.
func (e *Superseded) Unwrap() error { return e.Err }

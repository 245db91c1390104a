package errs

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"
)

// StoredVersion is the version of the stored failure schema this build
// writes (docs/storage.md). Version 1 named a Go type and its fields;
// version 2 is the status itself.
const StoredVersion = 2

// Stored is a failure in the form a Run's log keeps it: the
// google.rpc.Status a client is shown, written once, when the failure
// happens, and read back unchanged by every later build (DESIGN §4 rule 8).
// Nothing in it names a Go type, so renaming or editing a typed error, or
// the table that maps it, does not change what an old Run reads.
//
// A *Stored is also an error: reading a failure back gives one, and
// storing it again, or sending it, keeps its status exactly.
type Stored struct {
	// V is the schema version, StoredVersion.
	V int `json:"v"`
	// Code is the google.rpc.Code.
	Code int32 `json:"code"`
	// Reason is ErrorInfo's reason, Metadata its metadata. The domain is the
	// serving process's, so it is not stored.
	Reason   string            `json:"reason"`
	Message  string            `json:"message"`
	Metadata map[string]string `json:"metadata,omitempty"`
	// Details are the status's other details, each a serialised
	// google.protobuf.Any, in the order the status lists them.
	Details [][]byte `json:"details,omitempty"`
	// Retryable and RetryAfter repeat the RetryInfo detail, for readers
	// that do not decode details.
	Retryable  bool          `json:"retryable,omitempty"`
	RetryAfter time.Duration `json:"retryAfter,omitempty"`
	// ModelText is what a tool result tells the model of this failure, when
	// it is not Message: a tool's own message, or a message the status cut.
	// ModelRetryable is whether the model is told that retrying may help.
	ModelText      string `json:"modelText,omitempty"`
	ModelRetryable bool   `json:"modelRetryable,omitempty"`
}

// Error returns the status message.
func (s *Stored) Error() string { return s.Message }

// RetryDelay implements Retryable: the stored RetryInfo.
func (s *Stored) RetryDelay() (time.Duration, bool) { return s.RetryAfter, s.Retryable }

// Err returns the stored failure as an error, itself.
func (s *Stored) Err() error { return s }

// Is reports whether target is a typed error of the kind this failure was
// stored from (the table gives both the same reason), so that
// errors.Is(stored, &errs.CorruptLog{}) asks "is this a corrupt log's
// failure" without rebuilding a struct or naming a reason.
func (s *Stored) Is(target error) bool {
	if _, isStored := target.(*Stored); isStored || encoder.Load() == nil || Typed(target) == nil {
		return false
	}
	return Store(target, "").Reason == s.Reason
}

// Said returns what a tool result tells the model of this failure: its
// text and whether retrying may help.
func (s *Stored) Said() (string, bool) {
	if s.ModelText != "" {
		return s.ModelText, s.ModelRetryable
	}
	return s.Message, s.ModelRetryable
}

// FailureEncoder turns a typed error into its stored status. The table in
// internal/errdetails is the only one; the server installs it with
// SetFailureEncoder when it wires itself, so this package never sees the
// wire types.
type FailureEncoder func(typed error) Stored

var encoder atomic.Pointer[FailureEncoder]

// SetFailureEncoder installs the encoder Store uses. Every server of a
// process installs the same table, so the last one wins harmlessly.
func SetFailureEncoder(e FailureEncoder) { encoder.Store(&e) }

// Store turns err into its stored form: a failure read back is kept as it
// was; a typed error is encoded by the installed FailureEncoder; any
// other error is stored as Internal with the given errorID, without its
// cause. It panics when no encoder is installed, a wiring mistake.
func Store(err error, errorID string) Stored {
	var st *Stored
	if errors.As(err, &st) {
		return *st
	}
	var typed error
	var sup *Superseded
	if errors.As(err, &sup) {
		typed = sup
	} else if typed = Typed(err); typed == nil {
		typed = &Internal{ErrorID: errorID}
	}
	enc := encoder.Load()
	if enc == nil {
		panic("errs: Store needs a FailureEncoder; the server installs errdetails.StoredFailure with SetFailureEncoder")
	}
	s := (*enc)(typed)
	s.V = StoredVersion
	text, retryable := modelSays(typed)
	if text != s.Message {
		s.ModelText = text
	}
	s.ModelRetryable = retryable
	return s
}

// modelSays is what a tool result tells the model of a typed error: a
// tool's own message for ToolFailed, the error's text for anything else.
func modelSays(typed error) (string, bool) {
	if sup, ok := typed.(*Superseded); ok {
		text, _ := modelSays(sup.Err)
		return text, false
	}
	_, retryable := IsRetryable(typed)
	switch tf := typed.(type) {
	case *ToolFailed:
		return tf.Message, retryable
	case *ToolRejected:
		return tf.Message, retryable
	case *ToolInDoubt:
		return tf.Why, false
	}
	return typed.Error(), retryable
}

// storedJSON is every field a stored failure has had: version 2's and
// version 1's kind and fields.
type storedJSON struct {
	V          int               `json:"v"`
	Code       int32             `json:"code"`
	Reason     string            `json:"reason"`
	Message    string            `json:"message"`
	Metadata   map[string]string `json:"metadata"`
	Details    [][]byte          `json:"details"`
	Retryable  bool              `json:"retryable"`
	RetryAfter time.Duration     `json:"retryAfter"`
	ModelText  string            `json:"modelText"`
	ModelRetry bool              `json:"modelRetryable"`
	Kind       string            `json:"kind"`
	Fields     json.RawMessage   `json:"fields"`
}

// UnmarshalJSON reads a stored failure of any version. Version 2 is read
// as it is; a version 1 failure is upgraded once, as it is read, through
// the frozen version 1 decoder (legacy.go) and the installed encoder.
func (s *Stored) UnmarshalJSON(b []byte) error {
	var w storedJSON
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	if w.V >= StoredVersion {
		*s = Stored{
			V: w.V, Code: w.Code, Reason: w.Reason, Message: w.Message, Metadata: w.Metadata, Details: w.Details,
			Retryable: w.Retryable, RetryAfter: w.RetryAfter, ModelText: w.ModelText, ModelRetryable: w.ModelRetry,
		}
		return nil
	}
	if w.Kind == "" {
		return fmt.Errorf("stored failure of version %d names no kind", w.V)
	}
	if encoder.Load() == nil {
		return fmt.Errorf("a version 1 stored %s failure needs a FailureEncoder to be read", w.Kind)
	}
	*s = Store(legacyError(w.Kind, w.Fields), NewErrorID())
	return nil
}

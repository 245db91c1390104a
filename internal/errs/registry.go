package errs

import (
	"errors"
	"reflect"
	"time"
)

// kinds lists every typed error, so a stored failure can be read back;
// kindOf names them by type.
var (
	kinds  = map[string]func() error{}
	kindOf = map[reflect.Type]string{}
)

func init() {
	for _, e := range []error{
		&InvalidRequest{}, &SpecInvalid{}, &SpecUnbuildable{}, &ValueNotPortable{},
		&ConfigurationInvalid{}, &DependencyMissing{},
		&RunNotFound{}, &SpecNotFound{}, &DelegationNotFound{}, &ToolNotFound{}, &RequestIDReused{},
		&RunNotSuspended{}, &RunAlreadySettled{}, &SuspensionExpired{},
		&RunEndedWithoutAnswer{}, &RunFailed{}, &RunAborted{},
		&AccessDenied{}, &ToolNarrowed{}, &Unauthenticated{}, &CredentialNotFound{},
		&BudgetExceeded{}, &BudgetOverrun{}, &ToolLoopLimit{},
		&InferenceRateLimited{}, &InferenceFailed{}, &TransientFailure{}, &StoreUnavailable{},
		&Overloaded{}, &ToolFailed{}, &MCPFailed{},
		&SeqConflict{}, &LeaseLost{}, &CorruptLog{},
		&RunDeadlineExceeded{}, &AwaitTimeout{}, &DelegationTimeout{},
		&BusNotConfigured{}, &ChannelNotFound{}, &Internal{},
		&InferenceRejected{}, &ToolRejected{}, &MCPRejected{}, &MethodNotFound{},
		// Security (issue 12).
		&RoleDenied{}, &QuotaExceeded{},
		// Structured output (issue 14).
		&OutputInvalid{},
		// Data lifecycle (issue 19).
		&RunNotSettled{},
		// Threads (issue 15).
		&ThreadBusy{}, &ThreadNotFound{},
		// Schedules (issue 34).
		&ScheduleInvalid{}, &ScheduleNotFound{},
		// Long-lived work (issue 30).
		&AttemptsExhausted{},
		// Webhooks (issue 34).
		&WebhookInvalid{}, &WebhookNotFound{},
		// Flow control (issue 35).
		&ConcurrencyLimited{},
		// Aliases (issue 37).
		&AliasNotFound{}, &AliasInvalid{},
		// A2A 1.0 (issue 36).
		&TaskNotFound{}, &TaskNotCancelable{}, &PushNotificationNotSupported{},
		&UnsupportedOperation{}, &ContentTypeNotSupported{}, &VersionNotSupported{},
		&EvaluationNotFound{}, &EvaluationInvalid{}, &EvaluationGateFailed{},
	} {
		t := reflect.TypeOf(e).Elem()
		kinds[t.Name()] = func() error { return reflect.New(t).Interface().(error) }
		kindOf[reflect.TypeOf(e)] = t.Name()
	}
}

// Kind returns the name of err's typed error ("RunNotFound"), or "" when
// err is not one of this package's types.
func Kind(err error) string {
	if err == nil {
		return ""
	}
	return kindOf[reflect.TypeOf(err)]
}

// New returns a zero error of the named kind, or nil for an unknown kind.
func New(kind string) error {
	if f, ok := kinds[kind]; ok {
		return f()
	}
	return nil
}

// Typed returns the outermost typed error in err's chain, or nil. A
// stored failure read back (*Stored) counts as typed: it is one of the
// table's statuses, just not rebuilt into a struct.
func Typed(err error) error {
	for err != nil {
		if _, stored := err.(*Stored); stored || Kind(err) != "" {
			return err
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				if t := Typed(e); t != nil {
					return t
				}
			}
			return nil
		default:
			return nil
		}
	}
	return nil
}

// IsRetryable reports whether trying again may succeed, and after how long:
// the decision of the error's own RetryDelay when it has one, false for
// every other error.
func IsRetryable(err error) (time.Duration, bool) {
	if r, ok := err.(Retryable); ok {
		return r.RetryDelay()
	}
	var r Retryable
	if errors.As(err, &r) {
		return r.RetryDelay()
	}
	return 0, false
}

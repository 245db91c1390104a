package errs

import "time"

// RetrySetter is a typed error that carries its own retry decision, so a
// client rebuilding it from a status (errdetails.FromStatus) can put the
// status's RetryInfo back: the delay when retryable, and the decision.
type RetrySetter interface {
	SetRetry(delay time.Duration, retryable bool)
}

// ViolationSetter is a typed error that carries field violations, so a
// client rebuilding it can put a status's BadRequest back.
type ViolationSetter interface {
	SetFieldViolations(vs []FieldViolation)
}

// retryAfter is the delay a rebuilt error keeps: a retryable status's.
func retryAfter(delay time.Duration, retryable bool) time.Duration {
	if retryable {
		return delay
	}
	return 0
}

// SetRetry implements RetrySetter.
func (e *InferenceRateLimited) SetRetry(d time.Duration, r bool) { e.RetryAfter = retryAfter(d, r) }

// SetRetry implements RetrySetter.
func (e *InferenceFailed) SetRetry(d time.Duration, r bool) { e.RetryAfter = retryAfter(d, r) }

// SetRetry implements RetrySetter.
func (e *QuotaExceeded) SetRetry(d time.Duration, r bool) { e.RetryAfter = retryAfter(d, r) }

// SetRetry implements RetrySetter.
func (e *TransientFailure) SetRetry(d time.Duration, r bool) { e.RetryAfter = retryAfter(d, r) }

// SetRetry implements RetrySetter.
func (e *StoreUnavailable) SetRetry(d time.Duration, r bool) { e.RetryAfter = retryAfter(d, r) }

// SetRetry implements RetrySetter.
func (e *Overloaded) SetRetry(d time.Duration, r bool) { e.RetryAfter = retryAfter(d, r) }

// SetRetry implements RetrySetter.
func (e *ToolFailed) SetRetry(d time.Duration, r bool) { e.RetryAfter = retryAfter(d, r) }

// SetRetry implements RetrySetter.
func (e *MCPFailed) SetRetry(d time.Duration, r bool) { e.RetryAfter = retryAfter(d, r) }

// SetFieldViolations implements ViolationSetter.
func (e *InvalidRequest) SetFieldViolations(vs []FieldViolation) { e.Violations = vs }

// SetFieldViolations implements ViolationSetter.
func (e *SpecInvalid) SetFieldViolations(vs []FieldViolation) { e.Violations = vs }

// SetFieldViolations sets the schedule's problems.
func (e *ScheduleInvalid) SetFieldViolations(vs []FieldViolation) { e.Violations = vs }

// SetFieldViolations implements ViolationSetter.
func (e *SpecUnbuildable) SetFieldViolations(vs []FieldViolation) { e.Violations = vs }

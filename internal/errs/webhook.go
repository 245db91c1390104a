package errs

import "fmt"

// WebhookInvalid is a webhook subscription refused: a URL that is not
// https (or allowed http), one the outbound network policy refuses (a
// metadata address), an unknown event type, a bad Spec filter.
type WebhookInvalid struct {
	Subscription string           `meta:"subscription"`
	Violations   []FieldViolation `meta:"violationCount"`
}

// Error returns the error's message.
func (e *WebhookInvalid) Error() string {
	return describeViolations("the webhook subscription is invalid: ", e.Violations)
}

// FieldViolations returns the violations, one per problem.
func (e *WebhookInvalid) FieldViolations() []FieldViolation { return e.Violations }

// WebhookNotFound is a webhook subscription id the tenant does not have.
type WebhookNotFound struct {
	SubscriptionID string `meta:"subscriptionId"`
}

// Error returns the error's message.
func (e *WebhookNotFound) Error() string {
	return fmt.Sprintf("webhook subscription %s not found", e.SubscriptionID)
}

// SetFieldViolations implements ViolationSetter.
func (e *WebhookInvalid) SetFieldViolations(vs []FieldViolation) { e.Violations = vs }

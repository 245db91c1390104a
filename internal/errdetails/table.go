package errdetails

import (
	"google.golang.org/grpc/codes"

	"github.com/runsvc/runsvc/internal/errs"
)

// table is every reason runsvc returns, in the order of DESIGN.md §4: which
// typed error produces it, its code, the details it carries besides
// ErrorInfo, and whether it is retryable (RetryInfo present). Templates such
// as "runs/{runId}" are filled from the error's metadata.
var table = []row{
	// Requests and Specs.
	{err: &errs.InvalidRequest{}, reason: "INVALID_REQUEST", code: codes.InvalidArgument, details: badRequest},
	{err: &errs.SpecInvalid{}, reason: "SPEC_INVALID", code: codes.InvalidArgument, details: badRequest},
	{err: &errs.SpecUnbuildable{}, reason: "SPEC_UNBUILDABLE", code: codes.InvalidArgument, details: badRequest},
	{err: &errs.ValueNotPortable{}, reason: "VALUE_NOT_PORTABLE", code: codes.InvalidArgument, details: badRequest},
	{err: &errs.ConfigurationInvalid{}, reason: "CONFIGURATION_INVALID", code: codes.FailedPrecondition, details: precondition, subject: "CONFIGURATION", name: "{subject}"},
	{err: &errs.DependencyMissing{}, reason: "DEPENDENCY_MISSING", code: codes.FailedPrecondition, details: precondition | help, subject: "DEPENDENCY", name: "{dependency}"},

	// Lookups.
	{err: &errs.RunNotFound{}, reason: "RUN_NOT_FOUND", code: codes.NotFound, details: resource, subject: "runsvc.v1.Run", name: "runs/{runId}"},
	{err: &errs.SpecNotFound{}, reason: "SPEC_NOT_FOUND", code: codes.NotFound, details: resource, subject: "runsvc.v1.Spec", name: "specs/{spec}"},
	{err: &errs.DelegationNotFound{}, reason: "DELEGATION_NOT_FOUND", code: codes.NotFound, details: resource, subject: "runsvc.v1.Delegation", name: "delegations/{delegationId}"},
	{err: &errs.ToolNotFound{}, reason: "TOOL_NOT_FOUND", code: codes.NotFound, details: resource, subject: "runsvc.v1.Tool", name: "tools/{tool}"},
	{err: &errs.RequestIDReused{}, reason: "REQUEST_ID_REUSED", code: codes.AlreadyExists, details: resource, subject: "runsvc.v1.Run", name: "runs/{runId}"},

	// Run lifecycle.
	{err: &errs.RunNotSuspended{}, reason: "RUN_NOT_SUSPENDED", code: codes.FailedPrecondition, details: precondition, subject: "RUN_STATE", name: "runs/{runId}"},
	{err: &errs.RunAlreadySettled{}, reason: "RUN_ALREADY_SETTLED", code: codes.FailedPrecondition, details: precondition, subject: "RUN_STATE", name: "runs/{runId}"},
	{err: &errs.SuspensionExpired{}, reason: "SUSPENSION_EXPIRED", code: codes.FailedPrecondition, details: precondition, subject: "SUSPENSION", name: "runs/{runId}"},
	{err: &errs.RunEndedWithoutAnswer{}, reason: "RUN_ENDED_WITHOUT_ANSWER", code: codes.FailedPrecondition, details: precondition, subject: "RUN_STATE", name: "runs/{runId}"},
	{err: &errs.RunFailed{}, reason: "RUN_FAILED", code: codes.FailedPrecondition, details: precondition, subject: "RUN_STATE", name: "runs/{runId}"},
	{err: &errs.RunAborted{}, reason: "RUN_ABORTED", code: codes.FailedPrecondition, details: precondition, subject: "RUN_STATE", name: "runs/{runId}"},

	// Data lifecycle (issue 19): deleting an active Run.
	{err: &errs.RunNotSettled{}, reason: "RUN_NOT_SETTLED", code: codes.FailedPrecondition, details: precondition, subject: "RUN_STATE", name: "runs/{runId}"},

	// Access.
	{err: &errs.AccessDenied{}, reason: "ACCESS_DENIED", code: codes.PermissionDenied},
	{err: &errs.ToolNarrowed{}, reason: "TOOL_NARROWED", code: codes.PermissionDenied},
	{err: &errs.Unauthenticated{}, reason: "UNAUTHENTICATED", code: codes.Unauthenticated},
	{err: &errs.CredentialNotFound{}, reason: "CREDENTIAL_NOT_FOUND", code: codes.FailedPrecondition, details: precondition, subject: "CREDENTIAL", name: "{scope}/credentials/{credential}"},

	// Security (issue 12): roles and tenant quotas.
	{err: &errs.RoleDenied{}, reason: "ROLE_DENIED", code: codes.PermissionDenied},
	{err: &errs.QuotaExceeded{}, reason: "QUOTA_EXCEEDED", code: codes.ResourceExhausted, details: quota, name: "tenants/{tenant}/quotas/{dimension}", retry: always},

	// Threads (issue 15).
	{err: &errs.ThreadBusy{}, reason: "THREAD_BUSY", code: codes.FailedPrecondition, details: precondition, subject: "THREAD_ACTIVE_RUN", name: "runs/{activeRunId}"},
	{err: &errs.ThreadNotFound{}, reason: "THREAD_NOT_FOUND", code: codes.NotFound, details: resource, subject: "runsvc.v1.Thread", name: "threads/{threadId}"},

	// Concurrency keys (issue 35): a precondition, not a rate, so no RetryInfo.
	{err: &errs.ConcurrencyLimited{}, reason: "CONCURRENCY_LIMITED", code: codes.FailedPrecondition, details: precondition, subject: "CONCURRENCY_KEY", name: "concurrency/{concurrencyKey}"},

	// Schedules (issue 34).
	{err: &errs.ScheduleInvalid{}, reason: "SCHEDULE_INVALID", code: codes.InvalidArgument, details: badRequest},
	{err: &errs.ScheduleNotFound{}, reason: "SCHEDULE_NOT_FOUND", code: codes.NotFound, details: resource, subject: "runsvc.v1.Schedule", name: "schedules/{scheduleId}"},
	// Webhooks (issue 34).
	{err: &errs.WebhookInvalid{}, reason: "WEBHOOK_INVALID", code: codes.InvalidArgument, details: badRequest},
	{err: &errs.WebhookNotFound{}, reason: "WEBHOOK_NOT_FOUND", code: codes.NotFound, details: resource, subject: "runsvc.v1.WebhookSubscription", name: "webhooks/{subscriptionId}"},
	// Aliases (issue 37).
	{err: &errs.AliasInvalid{}, reason: "ALIAS_INVALID", code: codes.InvalidArgument, details: badRequest},
	{err: &errs.AliasNotFound{}, reason: "ALIAS_NOT_FOUND", code: codes.NotFound, details: resource, subject: "runsvc.v1.Alias", name: "specs/{spec}/aliases/{alias}"},
	// Replay evaluations (issue 37).
	{err: &errs.EvaluationNotFound{}, reason: "EVALUATION_NOT_FOUND", code: codes.NotFound, details: resource, subject: "runsvc.v1.Evaluation", name: "evaluations/{evaluationId}"},
	{err: &errs.EvaluationInvalid{}, reason: "EVALUATION_INVALID", code: codes.InvalidArgument, details: badRequest},
	{err: &errs.EvaluationGateFailed{}, reason: "EVALUATION_GATE_FAILED", code: codes.FailedPrecondition, details: precondition, subject: "EVALUATION_SCORE", name: "evaluations/{evaluationId}"},

	// Budgets and limits.
	{err: &errs.BudgetExceeded{}, reason: "BUDGET_EXCEEDED", code: codes.ResourceExhausted, details: quota, name: "budgets/{dimension}"},
	{err: &errs.BudgetOverrun{}, reason: "BUDGET_OVERRUN", code: codes.ResourceExhausted, details: quota, name: "budgets/{dimension}", retry: always},
	{err: &errs.ToolLoopLimit{}, reason: "TOOL_LOOP_LIMIT", code: codes.ResourceExhausted, details: quota, name: "limits/max_tool_rounds"},
	{err: &errs.AttemptsExhausted{}, reason: "ATTEMPTS_EXHAUSTED", code: codes.ResourceExhausted, details: quota, name: "limits/max_attempts"},

	// Upstreams: models, tools, the store, admission.
	{err: &errs.InferenceRateLimited{}, reason: "INFERENCE_RATE_LIMITED", code: codes.ResourceExhausted, details: quota, name: "models/{provider}/{model}", retry: always},
	{err: &errs.InferenceFailed{}, reason: "INFERENCE_FAILED", code: codes.Unavailable, retry: always},
	{err: &errs.TransientFailure{}, reason: "TRANSIENT_FAILURE", code: codes.Unavailable, retry: always},
	{err: &errs.StoreUnavailable{}, reason: "STORE_UNAVAILABLE", code: codes.Unavailable, retry: always},
	{err: &errs.Overloaded{}, reason: "OVERLOADED", code: codes.Unavailable, retry: always},
	{err: &errs.ToolFailed{}, reason: "TOOL_FAILED", code: codes.Unavailable, retry: always},
	{err: &errs.MCPFailed{}, reason: "MCP_FAILED", code: codes.Unavailable, retry: always},

	// Tool calls in doubt.
	{err: &errs.ToolInDoubt{}, reason: "TOOL_IN_DOUBT", code: codes.FailedPrecondition, details: precondition, subject: "TOOL_CALL", name: "calls/{callId}"},

	// The log and its writers.
	{err: &errs.SeqConflict{}, reason: "SEQ_CONFLICT", code: codes.Aborted},
	{err: &errs.LeaseLost{}, reason: "LEASE_LOST", code: codes.Aborted},

	// Waiting.
	{err: &errs.RunDeadlineExceeded{}, reason: "RUN_DEADLINE_EXCEEDED", code: codes.DeadlineExceeded},
	{err: &errs.AwaitTimeout{}, reason: "AWAIT_TIMEOUT", code: codes.DeadlineExceeded},
	{err: &errs.DelegationTimeout{}, reason: "DELEGATION_TIMEOUT", code: codes.DeadlineExceeded},

	// The bus.
	{err: &errs.BusNotConfigured{}, reason: "BUS_NOT_CONFIGURED", code: codes.FailedPrecondition, details: precondition, subject: "BUS", name: "specs/{robot}"},
	{err: &errs.ChannelNotFound{}, reason: "CHANNEL_NOT_FOUND", code: codes.NotFound, details: resource, subject: "runsvc.v1.Channel", name: "channels/{channel}"},

	// Corruption and everything else.
	{err: &errs.CorruptLog{}, reason: "LOG_CORRUPT", code: codes.DataLoss},
	{err: &errs.Internal{}, reason: "INTERNAL", code: codes.Internal},

	// Refusals: the upstream answered and said no, so retrying cannot
	// help; and calls to methods the server does not have.
	{err: &errs.InferenceRejected{}, reason: "INFERENCE_REJECTED", code: codes.FailedPrecondition, details: precondition, subject: "INFERENCE", name: "models/{provider}/{model}"},
	{err: &errs.ToolRejected{}, reason: "TOOL_REJECTED", code: codes.FailedPrecondition, details: precondition, subject: "TOOL", name: "tools/{tool}"},
	{err: &errs.MCPRejected{}, reason: "MCP_REJECTED", code: codes.FailedPrecondition, details: precondition, subject: "MCP", name: "tools/{tool}"},
	{err: &errs.MethodNotFound{}, reason: "METHOD_NOT_FOUND", code: codes.Unimplemented},

	// Structured output (issue 14).
	{err: &errs.OutputInvalid{}, reason: "OUTPUT_INVALID", code: codes.FailedPrecondition, details: badRequest},

	// A2A 1.0 (issue 36): the A2A error types, in the A2A spec's domain and
	// with its codes, returned only on the A2A bindings (internal/a2a).
	{err: &errs.TaskNotFound{}, reason: "TASK_NOT_FOUND", code: codes.NotFound, domain: A2ADomain},
	{err: &errs.TaskNotCancelable{}, reason: "TASK_NOT_CANCELABLE", code: codes.FailedPrecondition, domain: A2ADomain},
	{err: &errs.PushNotificationNotSupported{}, reason: "PUSH_NOTIFICATION_NOT_SUPPORTED", code: codes.FailedPrecondition, domain: A2ADomain},
	{err: &errs.UnsupportedOperation{}, reason: "UNSUPPORTED_OPERATION", code: codes.FailedPrecondition, domain: A2ADomain},
	{err: &errs.ContentTypeNotSupported{}, reason: "CONTENT_TYPE_NOT_SUPPORTED", code: codes.InvalidArgument, domain: A2ADomain},
	{err: &errs.VersionNotSupported{}, reason: "VERSION_NOT_SUPPORTED", code: codes.FailedPrecondition, domain: A2ADomain},
}

// A2ADomain is the ErrorInfo domain of the A2A 1.0 error types, which the
// A2A spec fixes; a row with a domain keeps it whatever the Mapper's is.
const A2ADomain = "a2a-protocol.org"

// Reasons returns every reason in the table, in table order.
func Reasons() []string {
	out := make([]string, len(table))
	for i, r := range table {
		out[i] = r.reason
	}
	return out
}

package errdetails_test

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	edpb "google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/errs"
)

// wireCase is what one reason must look like on the wire, written out by
// hand from DESIGN.md §4 rather than derived from the table under test.
type wireCase struct {
	reason  string
	err     error
	code    codes.Code
	keys    []string
	details []string // detail types besides ErrorInfo and RetryInfo
	retry   time.Duration
	message string // exact message, where the seeds fix it
	domain  string // the ErrorInfo domain when not the server's
}

var (
	preconditionT = "PreconditionFailure"
	resourceT     = "ResourceInfo"
	quotaT        = "QuotaFailure"
	badRequestT   = "BadRequest"
	helpT         = "Help"
)

func wireCases() []wireCase {
	expire := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	return []wireCase{
		{reason: "INVALID_REQUEST", err: errs.BadField("run_id", "must not be empty"), code: codes.InvalidArgument, keys: []string{"violationCount"}, details: []string{badRequestT}},
		{reason: "SPEC_INVALID", err: &errs.SpecInvalid{Spec: "triage", Violations: []errs.FieldViolation{{Field: "tools[2].name", Description: "duplicate"}, {Field: "limits.deadline", Description: "over 24h"}}}, code: codes.InvalidArgument, keys: []string{"spec", "violationCount"}, details: []string{badRequestT}},
		{reason: "SPEC_UNBUILDABLE", err: &errs.SpecUnbuildable{Spec: "triage", Violations: []errs.FieldViolation{{Field: "model", Description: "no provider"}}}, code: codes.InvalidArgument, keys: []string{"spec", "violationCount"}, details: []string{badRequestT}},
		{reason: "VALUE_NOT_PORTABLE", err: &errs.ValueNotPortable{Path: "value.items[3]", Reason: "over 256 KiB"}, code: codes.InvalidArgument, keys: []string{"path", "detail"}, details: []string{badRequestT}},
		{reason: "CONFIGURATION_INVALID", err: &errs.ConfigurationInvalid{Subject: "model triage", Description: "base_url is not a URL"}, code: codes.FailedPrecondition, keys: []string{"subject", "detail"}, details: []string{preconditionT}},
		{reason: "DEPENDENCY_MISSING", err: &errs.DependencyMissing{Dependency: "postgres", Description: "the bus needs a shared store", HelpURL: "https://example.test/help"}, code: codes.FailedPrecondition, keys: []string{"dependency", "detail", "helpUrl"}, details: []string{preconditionT, helpT}},
		{reason: "RUN_NOT_FOUND", err: &errs.RunNotFound{RunID: "run_1"}, code: codes.NotFound, keys: []string{"runId"}, details: []string{resourceT}},
		{reason: "SPEC_NOT_FOUND", err: &errs.SpecNotFound{Name: "triage"}, code: codes.NotFound, keys: []string{"spec", "version"}, details: []string{resourceT}},
		{reason: "DELEGATION_NOT_FOUND", err: &errs.DelegationNotFound{DelegationID: "dlg_1"}, code: codes.NotFound, keys: []string{"delegationId"}, details: []string{resourceT}},
		{reason: "TOOL_NOT_FOUND", err: &errs.ToolNotFound{Name: "serach", Available: []string{"search", "fetch"}}, code: codes.NotFound, keys: []string{"tool", "availableTools"}, details: []string{resourceT}, message: "Tool not found: serach. Available tools: search, fetch"},
		{reason: "REQUEST_ID_REUSED", err: &errs.RequestIDReused{RequestID: "req-1", RunID: "run_1"}, code: codes.AlreadyExists, keys: []string{"requestId", "runId"}, details: []string{resourceT}},
		{reason: "RUN_NOT_SUSPENDED", err: &errs.RunNotSuspended{RunID: "run_1", State: "RUNNING"}, code: codes.FailedPrecondition, keys: []string{"runId", "runState"}, details: []string{preconditionT}, message: "run run_1 is not suspended, so there is nothing to resume. Its state is RUNNING."},
		{reason: "RUN_ALREADY_SETTLED", err: &errs.RunAlreadySettled{RunID: "run_1", State: "COMPLETED", Action: "take a message"}, code: codes.FailedPrecondition, keys: []string{"runId", "runState", "action"}, details: []string{preconditionT}},
		{reason: "RUN_NOT_SETTLED", err: &errs.RunNotSettled{RunID: "run_1", State: "RUNNING", Action: "be deleted"}, code: codes.FailedPrecondition, keys: []string{"runId", "runState", "action"}, details: []string{preconditionT}},
		{reason: "SUSPENSION_EXPIRED", err: &errs.SuspensionExpired{RunID: "run_1", Reason: "APPROVAL", ExpireTime: expire}, code: codes.FailedPrecondition, keys: []string{"runId", "suspensionReason", "expireTime"}, details: []string{preconditionT}},
		{reason: "RUN_ENDED_WITHOUT_ANSWER", err: &errs.RunEndedWithoutAnswer{RunID: "run_1", State: "ABANDONED", FailureReason: "SUSPENSION_EXPIRED"}, code: codes.FailedPrecondition, keys: []string{"runId", "runState", "failureReason"}, details: []string{preconditionT}},
		{reason: "RUN_FAILED", err: &errs.RunFailed{RunID: "run_1", State: "FAILED", FailureReason: "TOOL_FAILED", FailureMessage: "tool x failed: boom"}, code: codes.FailedPrecondition, keys: []string{"runId", "runState", "failureReason", "failureMessage"}, details: []string{preconditionT}},
		{reason: "RUN_ABORTED", err: &errs.RunAborted{RunID: "run_1", State: "ABORTED", Cause: "DEADLINE", FailureReason: "RUN_DEADLINE_EXCEEDED"}, code: codes.FailedPrecondition, keys: []string{"runId", "runState", "abortCause", "failureReason"}, details: []string{preconditionT}},
		{reason: "ACCESS_DENIED", err: &errs.AccessDenied{Subject: "tool delete_repo", Reason: "destructive tools need the admin role"}, code: codes.PermissionDenied, keys: []string{"subject", "detail"}},
		{reason: "TOOL_NARROWED", err: &errs.ToolNarrowed{Tool: "delete_repo", Reason: "narrowed to read-only tools"}, code: codes.PermissionDenied, keys: []string{"tool", "detail"}},
		{reason: "UNAUTHENTICATED", err: &errs.Unauthenticated{Reason: "no bearer token"}, code: codes.Unauthenticated, keys: []string{"detail"}},
		{reason: "ROLE_DENIED", err: &errs.RoleDenied{Role: "reader", Method: "/runsvc.v1.RunService/StartRun"}, code: codes.PermissionDenied, keys: []string{"role", "method"}, message: "role reader may not call /runsvc.v1.RunService/StartRun"},
		{reason: "QUOTA_EXCEEDED", err: &errs.QuotaExceeded{Tenant: "acme", Dimension: "concurrent_runs", Limit: 5, RetryAfter: 2 * time.Second}, code: codes.ResourceExhausted, keys: []string{"tenant", "dimension", "limit"}, details: []string{quotaT}, retry: 2 * time.Second},
		{reason: "THREAD_BUSY", err: &errs.ThreadBusy{ThreadID: "th_1", ActiveRunID: "run_1"}, code: codes.FailedPrecondition, keys: []string{"threadId", "activeRunId"}, details: []string{preconditionT}},
		{reason: "THREAD_NOT_FOUND", err: &errs.ThreadNotFound{ThreadID: "th_1"}, code: codes.NotFound, keys: []string{"threadId"}, details: []string{resourceT}},
		{reason: "CONCURRENCY_LIMITED", err: &errs.ConcurrencyLimited{Key: "input.ticket_id=T-42", Limit: 1}, code: codes.FailedPrecondition, keys: []string{"concurrencyKey", "limit"}, details: []string{preconditionT}},
		{reason: "WEBHOOK_INVALID", err: &errs.WebhookInvalid{Violations: []errs.FieldViolation{{Field: "url", Description: "the outbound network policy does not allow connecting to 169.254.169.254"}}}, code: codes.InvalidArgument, keys: []string{"subscription", "violationCount"}, details: []string{badRequestT}},
		{reason: "WEBHOOK_NOT_FOUND", err: &errs.WebhookNotFound{SubscriptionID: "wh_1"}, code: codes.NotFound, keys: []string{"subscriptionId"}, details: []string{resourceT}},
		{reason: "ALIAS_INVALID", err: &errs.AliasInvalid{Spec: "triage", Alias: "Prod!", Violations: []errs.FieldViolation{{Field: "alias", Description: "must be lower case letters, digits, '-' and '_', starting with a letter"}}}, code: codes.InvalidArgument, keys: []string{"spec", "alias", "violationCount"}, details: []string{badRequestT}},
		{reason: "ALIAS_NOT_FOUND", err: &errs.AliasNotFound{Spec: "triage", Alias: "prod"}, code: codes.NotFound, keys: []string{"spec", "alias"}, details: []string{resourceT}, message: "spec 'triage' has no alias 'prod'"},
		{reason: "CREDENTIAL_NOT_FOUND", err: &errs.CredentialNotFound{Scope: "tenants/default/specs/triage", Name: "openai_key"}, code: codes.FailedPrecondition, keys: []string{"scope", "credential"}, details: []string{preconditionT}, message: "no credential named 'openai_key' resolved for tenants/default/specs/triage"},
		{reason: "TOOL_IN_DOUBT", err: &errs.ToolInDoubt{Tool: "charge_card", CallID: "call_1", Why: "the process making it died before it answered"}, code: codes.FailedPrecondition, keys: []string{"tool", "callId", "detail"}, details: []string{preconditionT}, message: "tool charge_card call call_1 may or may not have happened: the process making it died before it answered"},
		{reason: "BUDGET_EXCEEDED", err: &errs.BudgetExceeded{Dimension: "cost", Requested: 0.62, Limit: 0.5}, code: codes.ResourceExhausted, keys: []string{"dimension", "requested", "limit"}, details: []string{quotaT}, message: "budget exceeded for cost: 0.62 > 0.5"},
		{reason: "BUDGET_OVERRUN", err: &errs.BudgetOverrun{Dimension: "cost", Used: 0.5231, Limit: 0.5}, code: codes.ResourceExhausted, keys: []string{"dimension", "used", "limit"}, details: []string{quotaT}, retry: errdetails.DefaultRetryDelay, message: "Cost budget exceeded: $0.523100 used, budget is $0.500000"},
		{reason: "TOOL_LOOP_LIMIT", err: &errs.ToolLoopLimit{Calls: 11, Max: 10}, code: codes.ResourceExhausted, keys: []string{"toolCalls", "maxToolRounds"}, details: []string{quotaT}, message: "Circuit breaker triggered: 11 tool calls exceeded max_tool_rounds (10)"},
		{reason: "ATTEMPTS_EXHAUSTED", err: &errs.AttemptsExhausted{RunID: "run_1", Died: 10, Max: 10}, code: codes.ResourceExhausted, keys: []string{"runId", "diedAttempts", "maxAttempts"}, details: []string{quotaT}, message: "run run_1 failed: 10 of its attempts died (a crash, a lost lease or a drain), and the server allows 10 (--max-attempts)"},
		{reason: "INFERENCE_RATE_LIMITED", err: &errs.InferenceRateLimited{Provider: "openai", Model: "gpt-4o-mini", Message: "slow down", RetryAfter: 2 * time.Second}, code: codes.ResourceExhausted, keys: []string{"provider", "model", "detail"}, details: []string{quotaT}, retry: 2 * time.Second},
		{reason: "INFERENCE_FAILED", err: &errs.InferenceFailed{Provider: "openai", Model: "gpt-4o-mini", HTTPStatus: 503, Message: "upstream 503"}, code: codes.Unavailable, keys: []string{"provider", "model", "httpStatus", "detail"}, retry: errdetails.DefaultRetryDelay},
		{reason: "TRANSIENT_FAILURE", err: &errs.TransientFailure{Operation: "http tool fetch", Message: "connection reset", RetryAfter: 1500 * time.Millisecond}, code: codes.Unavailable, keys: []string{"operation", "detail"}, retry: 1500 * time.Millisecond},
		{reason: "STORE_UNAVAILABLE", err: &errs.StoreUnavailable{Operation: "append", Cause: errors.New("dial tcp 10.0.0.1:5432: connection refused")}, code: codes.Unavailable, keys: []string{"operation"}, retry: errdetails.DefaultRetryDelay},
		{reason: "OVERLOADED", err: &errs.Overloaded{Resource: "run admission", RetryAfter: 250 * time.Millisecond}, code: codes.Unavailable, keys: []string{"resource"}, retry: 250 * time.Millisecond},
		{reason: "TOOL_FAILED", err: &errs.ToolFailed{Tool: "fetch", Message: "upstream unavailable"}, code: codes.Unavailable, keys: []string{"tool", "detail"}, retry: errdetails.DefaultRetryDelay},
		{reason: "MCP_FAILED", err: &errs.MCPFailed{Server: "http://127.0.0.1:1/mcp", Tool: "search", Message: "connection lost", RetryAfter: 3 * time.Second}, code: codes.Unavailable, keys: []string{"server", "tool", "detail"}, retry: 3 * time.Second},
		{reason: "SEQ_CONFLICT", err: &errs.SeqConflict{RunID: "run_1", Seq: 7}, code: codes.Aborted, keys: []string{"runId", "seq"}},
		{reason: "LEASE_LOST", err: &errs.LeaseLost{RunID: "run_1", WorkerID: "w1"}, code: codes.Aborted, keys: []string{"runId", "workerId"}},
		{reason: "RUN_DEADLINE_EXCEEDED", err: &errs.RunDeadlineExceeded{RunID: "run_1", Deadline: 900 * time.Second}, code: codes.DeadlineExceeded, keys: []string{"runId", "deadlineSeconds"}, message: "run run_1 exceeded its 900s deadline"},
		{reason: "AWAIT_TIMEOUT", err: &errs.AwaitTimeout{Key: "sentiment", Namespace: "ns/reviews", Wait: 30 * time.Second, MissingKeys: []string{"sentiment", "topic"}}, code: codes.DeadlineExceeded, keys: []string{"key", "namespace", "waitSeconds", "missingKeys"}, message: "Timeout waiting for :sentiment in ns/reviews after 30 seconds"},
		{reason: "DELEGATION_TIMEOUT", err: &errs.DelegationTimeout{Name: "analyst", DelegationID: "dlg_1", Timeout: 10 * time.Second}, code: codes.DeadlineExceeded, keys: []string{"spec", "delegationId", "timeoutSeconds"}, message: "Delegation to 'analyst' timed out after 10s"},
		{reason: "BUS_NOT_CONFIGURED", err: &errs.BusNotConfigured{Robot: "bob"}, code: codes.FailedPrecondition, keys: []string{"robot"}, details: []string{preconditionT}, message: "No bus configured on robot 'bob'"},
		{reason: "CHANNEL_NOT_FOUND", err: &errs.ChannelNotFound{Channel: "alerts"}, code: codes.NotFound, keys: []string{"channel"}, details: []string{resourceT}},
		{reason: "LOG_CORRUPT", err: &errs.CorruptLog{RunID: "run_1", Seq: 9, Reason: errs.CorruptResumeWithoutSuspend, Detail: "resumed while RUNNING"}, code: codes.DataLoss, keys: []string{"runId", "seq", "corruption", "detail"}},
		{reason: "INTERNAL", err: errors.New("sql: database is locked at /var/lib/runsvc/runs.db"), code: codes.Internal, keys: []string{"errorId"}},
		{reason: "INFERENCE_REJECTED", err: &errs.InferenceRejected{Provider: "openai", Model: "gpt-4o-mini", HTTPStatus: 400, Message: "unknown parameter"}, code: codes.FailedPrecondition, keys: []string{"provider", "model", "httpStatus", "detail"}, details: []string{preconditionT}, message: "model openai/gpt-4o-mini refused the call: unknown parameter"},
		{reason: "TOOL_REJECTED", err: &errs.ToolRejected{Tool: "fetch", Message: "bad input"}, code: codes.FailedPrecondition, keys: []string{"tool", "detail"}, details: []string{preconditionT}, message: "tool fetch refused the call: bad input"},
		{reason: "MCP_REJECTED", err: &errs.MCPRejected{Server: "http://127.0.0.1:1/mcp", Tool: "search", Message: "unknown tool"}, code: codes.FailedPrecondition, keys: []string{"server", "tool", "detail"}, details: []string{preconditionT}},
		{reason: "METHOD_NOT_FOUND", err: &errs.MethodNotFound{Method: "/runsvc.v1.RunService/Nope"}, code: codes.Unimplemented, keys: []string{"method"}, message: "method /runsvc.v1.RunService/Nope is not implemented by this server"},
		{reason: "SCHEDULE_INVALID", err: &errs.ScheduleInvalid{ScheduleID: "nightly", Violations: []errs.FieldViolation{{Field: "schedule.time_zone", Description: "is not an IANA time zone: Mars/Olympus"}}}, code: codes.InvalidArgument, keys: []string{"scheduleId", "violationCount"}, details: []string{badRequestT}, message: "schedule 'nightly' is invalid: schedule.time_zone: is not an IANA time zone: Mars/Olympus"},
		{reason: "SCHEDULE_NOT_FOUND", err: &errs.ScheduleNotFound{ScheduleID: "nightly"}, code: codes.NotFound, keys: []string{"scheduleId"}, details: []string{resourceT}, message: "schedule nightly not found"},
		{reason: "TASK_NOT_FOUND", err: &errs.TaskNotFound{TaskID: "run_x"}, code: codes.NotFound, keys: []string{"taskId"}, message: "task run_x not found", domain: errdetails.A2ADomain},
		{reason: "TASK_NOT_CANCELABLE", err: &errs.TaskNotCancelable{TaskID: "run_x", State: "TASK_STATE_COMPLETED"}, code: codes.FailedPrecondition, keys: []string{"taskId", "state"}, domain: errdetails.A2ADomain},
		{reason: "PUSH_NOTIFICATION_NOT_SUPPORTED", err: &errs.PushNotificationNotSupported{}, code: codes.FailedPrecondition, domain: errdetails.A2ADomain},
		{reason: "UNSUPPORTED_OPERATION", err: &errs.UnsupportedOperation{Operation: "SubscribeToTask", Detail: "the task ended"}, code: codes.FailedPrecondition, keys: []string{"operation", "detail"}, domain: errdetails.A2ADomain},
		{reason: "CONTENT_TYPE_NOT_SUPPORTED", err: &errs.ContentTypeNotSupported{MediaType: "image/png"}, code: codes.InvalidArgument, keys: []string{"mediaType"}, domain: errdetails.A2ADomain},
		{reason: "VERSION_NOT_SUPPORTED", err: &errs.VersionNotSupported{Version: "0.3"}, code: codes.FailedPrecondition, keys: []string{"version"}, domain: errdetails.A2ADomain},
		{reason: "EVALUATION_NOT_FOUND", err: &errs.EvaluationNotFound{EvaluationID: "evl_1"}, code: codes.NotFound, keys: []string{"evaluationId"}, details: []string{resourceT}, message: "evaluation evl_1 not found"},
		{reason: "EVALUATION_INVALID", err: &errs.EvaluationInvalid{Violations: []errs.FieldViolation{{Field: "version", Description: "is required: the candidate Version's id"}}}, code: codes.InvalidArgument, keys: []string{"violationCount"}, details: []string{badRequestT}, message: "the evaluation request is invalid: version: is required: the candidate Version's id"},
		{reason: "EVALUATION_GATE_FAILED", err: &errs.EvaluationGateFailed{EvaluationID: "evl_1", Spec: "shop", Version: "v2", Score: 0.5, MinScore: 0.9, Why: "its score 0.500 is below 0.900", FailingRunIDs: []string{"run_a", "run_b"}, More: 3}, code: codes.FailedPrecondition,
			keys: []string{"evaluationId", "spec", "version", "score", "minScore", "why", "failingRunIds", "moreFailingRuns"}, details: []string{preconditionT},
			message: "evaluation evl_1 does not let shop version v2 through: its score 0.500 is below 0.900; failing Runs: run_a, run_b and 3 more"},
		{reason: "OUTPUT_INVALID", err: &errs.OutputInvalid{Spec: "extract", Violations: []errs.FieldViolation{{Field: "answer.q", Description: "got number, want string (schema path /properties/q/type)"}}}, code: codes.FailedPrecondition, keys: []string{"spec", "violationCount"}, details: []string{badRequestT}, message: "the final answer does not match the output schema of spec 'extract': answer.q: got number, want string (schema path /properties/q/type)"},
	}
}

// TestEveryReasonOverTheWire sends each reason through a real server and
// client and reads it back, unary and mid-stream, wrapped and not.
func TestEveryReasonOverTheWire(t *testing.T) {
	ts := startServer(t, errdetails.Options{})
	client := ts.dial(t)
	seen := map[string]bool{}
	for _, tc := range wireCases() {
		seen[tc.reason] = true
		t.Run(tc.reason, func(t *testing.T) {
			id := "unary-" + tc.reason
			ts.runs.set(id, func() error { return fmt.Errorf("handler context: %w", tc.err) })
			var header, trailer metadata.MD
			_, err := client.GetRun(testContext(t), &runsvcv1.GetRunRequest{RunId: id}, grpc.Header(&header), grpc.Trailer(&trailer))
			checkStatus(t, tc, err)
			if len(header) != 0 {
				t.Errorf("client saw header metadata %v on an error: the response is not Trailers-Only", header)
			}
			want := "-1"
			if tc.retry > 0 {
				want = fmt.Sprint(tc.retry.Milliseconds())
			}
			if got := trailer.Get(errdetails.PushbackTrailer); len(got) != 1 || got[0] != want {
				t.Errorf("pushback trailer = %v, want [%s]", got, want)
			}

			t.Run("mid-stream", func(t *testing.T) {
				id := "stream-" + tc.reason
				ts.runs.set(id, func() error { return tc.err })
				stream, err := client.WatchRun(testContext(t), &runsvcv1.WatchRunRequest{RunId: id})
				if err != nil {
					t.Fatal(err)
				}
				if _, err := stream.Recv(); err != nil {
					t.Fatalf("first message: %v", err)
				}
				_, err = stream.Recv()
				checkStatus(t, tc, err)
				if got := stream.Trailer().Get(errdetails.PushbackTrailer); len(got) != 1 || got[0] != want {
					t.Errorf("stream pushback trailer = %v, want [%s]", got, want)
				}
			})
		})
	}
	for _, reason := range errdetails.Reasons() {
		if !seen[reason] {
			t.Errorf("reason %s is in the table but has no wire test", reason)
		}
	}
}

func checkStatus(t *testing.T, tc wireCase, err error) {
	t.Helper()
	st, ok := status.FromError(err)
	if !ok {
		t.Fatalf("error %v is not a status", err)
	}
	if st.Code() != tc.code {
		t.Errorf("code = %v, want %v", st.Code(), tc.code)
	}
	if tc.message != "" && st.Message() != tc.message {
		t.Errorf("message = %q, want %q", st.Message(), tc.message)
	}
	details := st.Details()
	if len(details) == 0 {
		t.Fatal("no details")
	}
	info, ok := details[0].(*edpb.ErrorInfo)
	if !ok {
		t.Fatalf("first detail is %T, want ErrorInfo", details[0])
	}
	domain := errdetails.DefaultDomain
	if tc.domain != "" {
		domain = tc.domain
	}
	if info.GetReason() != tc.reason || info.GetDomain() != domain {
		t.Errorf("ErrorInfo = %s/%s, want %s/%s", info.GetDomain(), info.GetReason(), domain, tc.reason)
	}
	var keys []string
	for k := range info.GetMetadata() {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	want := slices.Clone(tc.keys)
	sort.Strings(want)
	if !slices.Equal(keys, want) {
		t.Errorf("metadata keys = %v, want %v", keys, want)
	}
	var types []string
	var retry *edpb.RetryInfo
	counts := map[string]int{}
	for _, d := range details {
		if e, isErr := d.(error); isErr {
			t.Fatalf("undecodable detail: %v", e)
		}
		name := string(proto.MessageName(d.(proto.Message)).Name())
		counts[name]++
		switch v := d.(type) {
		case *edpb.ErrorInfo:
		case *edpb.RetryInfo:
			retry = v
		default:
			types = append(types, name)
		}
	}
	for name, n := range counts {
		if n > 1 {
			t.Errorf("%d details of type %s, want at most one", n, name)
		}
	}
	if !slices.Equal(types, tc.details) {
		t.Errorf("details = %v, want %v", types, tc.details)
	}
	switch {
	case tc.retry == 0 && retry != nil:
		t.Errorf("RetryInfo present on a non-retryable error")
	case tc.retry > 0 && retry == nil:
		t.Errorf("RetryInfo missing on a retryable error")
	case tc.retry > 0 && retry.GetRetryDelay().AsDuration() != tc.retry:
		t.Errorf("retry delay = %v, want %v", retry.GetRetryDelay().AsDuration(), tc.retry)
	}
	for _, leak := range []string{"/var/lib", "sql:", "10.0.0.1", "goroutine", ".go:"} {
		if strings.Contains(st.Message(), leak) || strings.Contains(fmt.Sprint(details), leak) {
			t.Errorf("status leaks %q: %s %v", leak, st.Message(), details)
		}
	}
}

// TestRoundTrip: FromStatus turns each status back into its typed error, and
// mapping that again gives the same status.
func TestRoundTrip(t *testing.T) {
	m := errdetails.New(errdetails.Options{})
	for _, tc := range wireCases() {
		t.Run(tc.reason, func(t *testing.T) {
			first := m.Describe(tc.err).Status
			back := errdetails.FromStatus(first)
			if tc.reason != "INTERNAL" && errs.Kind(back) == "" {
				t.Fatalf("FromStatus gave %T, want a typed error", back)
			}
			again := m.Describe(back).Status
			if !proto.Equal(first.Proto(), again.Proto()) {
				t.Errorf("round trip differs:\n first %v\n again %v", first.Proto(), again.Proto())
			}
		})
	}
}

func TestClassify(t *testing.T) {
	m := errdetails.New(errdetails.Options{Domain: "runs.example.com"})
	for _, tc := range wireCases() {
		t.Run(tc.reason, func(t *testing.T) {
			c := errdetails.Classify(m.Describe(tc.err).Status.Err())
			domain := "runs.example.com"
			if tc.domain != "" {
				domain = tc.domain // the A2A error types keep the A2A domain
			}
			if c.Reason != tc.reason || c.Domain != domain || c.Code != tc.code {
				t.Errorf("classified %s/%s %v, want %s %v", c.Domain, c.Reason, c.Code, tc.reason, tc.code)
			}
			if c.Retryable != (tc.retry > 0) || c.RetryDelay != tc.retry {
				t.Errorf("retryable %v after %v, want after %v", c.Retryable, c.RetryDelay, tc.retry)
			}
		})
	}
}

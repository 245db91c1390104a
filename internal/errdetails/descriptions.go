package errdetails

// CatalogueVersion is the version of the published error catalogue
// (errors.json): its minor number grows when a reason is added, its major
// number if a reason's code or retry bit ever changed. The Python and Node
// packages take their version from it.
const CatalogueVersion = "0.6.0"

// description is the catalogue's prose for one reason.
type description struct {
	text  string
	since string // the CatalogueVersion that added the reason
}

// descriptions says what each reason means to a client and what to do
// about it. Keyed by reason so table rows stay one line; a reason without
// one fails TestCatalogueDescribesEveryReason.
var descriptions = map[string]description{
	"INVALID_REQUEST":          {"The request is malformed: a field is missing, out of range or undecodable. BadRequest names each field; fix the request.", "0.1.0"},
	"SPEC_INVALID":             {"PublishSpec refused the Spec; BadRequest has one violation per problem, field being the dotted path in the Spec.", "0.1.0"},
	"SPEC_UNBUILDABLE":         {"The Spec is well-formed but runsvc cannot assemble it (e.g. a model with no provider).", "0.1.0"},
	"VALUE_NOT_PORTABLE":       {"A value cannot be stored or sent as JSON (too large, not representable); BadRequest names its path.", "0.1.0"},
	"CONFIGURATION_INVALID":    {"The server's or a Spec's configuration is wrong (e.g. a model's base_url); an operator must fix it.", "0.1.0"},
	"DEPENDENCY_MISSING":       {"A feature needs something the server does not have (e.g. the bus needs PostgreSQL); Help links to how to set it up.", "0.1.0"},
	"RUN_NOT_FOUND":            {"No Run has that id (in the caller's tenant).", "0.1.0"},
	"SPEC_NOT_FOUND":           {"No Spec (or no such Version of it) is published under that name.", "0.1.0"},
	"DELEGATION_NOT_FOUND":     {"No delegation has that id.", "0.1.0"},
	"TOOL_NOT_FOUND":           {"The Run asked for a tool its Spec does not have; availableTools lists the ones it has.", "0.1.0"},
	"REQUEST_ID_REUSED":        {"StartRun was retried with the same request id but a different body; ResourceInfo names the Run the first request started.", "0.1.0"},
	"RUN_NOT_SUSPENDED":        {"ResumeRun on a Run that is not waiting for anything; runState says what it is doing.", "0.1.0"},
	"RUN_ALREADY_SETTLED":      {"The Run has settled (completed, failed, aborted), so it cannot take this action.", "0.1.0"},
	"SUSPENSION_EXPIRED":       {"The resume came after the suspension's expiry; the Run was abandoned.", "0.1.0"},
	"RUN_ENDED_WITHOUT_ANSWER": {"A text stream's Run settled without an answer and without failing (e.g. abandoned).", "0.1.0"},
	"RUN_FAILED":               {"A text stream's Run failed; failureReason and failureMessage are the Run's own failure.", "0.1.0"},
	"RUN_ABORTED":              {"A text stream's Run was aborted (interrupted or past its deadline); abortCause says which.", "0.1.0"},
	"ACCESS_DENIED":            {"The Spec's policy forbids this (a Run start or a tool call); the caller's role is ROLE_DENIED.", "0.1.0"},
	"TOOL_NARROWED":            {"A delegated Run asked for a tool its parent narrowed away.", "0.1.0"},
	"UNAUTHENTICATED":          {"The call has no valid credentials (missing or unknown bearer token, or an unlisted client certificate).", "0.1.0"},
	"CREDENTIAL_NOT_FOUND":     {"A Spec names a credential that is not configured for its scope.", "0.1.0"},
	"BUDGET_EXCEEDED":          {"The call would spend past the Run's budget, so it was not made.", "0.1.0"},
	"BUDGET_OVERRUN":           {"A model call already made went past the budget (reported after the fact); retryable once the budget is raised. For cost the message is `Cost budget exceeded: ${used} used, budget is ${limit}` (six decimals).", "0.1.0"},
	"TOOL_LOOP_LIMIT":          {"The Run made more tool calls than max_tool_rounds allows (the circuit breaker).", "0.1.0"},
	"INFERENCE_RATE_LIMITED":   {"The model provider rate-limited the call; retry after RetryInfo's delay.", "0.1.0"},
	"INFERENCE_FAILED":         {"A model call failed transiently (5xx, timeouts, lost connections); a new try may succeed. A refusal of the request as made is INFERENCE_REJECTED.", "0.1.0"},
	"TRANSIENT_FAILURE":        {"An operation failed in a way worth retrying that no more specific reason describes.", "0.1.0"},
	"STORE_UNAVAILABLE":        {"The server's store could not be reached or did not answer; retry.", "0.1.0"},
	"OVERLOADED":               {"The server is shedding load (admission is full); retry after RetryInfo's delay.", "0.1.0"},
	"TOOL_FAILED":              {"A tool call failed in a way a retry may fix (the tool said so, or the connection failed). A tool that answered and refused is TOOL_REJECTED.", "0.1.0"},
	"MCP_FAILED":               {"A call to an MCP server failed in a way a retry may fix (lost connection, timeout). A server that answered and refused is MCP_REJECTED.", "0.1.0"},
	"SEQ_CONFLICT":             {"Two writers appended the same sequence number to a Run's log; only a worker inside runsvc meets it.", "0.1.0"},
	"LEASE_LOST":               {"A worker lost its lease on a Run to another; only a worker inside runsvc meets it.", "0.1.0"},
	"RUN_DEADLINE_EXCEEDED":    {"The Run's own deadline passed (a Run's failure, never the caller's deadline).", "0.1.0"},
	"AWAIT_TIMEOUT":            {"Waiting for a memory key timed out; namespace names the memory waited on and missingKeys lists every key still missing.", "0.1.0"},
	"DELEGATION_TIMEOUT":       {"A delegated Run did not settle within its timeout.", "0.1.0"},
	"BUS_NOT_CONFIGURED":       {"The robot (Spec) has no bus configured.", "0.1.0"},
	"CHANNEL_NOT_FOUND":        {"No bus channel has that name.", "0.1.0"},
	"LOG_CORRUPT":              {"A Run's log breaks an invariant (corruption names which); the Run cannot continue. Report it.", "0.1.0"},
	"INTERNAL":                 {"Anything else: a bug or an unexpected failure. errorId matches the server's log line with the full cause.", "0.1.0"},

	// Reasons added in 0.2.0 (the rows may land after this file).
	"INFERENCE_REJECTED": {"The model provider refused the request as made (HTTP 400, 404, 422); retrying the same request will not help.", "0.2.0"},
	"TOOL_REJECTED":      {"The tool answered and refused the call; retrying the same call will not help.", "0.2.0"},
	"MCP_REJECTED":       {"The MCP server answered and refused the call; retrying the same call will not help.", "0.2.0"},
	"ROLE_DENIED":        {"The caller's roles do not allow this method (metadata role and method); a key with another role may.", "0.2.0"},
	"THREAD_BUSY":        {"The thread already has an active Run and the start's strategy is reject; wait for that Run (precondition subject) to settle, or start with enqueue, interrupt or steer.", "0.3.0"},
	"THREAD_NOT_FOUND":   {"No Run of the tenant started on a thread with that id.", "0.3.0"},
	"QUOTA_EXCEEDED":     {"The tenant has spent a quota (concurrent Runs, StartRun rate); retry after the delay, when a Run settles or the rate window moves.", "0.2.0"},
	"TOOL_IN_DOUBT":      {"An at-most-once tool call was in flight when the process making it died: it may or may not have happened, so runsvc did not make it again (raise_on_error).", "0.2.0"},
	"METHOD_NOT_FOUND":   {"The server has no such method or service (UNIMPLEMENTED): the client is newer than the server, or the method name is wrong.", "0.2.0"},
	"OUTPUT_INVALID":     {"The Run's final answer did not match the Spec's output schema, even after the model was asked once more with the mismatches; BadRequest fields are the answer's JSON paths.", "0.2.0"},
	// Added in 0.3.0 (issue 19, data lifecycle).
	"RUN_NOT_SETTLED": {"DeleteRun on a Run that is still active (runState); nothing changed. Interrupt it first, or set interrupt in the request.", "0.3.0"},
	// Added in 0.4.0 (issue 30, long-lived work).
	"ATTEMPTS_EXHAUSTED": {"The Run failed because diedAttempts of its Attempts died (their process crashed, their lease was lost, their worker drained) and the server's --max-attempts (maxAttempts) allows no more. Attempts that suspended the Run for a resume, an answer or an approval are not counted. Find what kills the worker (the log names the Run); starting the Run again may meet the same fate.", "0.4.0"},
	// Added in 0.5.0 (issue 34: schedules, webhooks).
	"SCHEDULE_INVALID":   {"CreateSchedule refused the schedule; BadRequest names each field: a bad cron expression, an unknown time zone, none or two of cron, interval and at, an interval under 1s, an id naming a schedule with another definition.", "0.5.0"},
	"SCHEDULE_NOT_FOUND": {"The tenant has no schedule with that id (scheduleId).", "0.5.0"},
	"WEBHOOK_INVALID":    {"CreateWebhook or UpdateWebhook refused the subscription; BadRequest has one violation per problem: a URL that is not https (http only to networks --allow-network lists), one whose address the outbound network policy refuses (a cloud metadata address such as 169.254.169.254), an unknown event type.", "0.5.0"},
	"WEBHOOK_NOT_FOUND":  {"The tenant has no webhook subscription with that id.", "0.5.0"},
	// Added in 0.6.0 (issue 35: flow control).
	"CONCURRENCY_LIMITED": {"StartRun found every slot of the Run's concurrency key (concurrencyKey) held by active Runs (limit) and the Spec's concurrency mode is REJECT; nothing was created. FAILED_PRECONDITION without RetryInfo: a slot frees only when a Run of the key settles. Wait for one (ListRuns, WaitRun), or publish the Spec with mode QUEUE or REPLACE.", "0.6.0"},
	// Added in 0.6.0 (issue 37: aliases).
	"ALIAS_INVALID":   {"An alias write or a spec@alias reference was refused; BadRequest names each field: an alias name that is not lower case letters, digits, '-' and '_' starting with a letter, a Version the Spec does not have, a canary weight outside 1-99.", "0.6.0"},
	"ALIAS_NOT_FOUND": {"The Spec has no alias of that name (spec, alias): set it with MoveAlias, or start the Spec by name or Version.", "0.6.0"},
	// Added in 0.6.0 (issue 36: the A2A 1.0 error types, in the domain
	// a2a-protocol.org, returned only on the A2A bindings).
	"TASK_NOT_FOUND":                  {"A2A: no task (Run) of this agent has that id (taskId) in the caller's tenant. JSON-RPC code -32001.", "0.6.0"},
	"TASK_NOT_CANCELABLE":             {"A2A: CancelTask on a task that already ended (state). JSON-RPC code -32002.", "0.6.0"},
	"PUSH_NOTIFICATION_NOT_SUPPORTED": {"A2A: a push-notification call to an agent that does not send them. JSON-RPC code -32003.", "0.6.0"},
	"UNSUPPORTED_OPERATION":           {"A2A: the operation is not possible in the task's state (a message to, or a subscription to, a task that ended); detail says what to do instead. JSON-RPC code -32004.", "0.6.0"},
	"CONTENT_TYPE_NOT_SUPPORTED":      {"A2A: a message part runsvc cannot give a model (a file, raw bytes) or output modes it cannot answer in (mediaType). JSON-RPC code -32005.", "0.6.0"},
	"VERSION_NOT_SUPPORTED":           {"A2A: the A2A-Version header names a protocol version other than 1.0. JSON-RPC code -32009.", "0.6.0"},
	// Added in 0.6.0 (issue 37: replay evaluation).
	"EVALUATION_NOT_FOUND":   {"The tenant has no evaluation with that id (evaluationId), or it was deleted.", "0.6.0"},
	"EVALUATION_INVALID":     {"EvaluateVersion (or CheckEvaluation) refused the request; BadRequest has one violation per problem: no candidate Spec or Version, a selection of Runs that picks no settled recorded Run or names one that is not, an evaluator that cannot run (a regular expression or JSON Schema that does not compile, a bad JSON path, a judge without a Spec), a min_score outside 0..1.", "0.6.0"},
	"EVALUATION_GATE_FAILED": {"The evaluation does not let the Version through an alias move (or CheckEvaluation): it evaluated another Version, some of its replays have not settled, or its score is below min_score; why says which, failingRunIds names up to 7 recorded Runs whose replays scored below it, lowest first, and moreFailingRuns counts the rest.", "0.6.0"},
}

// describe returns a reason's description, empty for one without.
func describe(reason string) description {
	return descriptions[reason]
}

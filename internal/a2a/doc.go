// Package a2a serves the Specs a tenant exposes (Spec.exposure.a2a) as
// A2A 1.0 agents (a2a-protocol.org; the normative source is the spec's
// a2a.proto) on the HTTP surface: an Agent Card per Spec, and the
// JSON-RPC and HTTP+JSON (REST) bindings with SendMessage,
// SendStreamingMessage, GetTask, ListTasks, CancelTask and
// SubscribeToTask. It is written from the spec because no Go library
// speaks A2A 1.0: github.com/a2aproject/a2a-go v0.3.3 implements A2A 0.3
// (method names such as message/send, "kind" discriminators, a different
// Agent Card), which @a2a-js/sdk 1.3.0's client does not accept.
//
// A task is a Run: the task id is the Run id, the contextId the Run's
// thread, and every state is derived from the Run when asked, so there is
// no task table to keep in step and a task survives kill -9 and takeover
// as its Run does. Each A2A call becomes calls of runsvc's own RunService
// and SpecService made in-process through the HTTP API's handler, with the
// caller's credentials (the bearer API key, or the client certificate):
// the same authentication, roles, quotas and error table as every other
// binding (DESIGN §10, §14). The A2A error types are typed errors (errs.
// TaskNotFound, ...) in the table with the A2A domain; runsvc's own
// reasons keep their domain and details.
package a2a

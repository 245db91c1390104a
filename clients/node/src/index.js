// @runsvc/client: classify runsvc's google.rpc.Status failures, call
// runsvc.v1 methods by name with protojson requests, retry what RetryInfo
// says may succeed, and serve worker tools over ToolService.ServeTools.

export { classify, classifyStatus, statusFromError, codeName, PUSHBACK_TRAILER, STATUS_DETAILS_TRAILER } from './classify.js';
export { RunsvcClient } from './client.js';
export { fromProtoJSON, toProtoJSON, parseDuration, formatDuration } from './protojson.js';
export { loadRunsvc, LOADER_OPTIONS, DEFAULT_PROTO_DIR, GOOGLE_PROTO_DIR } from './protos.js';
export { CATALOGUE_VERSION, DEFAULT_DOMAIN, Reason, REASONS, RETRYABLE } from './reasons.js';
export { withRetry, DEFAULT_MAX_ATTEMPTS } from './retry.js';
export { Worker, ToolError } from './worker.js';
export { tlsCredentials } from './credentials.js';

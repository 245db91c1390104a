// @runsvc/client: classify runsvc's google.rpc.Status failures, and call
// runsvc.v1 methods by name with protojson requests.

export { classify, classifyStatus, statusFromError, codeName, PUSHBACK_TRAILER, STATUS_DETAILS_TRAILER } from './classify.js';
export { RunsvcClient } from './client.js';
export { fromProtoJSON, toProtoJSON, parseDuration, formatDuration } from './protojson.js';
export { loadRunsvc, LOADER_OPTIONS, DEFAULT_PROTO_DIR, GOOGLE_PROTO_DIR } from './protos.js';
export { tlsCredentials } from './credentials.js';

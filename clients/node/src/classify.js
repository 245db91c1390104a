// classify(): what a runsvc failure says, from an RPC error or from a
// google.rpc.Status found in a response (a Run's failure, a tool's error).

import protobuf from 'protobufjs';
import { googleRpcRoot } from './protos.js';
import { parseDuration } from './protojson.js';

/** The trailer a retryable error sets to its delay in ms (-1 otherwise). */
export const PUSHBACK_TRAILER = 'grpc-retry-pushback-ms';

/** The trailer holding the serialized google.rpc.Status. */
export const STATUS_DETAILS_TRAILER = 'grpc-status-details-bin';

const CODE_NAMES = [
  'OK', 'CANCELLED', 'UNKNOWN', 'INVALID_ARGUMENT', 'DEADLINE_EXCEEDED', 'NOT_FOUND', 'ALREADY_EXISTS',
  'PERMISSION_DENIED', 'RESOURCE_EXHAUSTED', 'FAILED_PRECONDITION', 'ABORTED', 'OUT_OF_RANGE',
  'UNIMPLEMENTED', 'INTERNAL', 'UNAVAILABLE', 'DATA_LOSS', 'UNAUTHENTICATED',
];

/** How decoded details are turned into plain objects. */
const TO_OBJECT = { longs: String, enums: String, defaults: true, arrays: true, objects: true };

/**
 * The name of a gRPC status code, as google.rpc.Code spells it.
 * @param {number|string} code a number, or already a name
 * @returns {string} e.g. "NOT_FOUND"; "CODE_<n>" for a number outside the table
 */
export function codeName(code) {
  if (typeof code === 'string') return code;
  return CODE_NAMES[code] ?? `CODE_${code}`;
}

/**
 * @typedef {object} Classification
 * @property {string} code the code's name, e.g. "NOT_FOUND"
 * @property {string} message the status message
 * @property {string|null} reason ErrorInfo.reason, null without ErrorInfo
 * @property {string|null} domain ErrorInfo.domain, null without ErrorInfo
 * @property {Record<string,string>} metadata ErrorInfo.metadata ({} without)
 * @property {boolean} retryable true if and only if RetryInfo is present
 * @property {number|null} retryDelayMs RetryInfo.retry_delay in ms, null when not retryable
 * @property {string|null} pushback the grpc-retry-pushback-ms trailer; null for a status
 *   read from a response, or when the server sent none
 * @property {object[]} details every decoded detail, each {type, ...fields}
 *   (type is the full name, e.g. "google.rpc.BadRequest"); undecodable ones
 *   as {type, undecoded: Buffer}
 */

/**
 * Classifies a grpc-js ServiceError from a runsvc call: decodes the
 * google.rpc.Status of its `grpc-status-details-bin` trailer and the
 * status's details. An error without that trailer (e.g. a transport
 * failure) still gets its code and message, with no reason and not
 * retryable.
 * @param {import('@grpc/grpc-js').ServiceError|Error} err
 * @returns {Classification}
 */
export function classify(err) {
  const md = err?.metadata;
  const pushbackValues = md?.get ? md.get(PUSHBACK_TRAILER).map(String) : [];
  const pushback = pushbackValues.length ? pushbackValues.join(',') : null;
  return { ...classifyStatus(statusFromError(err)), pushback };
}

/**
 * The google.rpc.Status of a grpc-js ServiceError, decoded from its
 * `grpc-status-details-bin` trailer (details as Any {type_url, value:
 * Buffer}); without that trailer, a Status of the error's code and message
 * with no details.
 * @param {import('@grpc/grpc-js').ServiceError|Error} err
 * @returns {{code: number, message: string, details: object[]}}
 */
export function statusFromError(err) {
  const fallback = { code: err?.code ?? 2, message: err?.details ?? err?.message ?? '', details: [] };
  const raw = err?.metadata?.get ? err.metadata.get(STATUS_DETAILS_TRAILER) : [];
  if (raw.length === 0) return fallback;
  try {
    const Status = googleRpcRoot().lookupType('google.rpc.Status');
    const bin = Buffer.isBuffer(raw[0]) ? raw[0] : Buffer.from(String(raw[0]), 'base64');
    return Status.toObject(Status.decode(bin), TO_OBJECT);
  } catch {
    return fallback;
  }
}

/**
 * Classifies a google.rpc.Status found in a response: a Run's `failure`, a
 * tool call's `error`, a delegation's `failure`. Accepts the shape
 * proto-loader gives (details as Any {type_url, value: Buffer}; typeUrl
 * is accepted too)
 * and the protojson shape (details as {"@type": ..., fields}). A status
 * without details gets no reason and is not retryable.
 * @param {object|null|undefined} status
 * @returns {Classification} with pushback null
 */
export function classifyStatus(status) {
  const out = {
    code: codeName(status?.code ?? 0),
    message: status?.message ?? '',
    reason: null,
    domain: null,
    metadata: {},
    retryable: false,
    retryDelayMs: null,
    pushback: null,
    details: [],
  };
  for (const any of status?.details ?? []) {
    const d = decodeDetail(any);
    out.details.push(d);
    if (d.type === 'google.rpc.ErrorInfo' && out.reason === null) {
      out.reason = d.reason ?? '';
      out.domain = d.domain ?? '';
      out.metadata = { ...(d.metadata ?? {}) };
    } else if (d.type === 'google.rpc.RetryInfo') {
      out.retryable = true;
      out.retryDelayMs = durationMs(d.retryDelay);
    }
  }
  return out;
}

/**
 * Decodes one Any detail into {type, ...fields}.
 * @param {object} any
 * @returns {object}
 */
function decodeDetail(any) {
  const url = any?.type_url || any?.typeUrl || any?.['@type'] || '';
  const type = url.slice(url.lastIndexOf('/') + 1);
  if (any?.['@type'] !== undefined) {
    // protojson: the fields are inline.
    const { '@type': _ignored, ...fields } = any;
    if (type === 'google.rpc.RetryInfo' && typeof fields.retryDelay === 'string') {
      fields.retryDelay = durationOrZero(fields.retryDelay);
    }
    return { type, ...fields };
  }
  let value = any?.value ?? new Uint8Array();
  if (typeof value === 'string') value = Buffer.from(value, 'base64');
  const T = type ? googleRpcRoot().lookup(type) : null;
  if (!(T instanceof protobuf.Type)) return { type, undecoded: Buffer.from(value) };
  try {
    return { type, ...T.toObject(T.decode(value), TO_OBJECT) };
  } catch {
    return { type, undecoded: Buffer.from(value) };
  }
}

/**
 * A google.protobuf.Duration ({seconds, nanos}) in whole milliseconds,
 * truncated as Go's Duration.Milliseconds() does.
 * @param {{seconds?: string|number, nanos?: number}|null|undefined} d
 * @returns {number}
 */
function durationMs(d) {
  if (!d) return 0;
  const ms = Number(d.seconds ?? 0) * 1000 + Number(d.nanos ?? 0) / 1e6;
  return Math.trunc(ms);
}

/** A protojson Duration ("1.5s") as {seconds, nanos}; zero when malformed. */
function durationOrZero(s) {
  try {
    return parseDuration(s);
  } catch {
    return { seconds: '0', nanos: 0 };
  }
}

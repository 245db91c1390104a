// classify() and the protojson converter, without a server.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import grpc from '@grpc/grpc-js';
import { classify, classifyStatus, codeName } from '../src/classify.js';
import { googleRpcRoot, loadRunsvc } from '../src/protos.js';
import { fromProtoJSON, toProtoJSON, parseDuration, formatDuration } from '../src/protojson.js';

const rpc = googleRpcRoot();
const { root } = loadRunsvc();

function any(typeName, fields) {
  const T = rpc.lookupType(typeName);
  return { type_url: `type.googleapis.com/${typeName}`, value: Buffer.from(T.encode(T.fromObject(fields)).finish()) };
}

function serviceError(status, trailers = {}) {
  const Status = rpc.lookupType('google.rpc.Status');
  const md = new grpc.Metadata();
  if (status) md.set('grpc-status-details-bin', Buffer.from(Status.encode(Status.fromObject(status)).finish()));
  for (const [k, v] of Object.entries(trailers)) md.set(k, v);
  const err = new Error(`${status?.code ?? 14} ${codeName(status?.code ?? 14)}: ${status?.message ?? 'no connection'}`);
  return Object.assign(err, { code: status?.code ?? 14, details: status?.message ?? 'no connection', metadata: md });
}

test('classify decodes ErrorInfo, RetryInfo and the pushback trailer', () => {
  const err = serviceError(
    {
      code: 14,
      message: 'upstream unavailable',
      details: [
        any('google.rpc.ErrorInfo', { reason: 'INFERENCE_FAILED', domain: 'runsvc', metadata: { provider: 'scripted', httpStatus: '503' } }),
        any('google.rpc.RetryInfo', { retryDelay: { seconds: 1, nanos: 500_000_000 } }),
      ],
    },
    { 'grpc-retry-pushback-ms': '1500' },
  );
  const c = classify(err);
  assert.equal(c.code, 'UNAVAILABLE');
  assert.equal(c.message, 'upstream unavailable');
  assert.equal(c.reason, 'INFERENCE_FAILED');
  assert.equal(c.domain, 'runsvc');
  assert.deepEqual(c.metadata, { provider: 'scripted', httpStatus: '503' });
  assert.equal(c.retryable, true);
  assert.equal(c.retryDelayMs, 1500);
  assert.equal(c.pushback, '1500');
  assert.deepEqual(c.details.map((d) => d.type), ['google.rpc.ErrorInfo', 'google.rpc.RetryInfo']);
});

test('classify keeps other details and an unknown one undecoded', () => {
  const err = serviceError(
    {
      code: 3,
      message: 'bad',
      details: [
        any('google.rpc.ErrorInfo', { reason: 'SPEC_INVALID', domain: 'runsvc', metadata: { spec: 'x', violationCount: '1' } }),
        any('google.rpc.BadRequest', { fieldViolations: [{ field: 'name', description: 'bad name' }] }),
        { type_url: 'type.googleapis.com/example.Unknown', value: Buffer.from([8, 1]) },
      ],
    },
    { 'grpc-retry-pushback-ms': '-1' },
  );
  const c = classify(err);
  assert.equal(c.code, 'INVALID_ARGUMENT');
  assert.equal(c.retryable, false);
  assert.equal(c.retryDelayMs, null);
  assert.equal(c.pushback, '-1');
  assert.equal(c.details[1].fieldViolations[0].field, 'name');
  assert.equal(c.details[2].type, 'example.Unknown');
  assert.ok(Buffer.isBuffer(c.details[2].undecoded));
});

test('classify degrades gracefully without a status trailer', () => {
  const c = classify(serviceError(null));
  assert.equal(c.code, 'UNAVAILABLE');
  assert.equal(c.message, 'no connection');
  assert.equal(c.reason, null);
  assert.equal(c.domain, null);
  assert.deepEqual(c.metadata, {});
  assert.equal(c.retryable, false);
  assert.equal(c.retryDelayMs, null);
  assert.equal(c.pushback, null);
});

test('classifyStatus reads a status from a response, in either shape', () => {
  const loaderShape = {
    code: 8,
    message: 'Token budget exceeded',
    details: [
      { typeUrl: 'type.googleapis.com/google.rpc.ErrorInfo', value: any('google.rpc.ErrorInfo', { reason: 'BUDGET_OVERRUN', domain: 'runsvc', metadata: { used: '60' } }).value },
      any('google.rpc.RetryInfo', { retryDelay: { seconds: 2 } }),
    ],
  };
  const c = classifyStatus(loaderShape);
  assert.equal(c.code, 'RESOURCE_EXHAUSTED');
  assert.equal(c.reason, 'BUDGET_OVERRUN');
  assert.equal(c.retryDelayMs, 2000);
  assert.equal(c.pushback, null);

  const json = classifyStatus({
    code: 8,
    message: 'm',
    details: [
      { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'BUDGET_OVERRUN', domain: 'runsvc', metadata: { used: '60' } },
      { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '0.250s' },
    ],
  });
  assert.equal(json.reason, 'BUDGET_OVERRUN');
  assert.equal(json.retryDelayMs, 250);

  const bare = classifyStatus({ code: 13, message: 'boom' });
  assert.deepEqual([bare.code, bare.reason, bare.retryable], ['INTERNAL', null, false]);
  assert.equal(classifyStatus(null).code, 'OK');
});

test('protojson durations', () => {
  assert.deepEqual(parseDuration('20s'), { seconds: '20', nanos: 0 });
  assert.deepEqual(parseDuration('0.3s'), { seconds: '0', nanos: 300_000_000 });
  assert.deepEqual(parseDuration('-1.5s'), { seconds: '-1', nanos: -500_000_000 });
  assert.throws(() => parseDuration('20'));
  assert.equal(formatDuration({ seconds: '20', nanos: 0 }), '20s');
  assert.equal(formatDuration({ seconds: '1', nanos: 500_000_000 }), '1.500s');
  assert.equal(formatDuration({ seconds: '0', nanos: 1 }), '0.000000001s');
});

test('protojson requests become proto-loader objects and round-trip', () => {
  const T = root.lookupType('runsvc.v1.PublishSpecRequest');
  const json = {
    spec: {
      name: 'x',
      model: { provider: 'scripted', script: { turns: [{ text: 'hi', toolCalls: [{ name: 't', arguments: { q: 'w', n: 1, ok: true, nil: null, list: [1, 'a'], obj: { a: {} } } }], delay: '0.500s' }] } },
      tools: [{ name: 't', kind: 'TOOL_KIND_CLIENT', raiseOnError: true }],
      limits: { tokenBudget: '10', transientRetryBudget: -1, deadline: '20s' },
      suspensionExpiry: { toolResults: '1s' },
    },
  };
  const obj = fromProtoJSON(T, json);
  assert.deepEqual(obj.spec.limits.deadline, { seconds: '20', nanos: 0 });
  assert.deepEqual(obj.spec.model.script.turns[0].toolCalls[0].arguments.fields.q, { stringValue: 'w' });
  assert.deepEqual(obj.spec.model.script.turns[0].toolCalls[0].arguments.fields.nil, { nullValue: 'NULL_VALUE' });
  // Encode and decode as proto-loader would, then back to protojson.
  const decoded = T.toObject(T.decode(T.encode(T.fromObject(obj)).finish()), { longs: String, enums: String, defaults: true, oneofs: true });
  assert.deepEqual(toProtoJSON(T, decoded), json);
  assert.throws(() => fromProtoJSON(T, { spec: { nmae: 'typo' } }), /no field nmae/);
  // snake_case names are accepted too.
  assert.deepEqual(fromProtoJSON(T, { spec: { suspension_expiry: { tool_results: '2s' } } }).spec.suspensionExpiry.toolResults, { seconds: '2', nanos: 0 });
});

test('protojson of a Run with a failure and of a Value request', () => {
  const Run = root.lookupType('runsvc.v1.Run');
  const json = {
    runId: 'run_1',
    state: 'RUN_STATE_FAILED',
    failure: {
      code: 14,
      message: 'm',
      details: [
        { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'INFERENCE_FAILED', domain: 'runsvc', metadata: { a: 'b' } },
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1s' },
      ],
    },
    lastSeq: '7',
    createTime: '2024-05-01T10:00:00.250Z',
  };
  const obj = fromProtoJSON(Run, json);
  assert.ok(Buffer.isBuffer(obj.failure.details[0].value));
  const c = classifyStatus(obj.failure);
  assert.deepEqual([c.reason, c.retryDelayMs, c.metadata], ['INFERENCE_FAILED', 1000, { a: 'b' }]);
  const decoded = Run.toObject(Run.decode(Run.encode(Run.fromObject(obj)).finish()), { longs: String, enums: String, defaults: true, oneofs: true });
  assert.deepEqual(toProtoJSON(Run, decoded), json);

  const Set = root.lookupType('runsvc.v1.SetValueRequest');
  assert.deepEqual(fromProtoJSON(Set, { scope: { namespace: 'n' }, key: 'k', value: 'v' }).value, { stringValue: 'v' });
  assert.deepEqual(fromProtoJSON(Set, { key: 'k', value: null }).value, { nullValue: 'NULL_VALUE' });
});

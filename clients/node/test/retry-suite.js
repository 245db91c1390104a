// withRetry against a real grpc-js server on 127.0.0.1 that fails GetRun
// with queued runsvc statuses (ErrorInfo, and RetryInfo when retryable),
// written once for the source tree (retry.test.js) and the installed
// package (clients/node/installed/retry.installed.test.js).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import grpc from '@grpc/grpc-js';

/**
 * @param {object} lib the package's exports (RunsvcClient, withRetry, classify, loadRunsvc, Reason)
 */
export function retrySuite(lib) {
  const { RunsvcClient, withRetry, classify, loadRunsvc, Reason } = lib;

  describe('withRetry', () => {
    const { packageDefinition, root } = loadRunsvc();
    const Status = root.lookupType('google.rpc.Status');
    const ErrorInfo = root.lookupType('google.rpc.ErrorInfo');
    const RetryInfo = root.lookupType('google.rpc.RetryInfo');
    const any = (type, value) => ({ type_url: `type.googleapis.com/${type.fullName.slice(1)}`, value: type.encode(type.create(value)).finish() });
    let server;
    let client;
    let queue = [];
    let calls = 0;

    const failure = ([reason, domain, delayMs]) => {
      const details = [any(ErrorInfo, { reason, domain })];
      if (delayMs !== null) details.push(any(RetryInfo, { retryDelay: { seconds: Math.floor(delayMs / 1000), nanos: (delayMs % 1000) * 1e6 } }));
      const md = new grpc.Metadata();
      md.set('grpc-status-details-bin', Buffer.from(Status.encode(Status.create({ code: grpc.status.UNAVAILABLE, message: reason, details })).finish()));
      return { code: grpc.status.UNAVAILABLE, details: reason, metadata: md };
    };

    before(async () => {
      const pkg = grpc.loadPackageDefinition(packageDefinition).runsvc.v1;
      server = new grpc.Server();
      server.addService(pkg.RunService.service, {
        GetRun(call, cb) {
          calls++;
          const next = queue.shift();
          if (next) cb(failure(next));
          else cb(null, { run: { runId: call.request.runId } });
        },
      });
      const port = await new Promise((resolve, reject) => server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))));
      client = new RunsvcClient(`127.0.0.1:${port}`);
    });

    after(() => {
      client?.close();
      server?.forceShutdown();
    });

    const cases = [
      // name, queued [reason, domain, delayMs|null], deadline offset ms, calls, succeeds, waits
      ['retries until success', [['OVERLOADED', 'runsvc', 20], ['OVERLOADED', 'runsvc', 30]], undefined, 3, true, [20, 30]],
      ['not retryable', [['RUN_NOT_FOUND', 'runsvc', null]], undefined, 1, false, []],
      ['wait past the deadline', [['OVERLOADED', 'runsvc', 3_600_000]], 30_000, 1, false, []],
      ['another domain', [['OVERLOADED', 'other.example', 10]], undefined, 1, false, []],
    ];
    for (const [name, errs, deadlineIn, wantCalls, succeeds, wantWaits] of cases) {
      test(name, async () => {
        queue = [...errs];
        calls = 0;
        const waits = [];
        const result = await withRetry(() => client.call('RunService/GetRun', { runId: 'r' }), {
          deadline: deadlineIn === undefined ? undefined : Date.now() + deadlineIn,
          sleep: async (ms) => { waits.push(ms); },
        }).then((r) => r, (e) => e);
        assert.equal(!(result instanceof Error), succeeds, `result: ${result instanceof Error ? JSON.stringify(classify(result)) : 'ok'}`);
        if (!succeeds) assert.equal(classify(result).reason, errs[0][0]);
        assert.equal(calls, wantCalls);
        assert.deepEqual(waits, wantWaits);
      });
    }

    test('real waits between attempts', async () => {
      queue = [['OVERLOADED', 'runsvc', 10]];
      calls = 0;
      const { json } = await withRetry(() => client.call('RunService/GetRun', { runId: 'w' }));
      assert.equal(json.run.runId, 'w');
      assert.equal(calls, 2);
      assert.equal(Reason.OVERLOADED, 'OVERLOADED');
    });
  });
}

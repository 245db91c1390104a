// The Node worker against a real runsvc, written once for two runs: from
// the source tree (worker.test.js) and from the installed package
// (clients/node/installed/worker.installed.test.js, run by node_install_test.go). It
// mirrors the Python worker's suite: tools called from a Run, tool errors
// as TOOL_FAILED, cancellation, reconnection after the stream drops, and a
// call sent again answered from the worker's cache (issue 20, item 4).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

const WORKER_SPEC = {
  name: 'node-worker',
  model: { provider: 'scripted', script: { turns: [
    { toolCalls: [{ name: 'node_upper', arguments: { text: 'hello' } }] },
    { toolCalls: [{ name: 'node_fail', arguments: {} }] },
    { text: 'done' },
  ] } },
  tools: [{ name: 'node_upper', kind: 'TOOL_KIND_WORKER' }, { name: 'node_fail', kind: 'TOOL_KIND_WORKER' }],
};

const SETTLED = new Set(['RUN_STATE_COMPLETED', 'RUN_STATE_FAILED', 'RUN_STATE_ABORTED', 'RUN_STATE_ABANDONED']);

/** Waits until ListTools shows a worker for each name. */
async function waitForTools(client, names, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  let seen = {};
  while (Date.now() < deadline) {
    const { json } = await client.call('ToolService/ListTools', {});
    seen = Object.fromEntries((json.tools ?? []).map((t) => [t.name, t.workers ?? 0]));
    if (names.every((n) => seen[n] >= 1)) return;
    await sleep(50);
  }
  throw new Error(`workers for ${names} never connected; ListTools shows ${JSON.stringify(seen)}`);
}

/** A TCP proxy on 127.0.0.1 whose connections the test can cut. */
function startProxy(target) {
  const [host, port] = target.split(':');
  const sockets = new Set();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port), host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {});
    }
    client.pipe(upstream).pipe(client);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({
      address: `127.0.0.1:${server.address().port}`,
      cut() { for (const s of sockets) s.destroy(); },
      close() { this.cut(); return new Promise((r) => server.close(r)); },
    }));
  });
}

/**
 * Defines the worker suite.
 * @param {object} lib the package's exports (RunsvcClient, Worker, ToolError, classifyStatus, classify, Reason)
 * @param {() => Promise<{address: string, stop: () => Promise<void>}>} start starts a runsvc server
 */
export function workerSuite(lib, start) {
  const { RunsvcClient, Worker, ToolError, classify, classifyStatus, Reason } = lib;

  describe('node worker', () => {
    let server;
    let client;
    let worker;

    before(async () => {
      server = await start();
      client = new RunsvcClient(server.address);
      worker = new Worker(client, {
        node_upper: (args) => String(args.text).toUpperCase(),
        node_fail: () => { throw new ToolError('boom', { retryable: true }); },
      }, { name: 'node-test-worker' }).start();
      assert.ok(await worker.waitRegistered(10_000), 'the worker never registered');
      await waitForTools(client, ['node_upper', 'node_fail']);
    }, { timeout: 120_000 });

    after(async () => {
      await worker?.stop();
      client?.close();
      await server?.stop();
    });

    test('a Run calls node tools and survives their errors', { timeout: 60_000 }, async () => {
      await client.call('SpecService/PublishSpec', { spec: WORKER_SPEC });
      let { json: { run } } = await client.call('RunService/StartRun', { spec: 'node-worker', input: 'shout' });
      const deadline = Date.now() + 30_000;
      while (!SETTLED.has(run.state)) {
        assert.ok(Date.now() < deadline, `run never settled: ${JSON.stringify(run)}`);
        ({ json: { run } } = await client.call('RunService/WaitRun', { runId: run.runId, wait: '10s' }));
      }
      assert.equal(run.state, 'RUN_STATE_COMPLETED', JSON.stringify(classifyStatus(run.failure)));
      assert.equal(run.answer, 'done');

      const finished = {};
      const stream = client.service('RunService').WatchRun({ runId: run.runId });
      for await (const msg of stream) {
        if (msg.record?.body === 'toolCallFinished') finished[msg.record.toolCallFinished.name] = msg.record.toolCallFinished;
      }
      const upper = finished.node_upper;
      assert.ok(upper, `no ToolCallFinished for node_upper in ${Object.keys(finished)}`);
      assert.equal(upper.error, null, JSON.stringify(classifyStatus(upper.error)));
      assert.equal(upper.output?.stringValue, 'HELLO');
      const fail = classifyStatus(finished.node_fail?.error);
      assert.deepEqual([fail.code, fail.reason, fail.domain, fail.retryable], ['UNAVAILABLE', Reason.TOOL_FAILED, 'runsvc', true]);
      assert.equal(fail.metadata.tool, 'node_fail');
      assert.match(fail.message, /boom/);
    });

    test('InvokeTool reaches the worker', async () => {
      const ok = await client.call('ToolService/InvokeTool', { name: 'node_upper', arguments: { text: 'direct' } });
      assert.equal(ok.json.output, 'DIRECT');
      const bad = await client.call('ToolService/InvokeTool', { name: 'node_fail' });
      const c = classifyStatus(bad.response.error);
      assert.deepEqual([c.code, c.reason, c.retryable], ['UNAVAILABLE', Reason.TOOL_FAILED, true]);
    });

    test('an unknown tool is an RPC error', async () => {
      const err = await client.call('ToolService/InvokeTool', { name: 'node_nobody' }).then(() => null, (e) => e);
      assert.ok(err, 'InvokeTool of an unknown tool succeeded');
      const c = classify(err);
      assert.deepEqual([c.code, c.reason, c.retryable, c.pushback], ['NOT_FOUND', Reason.TOOL_NOT_FOUND, false, '-1']);
    });

    test('a cancel reaches the handler', { timeout: 30_000 }, async () => {
      let started = false;
      let sawCancel;
      const cancelled = new Promise((resolve) => (sawCancel = resolve));
      const w = new Worker(client, {
        node_slow: async (args, call) => {
          started = true;
          await Promise.race([new Promise((r) => call.signal.addEventListener('abort', r)), sleep(10_000, undefined, { ref: false })]);
          if (call.cancelled) sawCancel(true);
          return 'too late';
        },
      }, { name: 'node-cancel' }).start();
      try {
        assert.ok(await w.waitRegistered(10_000));
        await waitForTools(client, ['node_slow']);
        const res = await client.call('ToolService/InvokeTool', { name: 'node_slow', timeout: '0.3s' }).catch((e) => e);
        assert.ok(res instanceof Error || res.response.error, 'a call past its timeout succeeded');
        assert.ok(started, 'the worker never got the call');
        assert.equal(await Promise.race([cancelled, sleep(10_000, undefined, { ref: false }).then(() => false)]), true, 'the handler never saw the cancel');
      } finally {
        await w.stop();
      }
    });

    test('the worker reconnects after the stream drops', { timeout: 60_000 }, async () => {
      const proxy = await startProxy(server.address);
      const via = new RunsvcClient(proxy.address);
      const w = new Worker(via, { node_echo: (args) => args }, { name: 'node-reconnect', minBackoffMs: 100, maxBackoffMs: 500 }).start();
      try {
        assert.ok(await w.waitRegistered(10_000));
        await waitForTools(client, ['node_echo']);
        assert.deepEqual((await client.call('ToolService/InvokeTool', { name: 'node_echo', arguments: { n: 1 } })).json.output, { n: 1 });
        proxy.cut();
        const deadline = Date.now() + 20_000;
        while (w.connections < 2) {
          assert.ok(Date.now() < deadline, 'the worker never reconnected');
          await sleep(50);
        }
        await waitForTools(client, ['node_echo']);
        assert.deepEqual((await client.call('ToolService/InvokeTool', { name: 'node_echo', arguments: { n: 2 } })).json.output, { n: 2 });
      } finally {
        await w.stop();
        via.close();
        await proxy.close();
      }
    });

    // runsvc loses the stream while the call runs and sends the call again,
    // with the same callId, once the worker is back: with the cache the
    // handler runs once and its result answers the call; without, it runs again.
    for (const [cacheSize, wantRuns] of [[4096, 1], [0, 2]]) {
      test(`a call sent again runs ${wantRuns === 1 ? 'once with' : 'again without'} the result cache`, { timeout: 60_000 }, async () => {
        const name = `node_once_${cacheSize}`;
        const proxy = await startProxy(server.address);
        const via = new RunsvcClient(proxy.address);
        const ran = [];
        let release;
        const released = new Promise((r) => (release = r));
        const w = new Worker(via, {
          [name]: async (args, call) => {
            ran.push(call.callId);
            const n = ran.length;
            if (n === 1) await Promise.race([released, sleep(30_000, undefined, { ref: false })]);
            return `run ${n}`;
          },
        }, { name, minBackoffMs: 100, maxBackoffMs: 500, resultCacheSize: cacheSize }).start();
        try {
          assert.ok(await w.waitRegistered(10_000));
          await waitForTools(client, [name]);
          await client.call('SpecService/PublishSpec', { spec: {
            name, tools: [{ name, kind: 'TOOL_KIND_WORKER' }], limits: { transientRetryBudget: 100 },
            model: { provider: 'scripted', script: { turns: [{ toolCalls: [{ name, arguments: {} }] }, { text: 'done' }] } },
          } });
          let { json: { run } } = await client.call('RunService/StartRun', { spec: name, input: 'go' });
          const deadline = Date.now() + 30_000;
          while (ran.length === 0) {
            assert.ok(Date.now() < deadline, 'the call never reached the worker');
            await sleep(20);
          }
          proxy.cut();
          while (w.received < 2) {
            assert.ok(Date.now() < deadline, 'the call was never sent again');
            await sleep(20);
          }
          release();
          while (!SETTLED.has(run.state)) {
            assert.ok(Date.now() < deadline + 30_000, `run never settled: ${JSON.stringify(run)}`);
            ({ json: { run } } = await client.call('RunService/WaitRun', { runId: run.runId, wait: '10s' }));
          }
          assert.equal(run.state, 'RUN_STATE_COMPLETED', JSON.stringify(classifyStatus(run.failure)));
          const outputs = [];
          for await (const msg of client.service('RunService').WatchRun({ runId: run.runId })) {
            if (msg.record?.body === 'toolCallFinished') outputs.push(msg.record.toolCallFinished.output?.stringValue);
          }
          assert.deepEqual(outputs, [`run ${wantRuns}`]);
          assert.deepEqual([ran.length, w.runs, new Set(ran).size], [wantRuns, wantRuns, 1], `the handler ran for ${ran}`);
        } finally {
          release();
          await w.stop();
          via.close();
          await proxy.close();
        }
      });
    }
  });
}

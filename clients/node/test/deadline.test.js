// A long wait that outlasts the caller's deadline must end with an answer
// (OK) or DEADLINE_EXCEEDED, never CANCELLED: 200 grpc-js WaitRun calls
// with a 0.5 s deadline, on a Run that does not settle, while the event
// loop is kept busy.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import grpc from '@grpc/grpc-js';
import { RunsvcClient } from '../src/client.js';
import { startServer } from '../src/testing/server.js';

const CALLS = 200;
const DEADLINE_MS = 500;

let server;
let client;
let hurried;

before(async () => {
  server = await startServer();
  client = new RunsvcClient(server.address);
  hurried = new RunsvcClient(server.address, { callTimeoutMs: DEADLINE_MS });
}, { timeout: 180_000 });

after(async () => {
  client?.close();
  hurried?.close();
  await server?.stop();
});

// busy blocks the event loop for ms, as a loaded client process would.
function busy(ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // spin
  }
}

test(`${CALLS} WaitRun calls with a ${DEADLINE_MS} ms deadline end OK or DEADLINE_EXCEEDED, never CANCELLED`, { timeout: 120_000 }, async () => {
  const name = `deadline-${process.pid}`;
  await client.call('SpecService/PublishSpec', {
    spec: { name, model: { provider: 'scripted', script: { turns: [{ text: 'late', delay: '600s' }] } } },
  });
  const { json } = await client.call('RunService/StartRun', { spec: name, input: 'wait for me' });
  const runId = json.run.runId;
  const load = setInterval(() => busy(15), 20);
  const counts = {};
  try {
    const outcomes = await Promise.all(
      Array.from({ length: CALLS }, async (_, i) => {
        await new Promise((r) => setTimeout(r, i % 50));
        try {
          await hurried.call('RunService/WaitRun', { runId, wait: '300s' });
          return 'OK';
        } catch (err) {
          return Object.keys(grpc.status).find((k) => grpc.status[k] === err.code) ?? `code ${err.code}`;
        }
      }),
    );
    for (const o of outcomes) counts[o] = (counts[o] ?? 0) + 1;
  } finally {
    clearInterval(load);
  }
  console.log(`WaitRun outcomes: ${JSON.stringify(counts)}`);
  assert.equal((counts.OK ?? 0) + (counts.DEADLINE_EXCEEDED ?? 0), CALLS, `outcomes ${JSON.stringify(counts)}`);
  assert.equal(counts.CANCELLED ?? 0, 0);
});

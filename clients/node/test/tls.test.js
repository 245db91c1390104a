// A Run end to end over TLS with an API key, and the failures of a wrong
// CA and a missing token. Run by clients/node/tls_test.go, which starts a
// runsvc with its own CA, certificates and keys file and passes them in
// RUNSVC_TLS_TARGET, RUNSVC_TLS_CA, RUNSVC_TLS_WRONG_CA and
// RUNSVC_TLS_TOKEN; skipped otherwise.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RunsvcClient, tlsCredentials, classify } from '../src/index.js';

const env = ['RUNSVC_TLS_TARGET', 'RUNSVC_TLS_CA', 'RUNSVC_TLS_WRONG_CA', 'RUNSVC_TLS_TOKEN'];
const skip = env.every((k) => process.env[k]) ? false : 'skipped: needs the TLS server of clients/node/tls_test.go';
const target = process.env.RUNSVC_TLS_TARGET;

const hello = {
  name: 'hello-tls',
  model: { provider: 'scripted', script: { turns: [
    { text: 'Let me look.', toolCalls: [{ name: 'lookup', arguments: { q: 'weather' } }] },
    { text: 'It is sunny.' },
  ] } },
  tools: [{ name: 'lookup', kind: 'TOOL_KIND_CLIENT', description: 'Look things up' }],
};

test('a Run end to end over TLS with a token', { skip }, async () => {
  const c = new RunsvcClient(target, { credentials: tlsCredentials({ ca: process.env.RUNSVC_TLS_CA, token: process.env.RUNSVC_TLS_TOKEN }) });
  try {
    await c.call('SpecService/PublishSpec', { spec: hello });
    const { json: started } = await c.call('RunService/StartRun', { spec: 'hello-tls', input: 'weather?' });
    const runId = started.run.runId;
    const { json: suspended } = await c.call('RunService/WaitRun', { runId, wait: '10s' });
    assert.equal(suspended.run.state, 'RUN_STATE_SUSPENDED');
    await c.call('RunService/ResumeRun', { runId, toolResults: [{ callId: 'call_1_1', output: 'sunny' }] });
    let state = '';
    for (let i = 0; i < 20 && !['RUN_STATE_COMPLETED', 'RUN_STATE_FAILED', 'RUN_STATE_ABORTED'].includes(state); i++) {
      state = (await c.call('RunService/WaitRun', { runId, wait: '10s' })).json.run.state;
    }
    assert.equal(state, 'RUN_STATE_COMPLETED');
  } finally {
    c.close();
  }
});

test('a wrong CA fails the handshake', { skip }, async () => {
  const c = new RunsvcClient(target, { credentials: tlsCredentials({ ca: process.env.RUNSVC_TLS_WRONG_CA, token: process.env.RUNSVC_TLS_TOKEN }), callTimeoutMs: 10_000 });
  try {
    await assert.rejects(c.call('RunService/ListRuns', {}), (err) => {
      console.log('wrong CA:', err.details);
      return err.code === 14 && /certificate|ssl|handshake|self.signed|verify/i.test(err.details);
    });
  } finally {
    c.close();
  }
});

test('no token is UNAUTHENTICATED', { skip }, async () => {
  const c = new RunsvcClient(target, { credentials: tlsCredentials({ ca: process.env.RUNSVC_TLS_CA, token: '' }) });
  try {
    await assert.rejects(c.call('RunService/ListRuns', {}), (err) => classify(err).reason === 'UNAUTHENTICATED');
  } finally {
    c.close();
  }
});

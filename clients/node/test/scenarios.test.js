// Runs testdata/scenarios.json against a real runsvc server: every reason
// the server returns, provoked through this client, must carry the code,
// reason, domain, metadata keys, retryability and pushback trailer the file
// says. The client has grpc-js's default options. With
// RUNSVC_TARGET=host:port the scenarios run against that server (node_test.go
// puts nginx and HAProxy in front of one) instead of one started here.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { RunsvcClient } from '../src/client.js';
import { Runner, loadScenarios, problems } from '../src/scenario.js';
import { REPO_ROOT, startServer } from '../src/testing/server.js';

const file = loadScenarios(path.join(REPO_ROOT, 'testdata', 'scenarios.json'));

const suite = `node-${process.pid}-${Date.now().toString(36)}`;

describe('scenarios', { concurrency: true }, () => {
  let server;
  let client;
  let runner;

  before(async () => {
    const target = process.env.RUNSVC_TARGET;
    if (!target) server = await startServer();
    client = new RunsvcClient(target || server.address);
    runner = new Runner(client, suite);
    await runner.setup(file);
  }, { timeout: 180_000 });

  after(async () => {
    client?.close();
    await server?.stop();
  });

  for (const s of file.scenarios) {
    test(`${s.reason}: ${s.name}`, { timeout: 60_000 }, async () => {
      const found = problems(s, await runner.run(s));
      assert.deepEqual(found, [], `${s.reason}: ${found.join('; ')}`);
    });
  }
});

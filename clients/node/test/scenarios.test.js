// Runs testdata/scenarios.json against a real runsvc server: every reason
// the server returns, provoked through this client, must carry the code,
// reason, domain, metadata keys, retryability and pushback trailer the file
// says. The client has grpc-js's default options. With
// RUNSVC_TARGET=host:port the scenarios run against that server (node_test.go
// puts nginx and HAProxy in front of one) instead of one started here. A
// scenario that names a server setting runs on the server
// RUNSVC_SCENARIO_SERVERS gives for it (the Go tests that run this suite
// start one per setting); without that variable such scenarios are skipped,
// or fail under RUNSVC_REQUIRE_ALL=1.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { RunsvcClient } from '../src/client.js';
import { Runner, SERVERS_ENV, loadScenarios, problems, serversFromEnv } from '../src/scenario.js';
import { REPO_ROOT, startServer } from '../src/testing/server.js';

const file = loadScenarios(path.join(REPO_ROOT, 'testdata', 'scenarios.json'));

const suite = `node-${process.pid}-${Date.now().toString(36)}`;
const servers = serversFromEnv();
const requireAll = process.env.RUNSVC_REQUIRE_ALL === '1';

describe('scenarios', { concurrency: true }, () => {
  let server;
  let client;
  const runners = {};
  const clients = [];

  before(async () => {
    const target = process.env.RUNSVC_TARGET;
    if (!target) server = await startServer();
    client = new RunsvcClient(target || server.address);
    runners[''] = new Runner(client, suite);
    await runners[''].setup(file);
    for (const [name, started] of Object.entries(servers ?? {})) {
      const c = new RunsvcClient(started.addr);
      clients.push(c);
      runners[name] = new Runner(c, suite, started.vars ?? {});
    }
  }, { timeout: 180_000 });

  after(async () => {
    client?.close();
    for (const c of clients) c.close();
    await server?.stop();
  });

  test('every server setting has a server', (t) => {
    if (!servers) {
      assert.ok(!requireAll, `RUNSVC_REQUIRE_ALL=1 but ${SERVERS_ENV} is not set`);
      t.skip(`skipped: ${SERVERS_ENV} not set (run through go test ./clients/node)`);
      return;
    }
    assert.deepEqual(Object.keys(servers).sort(), Object.keys(file.servers ?? {}).sort());
  });

  for (const s of file.scenarios) {
    test(`${s.reason}: ${s.name}`, { timeout: 60_000 }, async (t) => {
      const runner = runners[s.server ?? ''];
      if (!runner) {
        const msg = `server setting ${JSON.stringify(s.server)} has no server: ${SERVERS_ENV} does not name it`;
        assert.ok(!requireAll && !servers, msg);
        t.skip(`skipped: ${msg} (run through go test ./clients/node)`);
        return;
      }
      const found = problems(s, await runner.run(s));
      assert.deepEqual(found, [], `${s.reason}: ${found.join('; ')}`);
    });
  }
});

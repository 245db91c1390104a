// Kept outside test/ so that `npm test` in the source tree does not run it.
// testdata/scenarios.json through the INSTALLED package (node_install_test.go
// runs this in an empty directory after `npm install runsvc-client-*.tgz`):
// every import is the package's name, never a path into the repository.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RunsvcClient, DEFAULT_PROTO_DIR } from '@runsvc/client';
import { Runner, SERVERS_ENV, loadScenarios, problems, serversFromEnv } from '@runsvc/client/scenario';
import { startServer } from '@runsvc/client/testing';

const repo = process.env.RUNSVC_REPO_ROOT;
const here = path.dirname(fileURLToPath(import.meta.url));

test('the package is the installed one, with its own protos', () => {
  const installed = path.join(here, 'node_modules', '@runsvc', 'client');
  assert.ok(fileURLToPath(import.meta.resolve('@runsvc/client')).startsWith(installed), import.meta.resolve('@runsvc/client'));
  assert.equal(DEFAULT_PROTO_DIR, path.join(installed, 'proto'));
});

const file = loadScenarios(path.join(repo, 'testdata', 'scenarios.json'));
const suite = `node-installed-${process.pid}-${Date.now().toString(36)}`;
// node_install_test.go starts a server per server setting and names them here.
const servers = serversFromEnv();

test('every server setting has a server', () => {
  assert.ok(servers, `${SERVERS_ENV} is not set`);
  assert.deepEqual(Object.keys(servers).sort(), Object.keys(file.servers ?? {}).sort());
});

describe('scenarios (installed package)', { concurrency: true }, () => {
  let server;
  let client;
  const runners = {};
  const clients = [];

  before(async () => {
    server = await startServer({ policyFile: path.join(repo, 'testdata', 'policy.json') });
    client = new RunsvcClient(server.address);
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

  for (const s of file.scenarios) {
    test(`${s.reason}: ${s.name}`, { timeout: 60_000 }, async () => {
      const runner = runners[s.server ?? ''];
      assert.ok(runner, `server setting ${JSON.stringify(s.server)} has no server in ${SERVERS_ENV}`);
      const found = problems(s, await runner.run(s));
      assert.deepEqual(found, [], `${s.reason}: ${found.join('; ')}`);
    });
  }
});

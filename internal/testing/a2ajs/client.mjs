// client.mjs drives runsvc's A2A agents with @a2a-js/sdk's client (A2A
// 1.0). Argument: a JSON object {base, key, binding ("JSONRPC" or
// "HTTP+JSON"), op, ...}. It prints one JSON object: for op "suite" the
// checks it made ({name, ok, detail}), for "start" the task, for
// "resubscribe" the events and the final state.
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client';
import { Role, TaskState } from '@a2a-js/sdk';

const cfg = JSON.parse(process.argv[2]);

// authed is fetch with the runsvc API key as a bearer token.
const authed = (url, init = {}) => {
  const headers = new Headers(init.headers || {});
  if (cfg.key) headers.set('Authorization', 'Bearer ' + cfg.key);
  return fetch(url, { ...init, headers });
};

async function clientFor(agent) {
  const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    cardResolver: new DefaultAgentCardResolver({ fetchImpl: authed }),
    transports: [new JsonRpcTransportFactory({ fetchImpl: authed }), new RestTransportFactory({ fetchImpl: authed })],
    preferredTransports: [cfg.binding],
  });
  return new ClientFactory(options).createFromUrl(cfg.base + '/a2a/' + agent + '/');
}

let seq = 0;
const message = (text, extra = {}) => ({
  messageId: `m-${process.pid}-${Date.now()}-${seq++}`,
  role: Role.ROLE_USER,
  parts: [{ content: { $case: 'text', value: text } }],
  ...extra,
});

const stateName = (s) => Object.keys(TaskState).find((k) => TaskState[k] === s) || String(s);
const textOf = (parts) => (parts || []).map((p) => (p.content?.$case === 'text' ? p.content.value : JSON.stringify(p.content?.value))).join('');

const checks = [];
function check(name, ok, detail) {
  checks.push({ name, ok: !!ok, detail: typeof detail === 'string' ? detail : JSON.stringify(detail) });
}

async function expectError(name, fn, reason, status) {
  try {
    await fn();
    check(name, false, 'no error');
  } catch (e) {
    const data = Array.isArray(e.data) ? e.data : [];
    const info = data.find((d) => d['@type'] === 'type.googleapis.com/google.rpc.ErrorInfo');
    let ok = e.reason === reason;
    if (cfg.binding === 'JSONRPC') ok = ok && info && info.domain === 'a2a-protocol.org' && info.reason === reason;
    if (cfg.binding === 'HTTP+JSON' && status) ok = ok && e.statusCode === status;
    check(name, ok, { name: e.name, reason: e.reason, message: e.message, statusCode: e.statusCode, code: e.envelopeCode, data: e.data });
  }
}

async function collect(iterable) {
  const events = [];
  for await (const ev of iterable) events.push(ev.payload);
  return events;
}

function summary(events) {
  let text = '';
  let answer = '';
  let last = '';
  for (const p of events) {
    if (p.$case === 'artifactUpdate' && p.value.artifact?.artifactId === 'text') text += textOf(p.value.artifact.parts);
    if (p.$case === 'artifactUpdate' && p.value.artifact?.artifactId === 'answer') answer = textOf(p.value.artifact.parts);
    if (p.$case === 'statusUpdate') last = stateName(p.value.status?.state);
    if (p.$case === 'task') last = stateName(p.value.status?.state);
  }
  return { kinds: events.map((p) => p.$case), text, answer, last };
}

async function suite() {
  const echo = await clientFor('echo');
  const card = await echo.getAgentCard();
  check('card', card.name === 'echo' && card.description === 'says hello' && card.capabilities?.streaming && card.supportedInterfaces.length === 2, card);

  const done = await echo.sendMessage({ message: message('hi') });
  check('send', stateName(done.status?.state) === 'TASK_STATE_COMPLETED' && textOf(done.artifacts?.[0]?.parts) === 'Hello there, friend.', done);
  const got = await echo.getTask({ id: done.id });
  check('get', got.id === done.id && got.contextId === done.contextId && stateName(got.status?.state) === 'TASK_STATE_COMPLETED', got);
  const listed = await echo.listTasks({ contextId: done.contextId });
  check('list', listed.tasks.length === 1 && listed.tasks[0].id === done.id, listed);

  const slow = await clientFor('slow');
  const s = summary(await collect(slow.sendMessageStream({ message: message('tell me') })));
  check('stream', s.kinds[0] === 'task' && s.text === 'One two three four five.' && s.answer === s.text && s.last === 'TASK_STATE_COMPLETED' && s.kinds.filter((k) => k === 'artifactUpdate').length > 2, s);

  const asker = await clientFor('asker');
  const asked = await asker.sendMessage({ message: message('book it') });
  const q = textOf(asked.status?.message?.parts);
  check('input-required', stateName(asked.status?.state) === 'TASK_STATE_INPUT_REQUIRED' && q === 'Which day?', asked);
  const answered = await asker.sendMessage({ message: message('Tuesday', { taskId: asked.id, contextId: asked.contextId }) });
  check('answered', answered.id === asked.id && stateName(answered.status?.state) === 'TASK_STATE_COMPLETED' && textOf(answered.artifacts?.[0]?.parts) === 'Booked.', answered);

  const sleeper = await clientFor('sleeper');
  const started = await sleeper.sendMessage({ message: message('wait'), configuration: { returnImmediately: true, acceptedOutputModes: [] } });
  const canceled = await sleeper.cancelTask({ id: started.id });
  check('cancel', canceled.id === started.id && stateName(canceled.status?.state) === 'TASK_STATE_CANCELED', canceled);
  await expectError('cancel-ended', () => sleeper.cancelTask({ id: started.id }), 'TASK_NOT_CANCELABLE', 400);

  await expectError('get-unknown', () => echo.getTask({ id: 'run_nope' }), 'TASK_NOT_FOUND', 404);
  await expectError('cancel-unknown', () => echo.cancelTask({ id: 'run_nope' }), 'TASK_NOT_FOUND', 404);
  await expectError('subscribe-unknown', () => collect(echo.resubscribeTask({ id: 'run_nope' })), 'TASK_NOT_FOUND', 404);
  await expectError('other-agent-task', () => echo.getTask({ id: asked.id }), 'TASK_NOT_FOUND', 404);
  await expectError('subscribe-ended', () => collect(echo.resubscribeTask({ id: done.id })), 'UNSUPPORTED_OPERATION', 400);
  await expectError('message-ended', () => echo.sendMessage({ message: message('more', { taskId: done.id }) }), 'UNSUPPORTED_OPERATION', 400);
  return { checks };
}

// push sets push configs on a task of agent that is still working, reads
// them back (get, list), deletes one, and waits for the task to end; the
// Go test's receiver checks the final state arrived.
async function push() {
  const c = await clientFor(cfg.agent);
  const card = await c.getAgentCard();
  check('push-card', card.capabilities?.pushNotifications === true, card.capabilities);
  const t = await c.sendMessage({ message: message('go'), configuration: { returnImmediately: true, acceptedOutputModes: [] } });
  const set = await c.createTaskPushNotificationConfig({ taskId: t.id, id: 'final', url: cfg.url, token: cfg.token });
  check('push-set', set.id === 'final' && set.taskId === t.id && set.url === cfg.url && set.token === cfg.token, set);
  await c.createTaskPushNotificationConfig({ taskId: t.id, id: 'spare', url: cfg.url + '/spare', authentication: { scheme: 'Bearer', credentials: 'spare-secret' } });
  const got = await c.getTaskPushNotificationConfig({ taskId: t.id, id: 'final' });
  check('push-get', got.id === 'final' && got.url === cfg.url && got.token === cfg.token, got);
  const listed = await c.listTaskPushNotificationConfig({ taskId: t.id });
  check('push-list', listed.configs.length === 2 && listed.configs.map((x) => x.id).sort().join(',') === 'final,spare', listed);
  await c.deleteTaskPushNotificationConfig({ taskId: t.id, id: 'spare' });
  const after = await c.listTaskPushNotificationConfig({ taskId: t.id });
  check('push-delete', after.configs.length === 1 && after.configs[0].id === 'final', after);
  await expectError('push-get-unknown-task', () => c.getTaskPushNotificationConfig({ taskId: 'run_nope', id: 'final' }), 'TASK_NOT_FOUND', 404);
  let state = '';
  for (let i = 0; i < 300 && !['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED'].includes(state); i++) {
    await new Promise((r) => setTimeout(r, 100));
    state = stateName((await c.getTask({ id: t.id })).status?.state);
  }
  check('push-task-ended', state === 'TASK_STATE_COMPLETED', state);
  await c.createTaskPushNotificationConfig({ taskId: t.id, id: 'late', url: cfg.url + '/late', token: cfg.token });
  const inline = await c.sendMessage({ message: message('go'), configuration: { acceptedOutputModes: [], taskPushNotificationConfig: { url: cfg.url + '/inline', token: cfg.token } } });
  check('push-inline', stateName(inline.status?.state) === 'TASK_STATE_COMPLETED', inline);
  return { checks, id: t.id, inlineId: inline.id };
}

async function main() {
  switch (cfg.op) {
    case 'suite':
      return suite();
    case 'push':
      return push();
    case 'start': {
      const c = await clientFor(cfg.agent);
      const t = await c.sendMessage({ message: message(cfg.text || 'go'), configuration: { returnImmediately: true, acceptedOutputModes: [] } });
      return { id: t.id, contextId: t.contextId, state: stateName(t.status?.state) };
    }
    case 'resubscribe': {
      const c = await clientFor(cfg.agent);
      return summary(await collect(c.resubscribeTask({ id: cfg.id })));
    }
    case 'get': {
      const c = await clientFor(cfg.agent);
      const t = await c.getTask({ id: cfg.id });
      return { id: t.id, state: stateName(t.status?.state), answer: textOf(t.artifacts?.[0]?.parts) };
    }
  }
  throw new Error('unknown op ' + cfg.op);
}

main().then(
  (out) => process.stdout.write(JSON.stringify(out) + '\n'),
  (e) => {
    process.stderr.write(`${e.name}: ${e.message}\n${e.stack}\n`);
    process.exit(1);
  },
);

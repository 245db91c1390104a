// The Node runner of testdata/scenarios.json, mirroring internal/testing/scenario:
// for every reason a runsvc server returns, the calls that provoke it and
// what the status must carry.

import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { classify, classifyStatus, statusFromError } from './classify.js';

/** The domain every runsvc ErrorInfo carries by default. */
export const DEFAULT_DOMAIN = 'runsvc';

/** How long an `until` step repeats its call. */
const UNTIL_TIMEOUT_MS = 30_000;

/**
 * @typedef {object} Scenario
 * @property {string} name
 * @property {string} reason
 * @property {string} code
 * @property {boolean} retryable
 * @property {string[]} metadataKeys
 * @property {Record<string,string>} [metadata] values some keys must have
 * @property {string} [message] the exact message, where the scenario fixes it
 * @property {string} [server] the server setting it runs on; none is the default server
 * @property {string} [apiKey] sent as "authorization: Bearer <key>" on every call
 * @property {object[]} steps {call, request, save, until, sleep, check, hold}
 */

/** The environment variable naming the servers of the file's server settings. */
export const SERVERS_ENV = 'RUNSVC_SCENARIO_SERVERS';

/**
 * The servers a Go test started for the file's server settings, from
 * RUNSVC_SCENARIO_SERVERS: {name: {addr: "127.0.0.1:port", vars: {...}}};
 * null when the variable is not set.
 * @returns {Record<string, {addr: string, vars?: Record<string,string>}>|null}
 */
export function serversFromEnv() {
  const raw = process.env[SERVERS_ENV];
  return raw ? JSON.parse(raw) : null;
}

/**
 * @typedef {object} Outcome
 * @property {import('./classify.js').Classification} classification
 * @property {object} status the google.rpc.Status: decoded from the trailer
 *   for an RPC error, as proto-loader gave it for a response's field
 * @property {string|null} pushback the grpc-retry-pushback-ms trailer (RPC errors)
 * @property {boolean} rpc true when the status was a call's error
 * @property {string} [method] the call that produced it
 * @property {object} [request] its request (protojson)
 * @property {string} [wireMessage] an RPC error's message as grpc-js read it from grpc-message
 */

/**
 * Reads a scenarios file.
 * @param {string} path
 * @returns {{about: string, specs: object[], scenarios: Scenario[], servers?: Record<string, object>}}
 */
export function loadScenarios(path) {
  return JSON.parse(fs.readFileSync(path, 'utf8'));
}

/**
 * Fills ${name} from vars and ${repeat:C:N} with C repeated N times; a JSON
 * string that is exactly "${list:C:N}" becomes a JSON array of N strings
 * "C"; an unknown name is left as it is.
 * @param {string} s
 * @param {Record<string,string>} vars
 * @returns {string}
 */
export function substitute(s, vars) {
  s = s.replace(/"\$\{list:([^}:]*):([0-9]+)\}"/g, (m, item, n) => `[${Array(Number(n)).fill(`"${item}"`).join(',')}]`);
  return s.replace(/\$\{([^}]+)\}/g, (m, name) => {
    if (name.startsWith('repeat:')) {
      const rest = name.slice('repeat:'.length);
      const i = rest.indexOf(':');
      const count = i >= 0 ? Number(rest.slice(i + 1)) : NaN;
      if (Number.isInteger(count) && count >= 0) return rest.slice(0, i).repeat(count);
    }
    return Object.hasOwn(vars, name) ? vars[name] : m;
  });
}

/**
 * The value at a dotted path ("run.failure") of a response.
 * @param {*} v
 * @param {string} path
 * @returns {*} undefined when a step of the path is missing
 */
export function lookup(v, path) {
  for (const part of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = v[part];
  }
  return v;
}

/** A value as Go's fmt.Sprint writes it, for `until` comparisons. */
function sprint(v) {
  if (v === undefined || v === null) return '<nil>';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** "1.2s", "300ms", "2m" as milliseconds (Go's time.ParseDuration units). */
function parseSleep(s) {
  const units = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  let rest = String(s);
  if (rest === '0') return 0;
  while (rest) {
    const m = /^(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/.exec(rest);
    if (!m) throw new Error(`sleep ${JSON.stringify(s)} is not a duration like "1.2s"`);
    total += Number(m[1]) * units[m[2]];
    rest = rest.slice(m[0].length);
  }
  return total;
}

/** Runs scenarios over one RunsvcClient. */
export class Runner {
  /**
   * @param {import('./client.js').RunsvcClient} client
   * @param {string} suite unique per suite run, for ${suite}
   * @param {Record<string,string>} [vars] the server's variables, for ${name}
   */
  constructor(client, suite, vars = {}) {
    this.client = client;
    this.suite = suite;
    this.vars = vars;
  }

  /**
   * Publishes the file's Specs.
   * @param {{specs: object[]}} file
   * @returns {Promise<void>}
   */
  async setup(file) {
    for (const spec of file.specs) {
      try {
        await this.client.call('SpecService/PublishSpec', { spec });
      } catch (err) {
        throw new Error(`publishing ${spec.name}: ${err.message}`, { cause: err });
      }
    }
  }

  /**
   * Runs a scenario's steps and returns the status its check names; the
   * streams its steps hold are cancelled when it ends.
   * @param {Scenario} s
   * @returns {Promise<Outcome>}
   */
  async run(s) {
    const held = [];
    try {
      return await this.#run(s, held);
    } finally {
      for (const stream of held) stream.cancel();
    }
  }

  async #run(s, held) {
    const vars = { ...this.vars, suite: this.suite };
    const opts = s.apiKey ? { metadata: { authorization: `Bearer ${s.apiKey}` } } : {};
    let last = null; // {response, json}
    for (const [i, step] of s.steps.entries()) {
      if (step.sleep) {
        await sleep(parseSleep(step.sleep));
        continue;
      }
      if (!step.call) return statusAt(last, step.check);
      const request = JSON.parse(substitute(JSON.stringify(step.request ?? {}), vars));
      if (step.hold) {
        try {
          held.push(await this.client.hold(step.call, request, opts));
        } catch (err) {
          throw new Error(`step ${i} (holding ${step.call}): ${err.message}`, { cause: err });
        }
        continue;
      }
      const deadline = Date.now() + UNTIL_TIMEOUT_MS;
      for (;;) {
        let result;
        try {
          result = await this.client.call(step.call, request, opts);
        } catch (err) {
          if (step.check === 'error') {
            if (err?.code === undefined) throw err;
            const classification = classify(err);
            return { classification, status: statusFromError(err), pushback: classification.pushback, rpc: true, method: step.call, request, wireMessage: err.details ?? '' };
          }
          throw new Error(`step ${i} (${step.call} ${JSON.stringify(request).slice(0, 200)}): ${err.message}`, { cause: err });
        }
        if (step.check === 'error') {
          throw new Error(`step ${i} (${step.call}) succeeded; the scenario expects an error`);
        }
        last = result;
        if (matches(result.json, step.until)) break;
        if (Date.now() > deadline) {
          throw new Error(`step ${i} (${step.call}): ${JSON.stringify(step.until)} never held; last response ${JSON.stringify(result.json)}`);
        }
        await sleep(50);
      }
      for (const [name, path] of Object.entries(step.save ?? {})) {
        const v = lookup(last.json, path);
        if (typeof v !== 'string') throw new Error(`step ${i}: no string at ${path} in ${JSON.stringify(last.json)}`);
        vars[name] = v;
      }
      if (step.check) return statusAt(last, step.check);
    }
    throw new Error('the scenario has no check step');
  }
}

function matches(json, until) {
  return Object.entries(until ?? {}).every(([path, want]) => sprint(lookup(json, path)) === String(want));
}

/**
 * The google.rpc.Status at a dotted path of the last response, taken as
 * proto-loader decoded it (details as Any with Buffer values).
 */
function statusAt(last, path) {
  if (!path) throw new Error('a step without a call must be a check');
  const status = lookup(last?.response, path);
  if (status === undefined || status === null) {
    throw new Error(`no status at ${path} in ${JSON.stringify(last?.json)}`);
  }
  return { classification: classifyStatus(status), status, pushback: null, rpc: false };
}

/**
 * Compares an outcome with what the scenario expects and lists every
 * difference: code, reason, domain, the exact metadata key set,
 * retryability and, for an RPC error, the pushback trailer (the RetryInfo
 * delay in ms, or -1 when not retryable).
 * @param {Scenario} s
 * @param {Outcome} o
 * @returns {string[]} empty when the outcome is as expected
 */
export function problems(s, o) {
  const c = o?.classification;
  if (!c) return ['no status'];
  const out = [];
  if (c.code !== s.code) out.push(`code ${c.code}, want ${s.code}`);
  if (c.reason !== s.reason) out.push(`reason ${JSON.stringify(c.reason)}, want ${JSON.stringify(s.reason)}`);
  if (c.domain !== DEFAULT_DOMAIN) out.push(`domain ${JSON.stringify(c.domain)}, want ${JSON.stringify(DEFAULT_DOMAIN)}`);
  const keys = Object.keys(c.metadata).sort();
  const want = [...s.metadataKeys].sort();
  if (keys.join(',') !== want.join(',')) out.push(`metadata keys [${keys.join(' ')}], want [${want.join(' ')}]`);
  for (const [k, v] of Object.entries(s.metadata ?? {}).sort()) {
    if (c.metadata[k] !== v) out.push(`metadata ${k}=${JSON.stringify(c.metadata[k])}, want ${JSON.stringify(v)}`);
  }
  if (c.retryable !== s.retryable) out.push(`retryable ${c.retryable}, want ${s.retryable}`);
  if (s.message && c.message !== s.message) out.push(`message ${JSON.stringify(c.message)}, want ${JSON.stringify(s.message)}`);
  if (s.message && o.rpc && o.wireMessage !== s.message) {
    out.push(`grpc-message as grpc-js read it ${JSON.stringify(o.wireMessage)}, want ${JSON.stringify(s.message)}`);
  }
  if (o.rpc) {
    const wantPushback = c.retryable ? String(c.retryDelayMs) : '-1';
    if (o.pushback !== wantPushback) out.push(`pushback trailer ${JSON.stringify(o.pushback)}, want ${JSON.stringify(wantPushback)}`);
  }
  return out;
}

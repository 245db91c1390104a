// A runsvc tool worker: serves worker tools over ToolService.ServeTools,
// with the same behaviour as the Python worker (runsvc_client.worker).
//
//   import { RunsvcClient, Worker, ToolError } from '@runsvc/client';
//   const w = new Worker(new RunsvcClient('127.0.0.1:50051'), {
//     upper: (args) => args.text.toUpperCase(),
//     flaky: () => { throw new ToolError('boom', { retryable: true }); },
//   });
//   w.start(); await w.waitRegistered(); ... await w.stop();
//
// The worker sends `register` with its tools, runs every `call` it gets (at
// most maxConcurrency at once) and answers it with a `result`: the
// handler's value as a google.protobuf.Value, or `error {message,
// retryable}` when it throws (a ToolError says whether retrying may help;
// any other exception is not retryable). A `cancel` aborts the call's
// signal and drops its result. When the stream drops, the worker
// reconnects with backoff until stopped; runsvc gives the calls of a
// vanished worker to another one, with the same callId.
//
// A call can come again with a callId the worker has seen: runsvc died, or
// lost the stream, after the call reached the worker, and the Run's next
// Attempt (on this runsvc or another replica) makes it again. The callId is
// the call's idempotency key (the one an http tool gets as
// Idempotency-Key). The worker remembers the results of the last
// resultCacheSize calls by callId (4096 by default; 0 turns it off) and
// answers such a call from there without running the handler again; a
// call still running when it comes again is answered when its one run
// ends (so a dropped stream does not abort the calls running on it). A
// retryable ToolError and a cancelled call's result are not remembered:
// that call runs again. The cache lives in this process: a call given to
// another worker process, or sent after this one restarted, runs again
// there, so a handler whose side effect must happen once still
// deduplicates by call.callId in its own store.

import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { fromProtoJSON, toProtoJSON } from './protojson.js';

/** A tool's failure as the model sees it: retryable says whether trying again may succeed. */
export class ToolError extends Error {
  /**
   * @param {string} message
   * @param {{retryable?: boolean}} [opts]
   */
  constructor(message, { retryable = false } = {}) {
    super(message);
    this.name = 'ToolError';
    this.retryable = retryable;
  }
}

/**
 * Normalizes the tools argument: {name: handler} or [{name, handler, description, parameters}].
 * @returns {Map<string, {name: string, handler: Function, description: string, parameters?: object}>}
 */
function toolMap(tools) {
  const list = Array.isArray(tools)
    ? tools
    : Object.entries(tools).map(([name, handler]) => ({ name, handler }));
  const out = new Map();
  for (const t of list) {
    if (typeof t.handler !== 'function') throw new TypeError(`tool ${t.name} has no handler function`);
    out.set(t.name, { description: '', ...t });
  }
  if (out.size === 0) throw new TypeError('a worker serves at least one tool');
  return out;
}

/** Serves tools to a runsvc server until stopped; reconnects when the stream drops. */
export class Worker {
  /**
   * @param {import('./client.js').RunsvcClient} client the server to serve
   * @param {object|object[]} tools {name: handler} or [{name, handler, description, parameters}];
   *   handler(args, call) returns (or resolves to) any JSON value
   * @param {{name?: string, maxConcurrency?: number, minBackoffMs?: number, maxBackoffMs?: number, resultCacheSize?: number}} [opts]
   */
  constructor(client, tools, { name, maxConcurrency = 16, minBackoffMs = 200, maxBackoffMs = 5000, resultCacheSize = 4096 } = {}) {
    this.client = client;
    this.tools = toolMap(tools);
    this.name = name ?? `${os.hostname()}-${process.pid}-node`;
    this.maxConcurrency = maxConcurrency;
    this.minBackoffMs = minBackoffMs;
    this.maxBackoffMs = maxBackoffMs;
    /** The id runsvc gave the current connection. */
    this.workerId = '';
    /** How many times the worker registered (1 + reconnections). */
    this.connections = 0;
    this.stopped = false;
    this.stopping = new AbortController();
    this.stream = null;
    /** @type {Map<string, {controller: AbortController, stream: object}>} */
    this.calls = new Map();
    /** How many results to remember by callId; 0 for none. */
    this.resultCacheSize = resultCacheSize;
    /** @type {Map<string, {done: boolean, result?: object, waiters: object[]}>} oldest first */
    this.results = new Map();
    /** How many calls runsvc sent, those answered from the cache too. */
    this.received = 0;
    /** How many times a handler ran (a call answered from the cache is not counted). */
    this.runs = 0;
    this.active = 0;
    this.waiting = [];
    this.registeredWaiters = [];
    this.loop = null;
    const root = client.root;
    this.types = {
      request: root.lookupType('runsvc.v1.ServeToolsRequest'),
      response: root.lookupType('runsvc.v1.ServeToolsResponse'),
      struct: root.lookupType('google.protobuf.Struct'),
      value: root.lookupType('google.protobuf.Value'),
    };
  }

  /** Starts serving in the background; returns this. */
  start() {
    this.loop ??= this.serveForever();
    return this;
  }

  /**
   * Resolves true once runsvc acknowledged a registration, false after timeoutMs.
   * @param {number} [timeoutMs]
   */
  waitRegistered(timeoutMs = 10_000) {
    if (this.workerId) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.registeredWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /** Disconnects and stops serving. */
  async stop() {
    this.stopped = true;
    this.stopping.abort();
    this.stream?.cancel();
    for (const c of this.calls.values()) c.controller.abort();
    await this.loop;
  }

  /** Serves until stop(), reconnecting with backoff. */
  async serveForever() {
    let backoff = this.minBackoffMs;
    while (!this.stopped) {
      const registered = await this.serveOnce();
      if (this.stopped) break;
      if (registered) backoff = this.minBackoffMs;
      await sleep(backoff, undefined, { signal: this.stopping.signal }).catch(() => {});
      backoff = Math.min(backoff * 2, this.maxBackoffMs);
    }
  }

  registerMessage() {
    const tools = [...this.tools.values()].map((t) => ({
      name: t.name,
      description: t.description ?? '',
      ...(t.parameters ? { parameters: fromProtoJSON(this.types.struct, t.parameters) } : {}),
    }));
    return { register: { workerName: this.name, tools, maxConcurrency: this.maxConcurrency } };
  }

  /** One ServeTools stream; resolves whether it got registered. */
  serveOnce() {
    return new Promise((resolve) => {
      let registered = false;
      const stream = this.client.service('ToolService').ServeTools();
      this.stream = stream;
      const done = () => {
        if (this.stream !== stream) return;
        this.stream = null;
        this.workerId = '';
        // Calls of this connection are runsvc's to re-dispatch now. With
        // the cache they keep running: the call sent again gets their result.
        for (const [id, c] of this.calls) {
          if (c.stream === stream && !this.resultCacheSize) {
            c.controller.abort();
            this.calls.delete(id);
          }
        }
        resolve(registered);
      };
      stream.on('data', (msg) => {
        if (msg.message === 'registered') {
          registered = true;
          this.workerId = msg.registered.workerId;
          this.connections++;
          for (const w of this.registeredWaiters.splice(0)) w();
        } else if (msg.message === 'call') {
          this.dispatch(msg.call, stream);
        } else if (msg.message === 'cancel') {
          this.calls.get(msg.cancel.callId)?.controller.abort();
        }
      });
      stream.on('error', done);
      stream.on('end', done);
      stream.on('close', done);
      if (this.stopped) stream.cancel();
      else stream.write(this.registerMessage());
    });
  }

  /**
   * Answers a call seen before from the cache (now, or when its run ends)
   * and returns true; else makes room for the run about to start.
   */
  answerAgain(callId, stream) {
    if (!this.resultCacheSize) return false;
    const o = this.results.get(callId);
    if (!o) {
      this.results.set(callId, { done: false, waiters: [] });
      while (this.results.size > this.resultCacheSize) this.results.delete(this.results.keys().next().value);
      return false;
    }
    this.results.delete(callId); // most recently used last
    this.results.set(callId, o);
    if (o.done) this.send(stream, o.result);
    else o.waiters.push(stream);
    return true;
  }

  /** Stores a run's result for the call sent again; returns the streams waiting for it. */
  remember(call, result) {
    const o = this.results.get(call.callId);
    if (!o || o.done) return [];
    const waiters = o.waiters;
    Object.assign(o, { done: true, result, waiters: [] });
    if (call.cancelled || result.error?.retryable) this.results.delete(call.callId);
    return waiters;
  }

  /** Writes a result on stream when it is still the worker's connection. */
  send(stream, result) {
    if (this.stream === stream) stream.write({ result });
  }

  dispatch(msg, stream) {
    this.received++;
    if (this.answerAgain(msg.callId, stream)) return;
    this.runs++;
    const controller = new AbortController();
    this.calls.set(msg.callId, { controller, stream });
    const call = {
      callId: msg.callId,
      name: msg.name,
      arguments: msg.arguments ? toProtoJSON(this.types.struct, msg.arguments) : {},
      runId: msg.runId ?? '',
      deadline: msg.deadlineTime ? new Date(Number(msg.deadlineTime.seconds) * 1000 + Math.floor((msg.deadlineTime.nanos ?? 0) / 1e6)) : null,
      signal: controller.signal,
      get cancelled() {
        return controller.signal.aborted;
      },
    };
    this.execute(call, stream).finally(() => {
      if (this.calls.get(call.callId)?.controller === controller) this.calls.delete(call.callId);
    });
  }

  async acquire() {
    if (this.active < this.maxConcurrency) {
      this.active++;
      return;
    }
    await new Promise((resolve) => this.waiting.push(resolve));
  }

  release() {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }

  async execute(call, stream) {
    await this.acquire();
    try {
      if (call.cancelled && !this.stillWanted(call)) return;
      const result = { callId: call.callId };
      try {
        const tool = this.tools.get(call.name);
        if (!tool) throw new ToolError(`this worker does not serve ${call.name}`);
        const out = await tool.handler(call.arguments, call);
        try {
          result.output = fromProtoJSON(this.types.value, out === undefined ? null : out);
        } catch (e) {
          throw new ToolError(`the result is not JSON: ${e.message}`);
        }
      } catch (e) {
        delete result.output;
        result.error = e instanceof ToolError
          ? { message: e.message, retryable: e.retryable }
          : { message: `${e?.name ?? 'Error'}: ${e?.message ?? e}`, retryable: false };
      }
      const waiters = this.remember(call, result);
      if (!call.cancelled) this.send(stream, result);
      for (const w of waiters) this.send(w, result);
    } finally {
      this.release();
    }
  }

  /**
   * A call cancelled before it ran: whether the same call, sent again,
   * waits for it (then it runs); else it leaves the cache.
   */
  stillWanted(call) {
    const o = this.results.get(call.callId);
    if (o?.waiters.length) return true;
    if (o && !o.done) this.results.delete(call.callId);
    return false;
  }
}

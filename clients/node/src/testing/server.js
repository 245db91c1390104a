// Starting a real runsvc server for tests: build (or take) the binary,
// serve on a free 127.0.0.1 port with a fresh data directory, and wait for
// the gRPC health check.

import { spawn, execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';

/** The repository root, seen from clients/node/src/testing. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

const HEALTH_PROTO = `
syntax = "proto3";
package grpc.health.v1;
message HealthCheckRequest { string service = 1; }
message HealthCheckResponse {
  enum ServingStatus { UNKNOWN = 0; SERVING = 1; NOT_SERVING = 2; SERVICE_UNKNOWN = 3; }
  ServingStatus status = 1;
}
`;

const health = protobuf.parse(HEALTH_PROTO, { keepCase: true }).root;
const HealthCheckRequest = health.lookupType('grpc.health.v1.HealthCheckRequest');
const HealthCheckResponse = health.lookupType('grpc.health.v1.HealthCheckResponse');

/**
 * Asks grpc.health.v1.Health/Check once.
 * @param {string} address host:port
 * @param {string} [service] '' for the server as a whole
 * @param {number} [timeoutMs]
 * @returns {Promise<string>} the serving status, e.g. "SERVING"
 */
export function checkHealth(address, service = '', timeoutMs = 1000) {
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  return new Promise((resolve, reject) => {
    client.makeUnaryRequest(
      '/grpc.health.v1.Health/Check',
      (req) => Buffer.from(HealthCheckRequest.encode(HealthCheckRequest.create(req)).finish()),
      (buf) => HealthCheckResponse.toObject(HealthCheckResponse.decode(buf), { enums: String, defaults: true }),
      { service },
      new grpc.Metadata(),
      { deadline: new Date(Date.now() + timeoutMs) },
      (err, res) => {
        client.close();
        if (err) reject(err);
        else resolve(res.status);
      },
    );
  });
}

/**
 * A free TCP port on 127.0.0.1.
 * @returns {Promise<number>}
 */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * The runsvc binary to test: $RUNSVC_BIN, or one built from the repository
 * into a temporary directory with `go build`.
 * @param {string} tmpDir where to build
 * @returns {Promise<string>}
 */
export async function runsvcBinary(tmpDir) {
  if (process.env.RUNSVC_BIN) return process.env.RUNSVC_BIN;
  const out = path.join(tmpDir, 'runsvc');
  await promisify(execFile)('go', ['build', '-o', out, './cmd/runsvc'], { cwd: REPO_ROOT, maxBuffer: 16 << 20 });
  return out;
}

/**
 * @typedef {object} RunningServer
 * @property {string} address host:port it serves on
 * @property {() => string} logs what it wrote so far
 * @property {() => Promise<void>} stop kills it and removes its temporary directory
 */

/**
 * Starts `runsvc serve` on 127.0.0.1 with a fresh data directory and waits
 * until its health check answers SERVING.
 * @param {{bin?: string, policyFile?: string, args?: string[], timeoutMs?: number}} [opts]
 *   bin defaults to runsvcBinary(); policyFile to testdata/policy.json
 * @returns {Promise<RunningServer>}
 */
export async function startServer({ bin, policyFile = path.join(REPO_ROOT, 'testdata', 'policy.json'), args = [], timeoutMs = 30_000 } = {}) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'runsvc-node-'));
  const cleanup = () => fs.rmSync(tmp, { recursive: true, force: true });
  try {
    bin ??= await runsvcBinary(tmp);
    let lastError;
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        return await startOnce(bin, tmp, policyFile, args, timeoutMs, cleanup);
      } catch (err) {
        lastError = err;
        if (!err.portTaken) break;
      }
    }
    throw lastError;
  } catch (err) {
    cleanup();
    throw err;
  }
}

async function startOnce(bin, tmp, policyFile, args, timeoutMs, cleanup) {
  const port = await freePort();
  const address = `127.0.0.1:${port}`;
  const data = fs.mkdtempSync(path.join(tmp, 'data-'));
  const proc = spawn(
    bin,
    ['serve', '--listen', address, '--data', data, '--policy-file', policyFile, '--log-format', 'text', ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  proc.stdout.on('data', (b) => (output += b));
  proc.stderr.on('data', (b) => (output += b));
  let exited = null;
  const exitPromise = new Promise((resolve) => proc.on('exit', (code, signal) => resolve((exited = { code, signal }))));
  proc.on('error', (err) => (exited = { error: err }));

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited) {
      const err = new Error(`runsvc serve exited (${JSON.stringify(exited)}) before serving:\n${output}`);
      err.portTaken = /address already in use/i.test(output);
      throw err;
    }
    try {
      if ((await checkHealth(address)) === 'SERVING') break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`runsvc serve did not answer its health check on ${address} within ${timeoutMs} ms:\n${output}`);
    }
    await sleep(100);
  }
  return {
    address,
    logs: () => output,
    async stop() {
      if (!exited) {
        proc.kill('SIGTERM');
        const killed = await Promise.race([exitPromise, sleep(5000).then(() => null)]);
        if (!killed) {
          proc.kill('SIGKILL');
          await exitPromise;
        }
      }
      cleanup();
    },
  };
}

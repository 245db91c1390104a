// A dynamic runsvc client: any runsvc.v1 method by "Service/Method", with
// protojson requests and responses.

import grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { loadRunsvc } from './protos.js';
import { fromProtoJSON, toProtoJSON } from './protojson.js';

const PACKAGE = 'runsvc.v1';

/**
 * @typedef {object} CallResult
 * @property {object} response the (last) response as proto-loader decoded it
 * @property {object} json the same response as protojson
 */

/** A runsvc client over one address, calling methods by name. */
export class RunsvcClient {
  /**
   * @param {string} address host:port
   * @param {{credentials?: grpc.ChannelCredentials, protoDir?: string, callTimeoutMs?: number}} [opts]
   *   credentials default to insecure (a local server); each call gets a
   *   deadline of callTimeoutMs (default 60 s)
   */
  constructor(address, { credentials = grpc.credentials.createInsecure(), protoDir, callTimeoutMs = 60_000 } = {}) {
    const { packageDefinition, root } = loadRunsvc(protoDir ? { protoDir } : {});
    /** The protobufjs Root of runsvc's API and google.rpc's details. */
    this.root = root;
    /** The grpc-js package object of runsvc.v1 (service constructors). */
    this.pkg = grpc.loadPackageDefinition(packageDefinition).runsvc.v1;
    this.address = address;
    this.callTimeoutMs = callTimeoutMs;
    this.credentials = credentials;
    /** @type {Map<string, grpc.Client>} */
    this.clients = new Map();
  }

  /**
   * The grpc-js client of one runsvc.v1 service, created on first use.
   * @param {string} service e.g. "RunService"
   * @returns {grpc.Client}
   */
  service(service) {
    let c = this.clients.get(service);
    if (!c) {
      const Ctor = this.pkg[service];
      if (typeof Ctor !== 'function') throw new Error(`${PACKAGE} has no service ${service}`);
      // One channel for all services: the first client's is shared.
      const first = this.clients.values().next().value;
      c = first ? new Ctor(this.address, this.credentials, { channelOverride: first.getChannel() }) : new Ctor(this.address, this.credentials);
      this.clients.set(service, c);
    }
    return c;
  }

  /**
   * Calls a unary or server-streaming runsvc.v1 method with a protojson
   * request. A server stream is read to its end; its last message is the
   * response.
   * @param {string} method "Service/Method", e.g. "RunService/GetRun"
   * @param {object} request the request as protojson (parsed)
   * @returns {Promise<CallResult>} rejects with the grpc-js ServiceError,
   *   whose `metadata` holds the trailers
   */
  async call(method, request) {
    const [service, name] = method.split('/');
    if (!service || !name) throw new Error(`call ${JSON.stringify(method)} is not Service/Method`);
    const svc = this.root.lookup(`${PACKAGE}.${service}`);
    if (!(svc instanceof protobuf.Service)) throw new Error(`${PACKAGE} has no service ${service}`);
    const m = svc.methods[name];
    if (!m) throw new Error(`service ${service} has no method ${name}`);
    m.resolve();
    if (m.requestStream) throw new Error(`${method} is a client-streaming method; not supported here`);
    const req = fromProtoJSON(m.resolvedRequestType, request ?? {});
    const client = this.service(service);
    const deadline = new Date(Date.now() + this.callTimeoutMs);
    const response = m.responseStream
      ? await readStream(client[name](req, new grpc.Metadata(), { deadline }))
      : await new Promise((resolve, reject) => {
          client[name](req, new grpc.Metadata(), { deadline }, (err, res) => (err ? reject(err) : resolve(res)));
        });
    return { response, json: toProtoJSON(m.resolvedResponseType, response ?? {}) };
  }

  /** Closes every channel. */
  close() {
    for (const c of this.clients.values()) c.close();
    this.clients.clear();
  }
}

/**
 * Reads a server stream to its end.
 * @param {grpc.ClientReadableStream<object>} stream
 * @returns {Promise<object|null>} the last message (null for none); rejects
 *   with the stream's error
 */
function readStream(stream) {
  return new Promise((resolve, reject) => {
    let last = null;
    let ended = false;
    let status = null;
    let error = null;
    const settle = () => {
      if (error) reject(error);
      else if (ended && status) resolve(last);
    };
    stream.on('data', (msg) => {
      last = msg;
    });
    stream.on('error', (err) => {
      error = err;
      settle();
    });
    stream.on('end', () => {
      ended = true;
      settle();
    });
    stream.on('status', (s) => {
      status = s;
      settle();
    });
  });
}

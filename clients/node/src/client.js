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
   * A method of a runsvc.v1 service that the service does not declare is
   * called anyway, with an empty message.
   * @param {string} method "Service/Method", e.g. "RunService/GetRun"
   * @param {object} request the request as protojson (parsed)
   * @param {{metadata?: Record<string,string>}} [opts] request headers,
   *   e.g. {authorization: 'Bearer <key>'}
   * @returns {Promise<CallResult>} rejects with the grpc-js ServiceError,
   *   whose `metadata` holds the trailers
   */
  async call(method, request, { metadata } = {}) {
    const { m, service, name } = this.#method(method);
    const client = this.service(service);
    const md = toMetadata(metadata);
    const deadline = new Date(Date.now() + this.callTimeoutMs);
    if (!m) {
      await new Promise((resolve, reject) => {
        client.makeUnaryRequest(`/${PACKAGE}.${method}`, () => Buffer.alloc(0), (b) => b, Buffer.alloc(0), md, { deadline },
          (err, res) => (err ? reject(err) : resolve(res)));
      });
      return { response: {}, json: {} };
    }
    const req = fromProtoJSON(m.resolvedRequestType, request ?? {});
    const response = m.responseStream
      ? await readStream(client[name](req, md, { deadline }))
      : await new Promise((resolve, reject) => {
          client[name](req, md, { deadline }, (err, res) => (err ? reject(err) : resolve(res)));
        });
    return { response, json: toProtoJSON(m.resolvedResponseType, response ?? {}) };
  }

  /**
   * Opens a server stream and resolves once its first message came, with
   * the stream still open: the caller cancels it.
   * @param {string} method "Service/Method" of a server-streaming method
   * @param {object} request the request as protojson (parsed)
   * @param {{metadata?: Record<string,string>}} [opts] request headers
   * @returns {Promise<grpc.ClientReadableStream<object>>}
   */
  async hold(method, request, { metadata } = {}) {
    const { m, service, name } = this.#method(method);
    if (!m?.responseStream) throw new Error(`hold needs a server stream; ${method} is not one`);
    const stream = this.service(service)[name](fromProtoJSON(m.resolvedRequestType, request ?? {}), toMetadata(metadata),
      { deadline: new Date(Date.now() + this.callTimeoutMs) });
    await new Promise((resolve, reject) => {
      stream.once('data', resolve);
      stream.once('error', reject);
    });
    stream.on('error', () => {}); // its cancellation, later
    return stream;
  }

  /** The method's protobufjs descriptor; m is undefined for a method the service does not declare. */
  #method(method) {
    const [service, name] = method.split('/');
    if (!service || !name) throw new Error(`call ${JSON.stringify(method)} is not Service/Method`);
    const svc = this.root.lookup(`${PACKAGE}.${service}`);
    if (!(svc instanceof protobuf.Service)) throw new Error(`${PACKAGE} has no service ${service}`);
    const m = svc.methods[name];
    if (!m) return { service, name };
    m.resolve();
    if (m.requestStream) throw new Error(`${method} is a client-streaming method; not supported here`);
    return { m, service, name };
  }

  /** Closes every channel. */
  close() {
    for (const c of this.clients.values()) c.close();
    this.clients.clear();
  }
}

/** Request headers as grpc-js Metadata. */
function toMetadata(headers) {
  const md = new grpc.Metadata();
  for (const [k, v] of Object.entries(headers ?? {})) md.set(k, v);
  return md;
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

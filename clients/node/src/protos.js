// Loading runsvc's API: proto-loader for grpc-js, and the same files as a
// protobufjs Root for reflection (request conversion, Any details).

import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import protoLoader from '@grpc/proto-loader';

const require = createRequire(import.meta.url);

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * runsvc's protos: the copy `npm pack` bundles into the package (proto/,
 * beside src/), or else the repository's proto/ seen from clients/node/src.
 */
export const DEFAULT_PROTO_DIR = fs.existsSync(path.join(here, '..', 'proto', 'runsvc', 'v1'))
  ? path.resolve(here, '..', 'proto')
  : path.resolve(here, '../../../proto');

/** The directory holding google/rpc and google/protobuf from google-proto-files. */
export const GOOGLE_PROTO_DIR = path.dirname(require.resolve('google-proto-files/package.json'));

/**
 * The proto-loader options the client uses: protojson's lowerCamelCase
 * names, 64-bit integers and enums as strings, defaults, and a virtual field
 * naming the set member of each oneof. Bytes (an Any's value) stay Buffers.
 */
export const LOADER_OPTIONS = Object.freeze({
  keepCase: false,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
});

/** The google.rpc files classify() decodes. */
const RPC_FILES = ['google/rpc/status.proto', 'google/rpc/error_details.proto', 'google/rpc/code.proto'];

/**
 * Lists the runsvc.v1 proto files, relative to the proto directory.
 * @param {string} protoDir the directory holding runsvc/v1/*.proto
 * @returns {string[]}
 */
export function runsvcFiles(protoDir = DEFAULT_PROTO_DIR) {
  const dir = path.join(protoDir, 'runsvc', 'v1');
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.proto'))
    .sort()
    .map((f) => `runsvc/v1/${f}`);
}

/**
 * Loads proto files into a protobufjs Root, resolving imports the way
 * proto-loader does (first include directory holding the file wins).
 * @param {string[]} files paths relative to an include directory
 * @param {string[]} includeDirs
 * @returns {protobuf.Root}
 */
export function loadRoot(files, includeDirs) {
  const root = new protobuf.Root();
  root.resolvePath = (origin, target) => {
    if (path.isAbsolute(target)) return target;
    for (const dir of includeDirs) {
      const full = path.join(dir, target);
      if (fs.existsSync(full)) return full;
    }
    return target;
  };
  root.loadSync(files, { keepCase: LOADER_OPTIONS.keepCase });
  root.resolveAll();
  return root;
}

let rpcRoot;

/**
 * The google.rpc types (Status, ErrorInfo, RetryInfo, ...) from
 * google-proto-files, loaded once.
 * @returns {protobuf.Root}
 */
export function googleRpcRoot() {
  rpcRoot ??= loadRoot(RPC_FILES, [GOOGLE_PROTO_DIR]);
  return rpcRoot;
}

/**
 * Loads runsvc's API.
 * @param {{protoDir?: string}} [opts]
 * @returns {{packageDefinition: object, root: protobuf.Root, files: string[], includeDirs: string[]}}
 *   the proto-loader package definition (for grpc.loadPackageDefinition) and
 *   a protobufjs Root of the same files plus google/rpc's error details
 */
export function loadRunsvc({ protoDir = DEFAULT_PROTO_DIR } = {}) {
  const files = runsvcFiles(protoDir);
  const includeDirs = [protoDir, GOOGLE_PROTO_DIR];
  const packageDefinition = protoLoader.loadSync(files, { ...LOADER_OPTIONS, includeDirs });
  const root = loadRoot([...files, ...RPC_FILES], includeDirs);
  return { packageDefinition, root, files, includeDirs };
}

// Type declarations of @runsvc/client (src/index.js), checked by
// `npm run typecheck` (tsc --noEmit) in CI.

import type * as grpc from '@grpc/grpc-js';
import type * as protobuf from 'protobufjs';

export { CATALOGUE_VERSION, DEFAULT_DOMAIN, Reason, REASONS, RETRYABLE, ReasonName } from './reasons.js';

/** The trailer a retryable error sets to its delay in ms (-1 otherwise). */
export declare const PUSHBACK_TRAILER: 'grpc-retry-pushback-ms';
/** The trailer holding the binary google.rpc.Status. */
export declare const STATUS_DETAILS_TRAILER: 'grpc-status-details-bin';

/** What a client needs to decide about a failure. */
export interface Classification {
  /** The code's name, e.g. "NOT_FOUND". */
  code: string;
  message: string;
  /** ErrorInfo.reason; null without ErrorInfo. */
  reason: string | null;
  domain: string | null;
  metadata: Record<string, string>;
  /** True if and only if RetryInfo is present. */
  retryable: boolean;
  retryDelayMs: number | null;
  /** The grpc-retry-pushback-ms trailer; null for a status read from a response. */
  pushback: string | null;
  /** Every decoded detail, each {type, ...fields}. */
  details: Array<{ type: string; [field: string]: unknown }>;
}

export declare function classify(err: grpc.ServiceError | Error | unknown): Classification;
export declare function classifyStatus(status: object | null | undefined): Classification;
export declare function statusFromError(err: grpc.ServiceError | Error | unknown): object | null;
export declare function codeName(code: number | string): string;

export interface CallResult {
  /** The (last) response as proto-loader decoded it. */
  response: any;
  /** The same response as protojson. */
  json: any;
}

/** Per-call options of RunsvcClient. */
export interface CallOptions {
  /** Request headers, e.g. {authorization: 'Bearer <key>'}. */
  metadata?: Record<string, string>;
}

export interface RunsvcClientOptions {
  credentials?: grpc.ChannelCredentials;
  protoDir?: string;
  callTimeoutMs?: number;
}

/** A runsvc client over one address, calling runsvc.v1 methods by name. */
export declare class RunsvcClient {
  constructor(address: string, opts?: RunsvcClientOptions);
  readonly address: string;
  callTimeoutMs: number;
  /** The protobufjs Root of runsvc's API and google.rpc's details. */
  readonly root: protobuf.Root;
  /** The grpc-js client of one runsvc.v1 service, e.g. "ToolService". */
  service(service: string): grpc.Client & Record<string, any>;
  /**
   * Calls a unary or server-streaming method, e.g. "RunService/GetRun", with a protojson request;
   * a method the service does not declare is called with an empty message.
   */
  call(method: string, request?: object, opts?: CallOptions): Promise<CallResult>;
  /** Opens a server stream and resolves, with it still open, once its first message came. */
  hold(method: string, request?: object, opts?: CallOptions): Promise<grpc.ClientReadableStream<any>>;
  close(): void;
}

export declare function fromProtoJSON(type: protobuf.Type, json: unknown): any;
export declare function toProtoJSON(type: protobuf.Type, obj: unknown): any;
export declare function parseDuration(s: string, where?: string): { seconds: string; nanos: number };
export declare function formatDuration(d: { seconds?: string | number; nanos?: number }): string;

export declare const LOADER_OPTIONS: Readonly<Record<string, unknown>>;
export declare const DEFAULT_PROTO_DIR: string;
export declare const GOOGLE_PROTO_DIR: string;
export declare function loadRunsvc(opts?: { protoDir?: string }): {
  packageDefinition: object;
  root: protobuf.Root;
  files: string[];
  includeDirs: string[];
};

export declare const DEFAULT_MAX_ATTEMPTS: number;

export interface RetryOptions {
  /** Calls at most, the first included (default DEFAULT_MAX_ATTEMPTS). */
  maxAttempts?: number;
  /** No wait may end after this time (a Date or epoch ms). */
  deadline?: Date | number;
  /** Only this ErrorInfo domain's errors are retried (default "runsvc"). */
  domain?: string;
  sleep?: (ms: number) => Promise<unknown>;
  now?: () => number;
  onRetry?: (attempt: number, err: unknown, delayMs: number) => void;
}

/** Calls fn until it resolves or fails with an error that RetryInfo does not let it retry. */
export declare function withRetry<T>(fn: (remainingMs: number | undefined) => Promise<T>, opts?: RetryOptions): Promise<T>;

/** A tool's failure as the model sees it. */
export declare class ToolError extends Error {
  constructor(message: string, opts?: { retryable?: boolean });
  readonly retryable: boolean;
}

/** One call as a handler sees it. */
export interface ToolCall {
  readonly callId: string;
  readonly name: string;
  readonly arguments: Record<string, unknown>;
  /** The Run that made the call; empty for InvokeTool. */
  readonly runId: string;
  readonly deadline: Date | null;
  /** Aborted when runsvc withdraws the call (its result is then dropped). */
  readonly signal: AbortSignal;
  readonly cancelled: boolean;
}

export type ToolHandler = (args: Record<string, any>, call: ToolCall) => unknown | Promise<unknown>;

export interface ToolSpec {
  name: string;
  handler: ToolHandler;
  description?: string;
  /** The arguments' JSON Schema. */
  parameters?: Record<string, unknown>;
}

export interface WorkerOptions {
  name?: string;
  maxConcurrency?: number;
  minBackoffMs?: number;
  maxBackoffMs?: number;
  /**
   * How many results the worker remembers by callId (default 4096; 0 for
   * none): a call runsvc sends again is answered from them, not run again.
   */
  resultCacheSize?: number;
}

/** Serves tools over ToolService.ServeTools until stopped; reconnects when the stream drops. */
export declare class Worker {
  constructor(client: RunsvcClient, tools: Record<string, ToolHandler> | ToolSpec[], opts?: WorkerOptions);
  readonly name: string;
  /** The id runsvc gave the current connection; "" while not registered. */
  readonly workerId: string;
  /** How many times the worker registered (1 + reconnections). */
  readonly connections: number;
  /** How many calls runsvc sent, those answered from the cache too. */
  readonly received: number;
  /** How many times a handler ran (a call answered from the cache is not counted). */
  readonly runs: number;
  start(): this;
  waitRegistered(timeoutMs?: number): Promise<boolean>;
  stop(): Promise<void>;
}

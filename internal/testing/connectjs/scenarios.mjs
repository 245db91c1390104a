// Runs testdata/scenarios.json over the Connect protocol with
// @connectrpc/connect-node, on service descriptors read at run time from a
// FileDescriptorSet (no generated JavaScript). It prints one JSON line per
// scenario: the status its check names, each detail as its type, its bytes
// and its JSON as @bufbuild/protobuf decodes it, and the pushback trailer;
// internal/testing/scenario's TestScenariosOverConnectNode checks them with
// the Go runner's assertions.
//
// Environment: RUNSVC_DESCRIPTORS (the set), RUNSVC_SCENARIOS (the file),
// RUNSVC_SCENARIO_SERVERS (setting name to {httpUrl, vars}), RUNSVC_SUITE
// (for ${suite}), RUNSVC_CONNECT_CODEC ("json" or "binary").
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { ConnectError } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { createFileRegistry, fromBinary, fromJson, toJson } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";

const env = process.env;
const registry = createFileRegistry(fromBinary(FileDescriptorSetSchema, readFileSync(env.RUNSVC_DESCRIPTORS)));
const file = JSON.parse(readFileSync(env.RUNSVC_SCENARIOS, "utf8"));
const servers = JSON.parse(env.RUNSVC_SCENARIO_SERVERS);
const transports = new Map();

function transport(url) {
  if (!transports.has(url)) {
    transports.set(url, createConnectTransport({ baseUrl: url, httpVersion: "1.1", useBinaryFormat: env.RUNSVC_CONNECT_CODEC === "binary", jsonOptions: { registry } }));
  }
  return transports.get(url);
}

// method finds "Service/Method" in runsvc.v1; one the service does not
// declare is called anyway, unary with empty messages.
function method(name) {
  const [svc, m] = name.split("/");
  const service = registry.getService("runsvc.v1." + svc);
  const found = service.methods.find((x) => x.name === m);
  if (found) return found;
  const empty = registry.getMessage("google.protobuf.Empty");
  return { ...service.methods[0], name: m, localName: m, methodKind: "unary", input: empty, output: empty };
}

// substitute mirrors scenario.Substitute.
function substitute(s, vars) {
  s = s.replace(/"\$\{list:([^}:]*):([0-9]+)\}"/g, (_, c, n) => "[" + Array(Number(n)).fill('"' + c + '"').join(",") + "]");
  return s.replace(/\$\{([^}]+)\}/g, (m, name) => {
    if (name.startsWith("repeat:")) {
      const [c, n] = name.slice(7).split(":");
      if (/^[0-9]+$/.test(n ?? "")) return c.repeat(Number(n));
    }
    return name in vars ? vars[name] : m;
  });
}

async function* once(x) {
  yield x;
}

// call returns the response (a server stream's last message) as JSON.
async function call(url, name, reqJSON, header, signal) {
  const m = method(name);
  const input = fromJson(m.input, JSON.parse(reqJSON), { registry });
  if (m.methodKind === "server_streaming") {
    const res = await transport(url).stream(m, signal, undefined, header, once(input));
    let last;
    for await (const msg of res.message) last = msg;
    return last ? toJson(m.output, last, { registry }) : {};
  }
  const res = await transport(url).unary(m, signal, undefined, header, input);
  return toJson(m.output, res.message, { registry });
}

// hold opens a server stream and returns once its first message came.
async function hold(url, name, reqJSON, header, signal) {
  const m = method(name);
  const res = await transport(url).stream(m, signal, undefined, header, once(fromJson(m.input, JSON.parse(reqJSON), { registry })));
  const first = await res.message[Symbol.asyncIterator]().next();
  if (first.done) throw new Error(`${name}: the stream ended before its first message`);
}

function lookup(v, path) {
  for (const part of path.split(".")) {
    if (v === null || typeof v !== "object") return undefined;
    v = v[part];
  }
  return v;
}

function matches(resp, until) {
  return Object.entries(until ?? {}).every(([path, want]) => String(lookup(resp, path)) === want);
}

function duration(s) {
  const m = /^([0-9.]+)(ms|s|m)$/.exec(s);
  if (!m) throw new Error(`duration ${s}`);
  return Number(m[1]) * { ms: 1, s: 1000, m: 60000 }[m[2]];
}

// errorOutcome is a ConnectError as the Go side reads it.
function errorOutcome(e) {
  const details = e.details.map((d) => {
    const desc = registry.getMessage(d.type);
    const json = desc ? toJson(desc, fromBinary(desc, d.value), { registry }) : null;
    return { type: d.type, value: Buffer.from(d.value).toString("base64"), json };
  });
  return { rpc: true, code: e.code, message: e.rawMessage, details, pushback: e.metadata.get("grpc-retry-pushback-ms") };
}

async function run(s) {
  const on = servers[s.server ?? ""];
  const vars = { suite: env.RUNSVC_SUITE, ...(on.vars ?? {}) };
  const header = s.apiKey ? { authorization: "Bearer " + s.apiKey } : {};
  const ac = new AbortController();
  try {
    let last;
    for (const step of s.steps) {
      if (step.sleep) {
        await sleep(duration(step.sleep));
        continue;
      }
      if (!step.call) return { status: lookup(last, step.check) };
      const req = substitute(JSON.stringify(step.request ?? {}), vars);
      if (step.hold) {
        await hold(on.httpUrl, step.call, req, header, ac.signal);
        continue;
      }
      const deadline = Date.now() + 30000;
      for (;;) {
        let resp;
        try {
          resp = await call(on.httpUrl, step.call, req, header, ac.signal);
        } catch (e) {
          if (step.check === "error" && e instanceof ConnectError) return errorOutcome(e);
          throw e;
        }
        if (step.check === "error") throw new Error(`${step.call} succeeded; the scenario expects an error`);
        last = resp;
        if (matches(resp, step.until)) break;
        if (Date.now() > deadline) throw new Error(`${step.call}: ${JSON.stringify(step.until)} never held; last ${JSON.stringify(resp)}`);
        await sleep(50);
      }
      for (const [name, path] of Object.entries(step.save ?? {})) {
        const v = lookup(last, path);
        if (typeof v !== "string") throw new Error(`no string at ${path} in ${JSON.stringify(last)}`);
        vars[name] = v;
      }
      if (step.check) return { status: lookup(last, step.check) };
    }
    throw new Error("the scenario has no check step");
  } finally {
    ac.abort();
  }
}

const results = await Promise.all(
  file.scenarios.map(async (s) => {
    try {
      return { name: s.name, ...(await run(s)) };
    } catch (e) {
      return { name: s.name, failure: String(e?.stack ?? e) };
    }
  }),
);
for (const r of results) process.stdout.write(JSON.stringify(r) + "\n");

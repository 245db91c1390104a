// The browser test's page (internal/testing/connectjs/browser_test.go),
// bundled by esbuild at test time: it starts a Run with connect-web over
// descriptors the test serves (no generated JavaScript), shows its streamed
// text, and reports the outcome in window.result.
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { createFileRegistry, fromBinary } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";

async function main() {
  const api = new URL(location.href).searchParams.get("api");
  const bytes = new Uint8Array(await (await fetch("/descriptors.binpb")).arrayBuffer());
  const registry = createFileRegistry(fromBinary(FileDescriptorSetSchema, bytes));
  const runs = createClient(registry.getService("runsvc.v1.RunService"),
    createConnectTransport({ baseUrl: api, useBinaryFormat: false }));
  const out = document.getElementById("text");
  const started = await runs.startRun({ spec: "browser", input: "hello from a page" });
  const runId = started.run.runId;
  for await (const piece of runs.streamText({ runId })) {
    out.textContent += piece.text;
  }
  return { ok: true, runId, text: out.textContent };
}

main().then(
  (r) => { window.result = r; },
  (e) => { window.result = { ok: false, error: String(e && e.message || e) }; },
);

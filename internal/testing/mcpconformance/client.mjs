// The TypeScript SDK's MCP client against runsvc's MCP server: it lists
// the tools, calls a Spec tool, and calls one whose Run asks a question,
// answering the elicitation. It prints what it saw as one JSON object.
// Usage: node client.mjs URL
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const url = process.argv[2];
const client = new Client({ name: "runsvc-ts-client", version: "1.0.0" }, { capabilities: { elicitation: {} } });
const asked = [];
client.setRequestHandler(ElicitRequestSchema, async (req) => {
  asked.push(req.params.message);
  return { action: "accept", content: { answer: "blue" } };
});
await client.connect(new StreamableHTTPClientTransport(new URL(url)));
const tools = (await client.listTools()).tools.map((t) => t.name).sort();
const text = (res) => res.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");
const helper = await client.callTool({ name: "helper", arguments: { message: "hello" } });
const asker = await client.callTool({ name: "asker", arguments: { message: "pick a colour" } });
console.log(JSON.stringify({
  tools,
  helper: { text: text(helper), isError: !!helper.isError, runId: helper._meta?.["runsvc/run-id"] },
  asker: { text: text(asker), isError: !!asker.isError },
  asked,
}));
await client.close();

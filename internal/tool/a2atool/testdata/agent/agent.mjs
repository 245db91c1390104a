// A sample A2A 1.0 agent built with @a2a-js/sdk's server side, which the
// a2a tool kind's tests call on loopback. It serves JSON-RPC at /a2a/jsonrpc,
// HTTP+JSON at /a2a/rest and its card at /.well-known/agent-card.json, and
// answers by the text of the message it receives:
//
//   "ask ..."     -> INPUT_REQUIRED "What is your name?"; the next message
//                    in the task completes it with "hello <text>"
//   "fail ..."    -> FAILED with "the agent failed on purpose"
//   "reject ..."  -> REJECTED with "the agent will not do that"
//   "data ..."    -> COMPLETED with a data part {"echo": "<text>"}
//   "slow N ..."  -> waits N ms, then answers as below; a CancelTask while
//                    it waits ends it CANCELED, unless the text has
//                    "nocancel": then the cancel fails TaskNotCancelable
//   anything else -> COMPLETED with an artifact "echo: <text>"
//
// GET /stats answers {"messages": n, "messageIds": [...], "cancels": [...]}:
// every message it received, and the task ids of every CancelTask. It
// prints "listening <port>" once it listens (PORT=0 picks one).
import express from "express";
import { DefaultRequestHandler, InMemoryTaskStore, AgentEvent } from "@a2a-js/sdk/server";
import { jsonRpcHandler, restHandler, agentCardHandler, UserBuilder } from "@a2a-js/sdk/server/express";
import { TaskNotCancelableError } from "@a2a-js/sdk/errors";

const received = [];
const cancels = [];
const canceled = new Set();
const uncancelable = new Set();
const contexts = new Map(); // task id -> context id
const TASK_STATE = { SUBMITTED: 1, WORKING: 2, COMPLETED: 3, FAILED: 4, CANCELED: 5, INPUT_REQUIRED: 6, REJECTED: 7 };
const ROLE_AGENT = 2;

function textOf(message) {
  return (message.parts ?? []).filter((p) => p.content?.$case === "text").map((p) => p.content.value).join("\n");
}

function agentMessage(taskId, contextId, parts) {
  return {
    messageId: crypto.randomUUID(), contextId, taskId, role: ROLE_AGENT, parts,
    metadata: undefined, extensions: [], referenceTaskIds: [],
  };
}

function textPart(text) {
  return { content: { $case: "text", value: text }, metadata: undefined, filename: "", mediaType: "text/plain" };
}

function status(taskId, contextId, state, text) {
  const message = text === undefined ? undefined : agentMessage(taskId, contextId, [textPart(text)]);
  return AgentEvent.statusUpdate({
    taskId, contextId, metadata: undefined,
    status: { state, message, timestamp: new Date().toISOString() },
  });
}

function artifact(taskId, contextId, parts) {
  return AgentEvent.artifactUpdate({
    taskId, contextId, append: false, lastChunk: true, metadata: undefined,
    artifact: { artifactId: crypto.randomUUID(), name: "answer", description: "", parts, metadata: undefined, extensions: [] },
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

class Executor {
  async execute(ctx, bus) {
    const msg = ctx.userMessage;
    received.push(msg.messageId);
    const taskId = ctx.taskId, contextId = ctx.contextId;
    contexts.set(taskId, contextId);
    const task = ctx.task ?? {
      id: taskId, contextId, status: { state: TASK_STATE.SUBMITTED, message: undefined, timestamp: new Date().toISOString() },
      artifacts: [], history: [msg], metadata: undefined,
    };
    bus.publish(AgentEvent.task(task));
    let text = textOf(msg);
    const awaitingName = ctx.task?.status?.state === TASK_STATE.INPUT_REQUIRED;
    bus.publish(status(taskId, contextId, TASK_STATE.WORKING));
    const slow = /^slow (\d+)\s*/.exec(text);
    if (slow) {
      if (text.includes("nocancel")) uncancelable.add(taskId);
      await sleep(Number(slow[1]));
      if (canceled.has(taskId)) return;
      text = text.slice(slow[0].length);
    }
    if (awaitingName) {
      bus.publish(artifact(taskId, contextId, [textPart("hello " + text)]));
      bus.publish(status(taskId, contextId, TASK_STATE.COMPLETED));
    } else if (text.startsWith("ask")) {
      bus.publish(status(taskId, contextId, TASK_STATE.INPUT_REQUIRED, "What is your name?"));
    } else if (text.startsWith("fail")) {
      bus.publish(status(taskId, contextId, TASK_STATE.FAILED, "the agent failed on purpose"));
    } else if (text.startsWith("reject")) {
      bus.publish(status(taskId, contextId, TASK_STATE.REJECTED, "the agent will not do that"));
    } else if (text.startsWith("data")) {
      bus.publish(artifact(taskId, contextId, [{ content: { $case: "data", value: { echo: text } }, metadata: undefined, filename: "", mediaType: "application/json" }]));
      bus.publish(status(taskId, contextId, TASK_STATE.COMPLETED));
    } else {
      bus.publish(artifact(taskId, contextId, [textPart("echo: " + text)]));
      bus.publish(status(taskId, contextId, TASK_STATE.COMPLETED));
    }
    bus.finished();
  }

  async cancelTask(taskId, bus) {
    if (uncancelable.has(taskId)) throw new TaskNotCancelableError(`Task not cancelable: ${taskId}`);
    canceled.add(taskId);
    bus.publish(status(taskId, contexts.get(taskId) ?? "", TASK_STATE.CANCELED, "canceled on request"));
    bus.finished();
  }
}

const app = express();
const server = app.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const port = server.address().port;
  const base = `http://127.0.0.1:${port}`;
  const card = {
    name: "sample agent", description: "Echoes, asks, fails or rejects by the message's text.", version: "1.0.0",
    supportedInterfaces: [
      { url: base + "/a2a/jsonrpc", protocolBinding: "JSONRPC", protocolVersion: "1.0", tenant: "" },
      { url: base + "/a2a/rest", protocolBinding: "HTTP+JSON", protocolVersion: "1.0", tenant: "" },
    ],
    capabilities: { streaming: true, pushNotifications: false, extensions: [] },
    defaultInputModes: ["text/plain"], defaultOutputModes: ["text/plain", "application/json"],
    skills: [{ id: "echo", name: "echo", description: "echoes", tags: ["echo"], examples: [], inputModes: [], outputModes: [], securityRequirements: [] }],
    securitySchemes: {}, securityRequirements: [], signatures: [],
  };
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new Executor());
  const cancelTask = handler.cancelTask.bind(handler);
  handler.cancelTask = (params, context) => {
    cancels.push(params.id);
    return cancelTask(params, context);
  };
  app.use("/.well-known/agent-card.json", agentCardHandler({ agentCardProvider: handler }));
  app.use("/a2a/jsonrpc", jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  app.use("/a2a/rest", restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  app.get("/stats", (req, res) => res.json({ messages: received.length, messageIds: received, cancels }));
  console.log("listening " + port);
});

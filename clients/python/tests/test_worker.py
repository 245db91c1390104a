"""The Python tool worker against a real runsvc: tools called from a Run,
tool error isolation, cancellation, and reconnection after the stream
drops."""

import os
import subprocess
import sys
import threading
import time
import unittest

import grpc
from google.protobuf import json_format

import support
from runsvc_client import classify, classify_status
from runsvc_client.worker import Tool, Worker
from runsvc.v1 import run_pb2, run_pb2_grpc, spec_pb2, spec_pb2_grpc, tool_pb2, tool_pb2_grpc, record_pb2

EXAMPLE_WORKER = os.path.join(support.PY_DIR, "examples", "worker.py")

PY_WORKER_SPEC = {
    "name": "py-worker",
    "model": {"provider": "scripted", "script": {"turns": [
        {"toolCalls": [{"name": "py_upper", "arguments": {"text": "hello"}}]},
        {"toolCalls": [{"name": "py_fail", "arguments": {}}]},
        {"text": "done"},
    ]}},
    "tools": [{"name": "py_upper", "kind": "TOOL_KIND_WORKER"},
              {"name": "py_fail", "kind": "TOOL_KIND_WORKER"}],
}


def wait_for_tools(tools_stub, names, timeout=15.0):
    """Waits until ListTools shows a worker for each name."""
    deadline = time.monotonic() + timeout
    seen = {}
    while time.monotonic() < deadline:
        resp = tools_stub.ListTools(tool_pb2.ListToolsRequest(), timeout=5)
        seen = {t.name: t.workers for t in resp.tools}
        if all(seen.get(n, 0) >= 1 for n in names):
            return
        time.sleep(0.05)
    raise AssertionError(f"workers for {names} never connected; ListTools shows {seen}")


class PythonWorkerTest(unittest.TestCase):
    """examples/worker.py as its own process, serving py_upper and py_fail."""

    @classmethod
    def setUpClass(cls):
        cls.server = support.start_server(cls)
        cls.channel = grpc.insecure_channel(cls.server.addr)
        cls.addClassCleanup(cls.channel.close)
        cls.specs = spec_pb2_grpc.SpecServiceStub(cls.channel)
        cls.runs = run_pb2_grpc.RunServiceStub(cls.channel)
        cls.tools = tool_pb2_grpc.ToolServiceStub(cls.channel)
        cls.worker_log = open(os.path.join(cls.server.dir, "worker.log"), "wb")
        cls.addClassCleanup(cls.worker_log.close)
        cls.worker = subprocess.Popen(
            [sys.executable, EXAMPLE_WORKER, "--target", cls.server.addr, "--name", "py-test-worker"],
            stdout=cls.worker_log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        cls.addClassCleanup(cls._stop_worker)
        wait_for_tools(cls.tools, ["py_upper", "py_fail"])

    @classmethod
    def _stop_worker(cls):
        cls.worker.terminate()
        try:
            cls.worker.wait(5)
        except subprocess.TimeoutExpired:
            cls.worker.kill()
            cls.worker.wait(5)

    def worker_log_tail(self):
        with open(self.worker_log.name, encoding="utf-8", errors="replace") as f:
            return "".join(f.readlines()[-20:])

    def test_run_calls_python_tools_and_survives_their_errors(self):
        spec = spec_pb2.PublishSpecRequest()
        json_format.ParseDict({"spec": PY_WORKER_SPEC}, spec)
        self.specs.PublishSpec(spec, timeout=10)
        run = self.runs.StartRun(run_pb2.StartRunRequest(spec="py-worker", input="shout"), timeout=10).run

        deadline = time.monotonic() + 30
        while run.state not in (record_pb2.RUN_STATE_COMPLETED, record_pb2.RUN_STATE_FAILED,
                                record_pb2.RUN_STATE_ABORTED, record_pb2.RUN_STATE_ABANDONED):
            self.assertLess(time.monotonic(), deadline, f"run never settled: {run}")
            req = run_pb2.WaitRunRequest(run_id=run.run_id)
            req.wait.FromSeconds(10)
            run = self.runs.WaitRun(req, timeout=20).run
        self.assertEqual(record_pb2.RunState.Name(run.state), "RUN_STATE_COMPLETED",
                         f"failure: {classify_status(run.failure)}\nworker log:\n{self.worker_log_tail()}")
        self.assertEqual(run.answer, "done")

        finished = {}
        settled = None
        for msg in self.runs.WatchRun(run_pb2.WatchRunRequest(run_id=run.run_id), timeout=20):
            kind = msg.record.WhichOneof("body")
            if kind == "tool_call_finished":
                finished[msg.record.tool_call_finished.name] = msg.record.tool_call_finished
            elif kind == "settled":
                settled = msg.record.settled
        self.assertIsNotNone(settled, "WatchRun ended before the settled record")
        self.assertEqual(record_pb2.RunState.Name(settled.state), "RUN_STATE_COMPLETED")

        upper = finished.get("py_upper")
        self.assertIsNotNone(upper, f"no ToolCallFinished for py_upper in {list(finished)}")
        self.assertFalse(upper.HasField("error"), f"py_upper failed: {classify_status(upper.error)}")
        self.assertEqual(json_format.MessageToDict(upper.output), "HELLO")

        fail = finished.get("py_fail")
        self.assertIsNotNone(fail, f"no ToolCallFinished for py_fail in {list(finished)}")
        self.assertFalse(fail.HasField("output"))
        self.assertTrue(fail.HasField("error"))
        c = classify_status(fail.error)
        self.assertEqual(c.reason, "TOOL_FAILED", c)
        self.assertEqual(c.domain, "runsvc")
        self.assertEqual(c.code, "UNAVAILABLE")
        self.assertTrue(c.retryable, c)
        self.assertIsNotNone(c.retry_delay)
        self.assertEqual(c.metadata.get("tool"), "py_fail")
        self.assertIn("boom", c.message)

    def test_invoke_tool_directly(self):
        req = tool_pb2.InvokeToolRequest(name="py_upper")
        req.arguments.update({"text": "direct"})
        resp = self.tools.InvokeTool(req, timeout=10)
        self.assertFalse(resp.HasField("error"), classify_status(resp.error))
        self.assertEqual(json_format.MessageToDict(resp.output), "DIRECT")

        resp = self.tools.InvokeTool(tool_pb2.InvokeToolRequest(name="py_fail"), timeout=10)
        c = classify_status(resp.error)
        self.assertEqual((c.code, c.reason, c.retryable), ("UNAVAILABLE", "TOOL_FAILED", True), c)

    def test_unknown_tool_is_an_rpc_error(self):
        with self.assertRaises(grpc.RpcError) as cm:
            self.tools.InvokeTool(tool_pb2.InvokeToolRequest(name="py_nobody"), timeout=10)
        c = classify(cm.exception)
        self.assertEqual((c.code, c.reason, c.retryable, c.pushback_ms), ("NOT_FOUND", "TOOL_NOT_FOUND", False, -1))
        self.assertIn("py_upper", c.metadata.get("availableTools", ""))


class InProcessWorkerTest(unittest.TestCase):
    """The Worker class in this process: cancellation and reconnection."""

    @classmethod
    def setUpClass(cls):
        cls.server = support.start_server(cls)

    def setUp(self):
        self.channel = grpc.insecure_channel(self.server.addr)
        self.addCleanup(self.channel.close)
        self.tools = tool_pb2_grpc.ToolServiceStub(self.channel)

    def test_cancel_reaches_the_handler(self):
        started, cancelled = threading.Event(), threading.Event()

        def py_slow(args, call):
            started.set()
            if call.cancelled.wait(10):
                cancelled.set()
            return "too late"

        w = Worker(self.server.addr, [Tool("py_slow", py_slow)], name="py-cancel").start()
        self.addCleanup(w.stop)
        self.assertTrue(w.wait_registered(10))
        wait_for_tools(self.tools, ["py_slow"])
        req = tool_pb2.InvokeToolRequest(name="py_slow")
        # Long enough for the call to reach the worker on a loaded machine
        # (300 ms was not, with ~5 suites sharing 2 cores), short enough
        # to end well within the handler's 10 s wait.
        req.timeout.FromMilliseconds(2000)
        try:
            resp = self.tools.InvokeTool(req, timeout=10)
            self.assertTrue(resp.HasField("error"), f"a call past its timeout succeeded: {resp}")
        except grpc.RpcError:
            pass  # either way, the call is withdrawn from the worker
        self.assertTrue(started.is_set(), "the worker never got the call")
        self.assertTrue(cancelled.wait(10), "the worker's handler never saw the cancel")

    def test_reconnects_after_the_stream_drops(self):
        w = Worker(self.server.addr, {"py_echo": lambda args: args}, name="py-reconnect",
                   min_backoff=0.1, max_backoff=0.5).start()
        self.addCleanup(w.stop)
        self.assertTrue(w.wait_registered(10))
        self.assertEqual(self._echo({"n": 1}), {"n": 1})

        # The server dies abruptly and comes back on the same address.
        self.server.kill(graceful=False)
        self.server.start()
        deadline = time.monotonic() + 20
        while w.connections < 2:
            self.assertLess(time.monotonic(), deadline, "the worker never reconnected")
            time.sleep(0.05)
        channel = grpc.insecure_channel(self.server.addr)
        self.addCleanup(channel.close)
        self.tools = tool_pb2_grpc.ToolServiceStub(channel)
        wait_for_tools(self.tools, ["py_echo"])
        self.assertEqual(self._echo({"n": 2}), {"n": 2})

    def _echo(self, args):
        req = tool_pb2.InvokeToolRequest(name="py_echo")
        req.arguments.update(args)
        resp = self.tools.InvokeTool(req, timeout=10)
        self.assertFalse(resp.HasField("error"), classify_status(resp.error))
        return json_format.MessageToDict(resp.output)


class ResultCacheTest(unittest.TestCase):
    """Issue 20, item 4: runsvc is killed while a worker call runs; the
    Run's next Attempt sends the call again with the same call_id, and the
    worker answers it from its cache: the handler runs once. Without the
    cache (result_cache_size=0) it runs again."""

    @classmethod
    def setUpClass(cls):
        cls.server = support.Server(env={"RUNSVC_LEASE_TTL": "1s"})
        cls.addClassCleanup(cls.server.stop)
        cls.server.start()

    def _call_through_a_kill(self, cache_size):
        """One Run's call to a tool whose first run holds until runsvc was
        killed, restarted and sent the call again; returns the worker, the
        call ids the handler ran for and the call's recorded output."""
        ran, started, release = [], threading.Event(), threading.Event()
        self.addCleanup(release.set)

        def handler(args, call):
            ran.append(call.call_id)
            n = len(ran)
            if n == 1:
                started.set()
                release.wait(30)
            return f"run {n}"

        name = f"py_once_{cache_size}"
        w = Worker(self.server.addr, [Tool(name, handler)], name=name, min_backoff=0.1, max_backoff=0.5,
                   result_cache_size=cache_size).start()
        self.addCleanup(w.stop)
        self.assertTrue(w.wait_registered(10))
        channel = grpc.insecure_channel(self.server.addr)
        self.addCleanup(channel.close)
        spec = spec_pb2.PublishSpecRequest()
        json_format.ParseDict({"spec": {
            "name": name, "tools": [{"name": name, "kind": "TOOL_KIND_WORKER"}],
            "limits": {"transientRetryBudget": 100},
            "model": {"provider": "scripted", "script": {"turns": [
                {"toolCalls": [{"name": name, "arguments": {}}]}, {"text": "done"}]}}}}, spec)
        spec_pb2_grpc.SpecServiceStub(channel).PublishSpec(spec, timeout=10)
        runs = run_pb2_grpc.RunServiceStub(channel)
        run_id = runs.StartRun(run_pb2.StartRunRequest(spec=name, input="go"), timeout=10).run.run_id
        self.assertTrue(started.wait(30), "the call never reached the worker")

        self.server.kill(graceful=False)
        self.server.start()
        deadline = time.monotonic() + 30
        while w.received < 2:  # the next Attempt sent the call again
            self.assertLess(time.monotonic(), deadline, "the call was never sent again")
            time.sleep(0.05)
        release.set()

        run = None
        while run is None or run.state != record_pb2.RUN_STATE_COMPLETED:
            self.assertLess(time.monotonic(), deadline + 30, f"the run never completed: {run}")
            req = run_pb2.WaitRunRequest(run_id=run_id)
            req.wait.FromSeconds(5)
            run = runs.WaitRun(req, timeout=10).run
        outputs = [json_format.MessageToDict(m.record.tool_call_finished.output)
                   for m in runs.WatchRun(run_pb2.WatchRunRequest(run_id=run_id), timeout=20)
                   if m.record.WhichOneof("body") == "tool_call_finished"]
        self.assertEqual(len(outputs), 1, outputs)
        return w, ran, outputs[0]

    def test_a_call_sent_again_is_answered_from_the_cache(self):
        w, ran, output = self._call_through_a_kill(4096)
        self.assertEqual(len(ran), 1, f"the handler ran for {ran}")
        self.assertEqual((output, w.runs, w.received), ("run 1", 1, 2))
        self.assertIn("/", ran[0], "the call_id is the idempotency key, run id / call id")

    def test_without_the_cache_the_call_runs_again(self):
        w, ran, output = self._call_through_a_kill(0)
        self.assertEqual(ran, [ran[0], ran[0]], "the call should run twice, with one call_id")
        self.assertEqual((output, w.runs), ("run 2", 2))


if __name__ == "__main__":
    unittest.main()

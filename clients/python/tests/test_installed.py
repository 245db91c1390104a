"""The installed package: its version and files, the sync and asyncio
clients against a real runsvc, and the retry helper against a real gRPC
server on 127.0.0.1 that answers with RetryInfo."""

import asyncio
import os
import threading
import unittest
from concurrent import futures

import grpc
from google.protobuf import any_pb2, duration_pb2

import support
import runsvc_client
from runsvc_client import AsyncClient, Client, call_with_retry, call_with_retry_async, classify, reasons
from google.rpc import error_details_pb2, status_pb2
from runsvc.v1 import run_pb2, run_pb2_grpc

INSTALLED = os.environ.get("RUNSVC_PY_INSTALLED") == "1"


class TestInstalledPackage(unittest.TestCase):
    @unittest.skipUnless(INSTALLED, "runs only against the installed package (RUNSVC_PY_INSTALLED=1)")
    def test_imported_from_site_packages(self):
        from importlib import metadata
        import google.rpc
        import runsvc.v1
        for mod in (runsvc_client, runsvc.v1, google.rpc):
            self.assertIn("site-packages", mod.__file__, f"{mod.__name__} came from {mod.__file__}")
            self.assertFalse(mod.__file__.startswith(support.REPO), mod.__file__)
        self.assertEqual(metadata.version("runsvc-client"), reasons.VERSION)
        pkg = os.path.dirname(runsvc_client.__file__)
        self.assertTrue(os.path.exists(os.path.join(pkg, "py.typed")))
        self.assertTrue(os.path.exists(os.path.join(os.path.dirname(runsvc.v1.__file__), "run_pb2.pyi")))
        self.assertFalse(os.path.exists(os.path.join(os.path.dirname(os.path.dirname(google.rpc.__file__)), "__init__.py")),
                         "google/__init__.py must never be installed")

    def test_version_is_the_catalogues(self):
        self.assertEqual(runsvc_client.__version__, reasons.VERSION)
        self.assertIn(reasons.RUN_NOT_FOUND, reasons.REASONS)
        self.assertIn(reasons.OVERLOADED, reasons.RETRYABLE)
        self.assertNotIn(reasons.RUN_NOT_FOUND, reasons.RETRYABLE)


class TestClientsAgainstRunsvc(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = support.start_server(cls)

    def test_sync_client(self):
        with Client(self.server.addr) as c:
            with self.assertRaises(grpc.RpcError) as cm:
                c.call(c.runs.GetRun, run_pb2.GetRunRequest(run_id="run_missing"), deadline=10)
            got = classify(cm.exception)
            self.assertEqual(got.reason, reasons.RUN_NOT_FOUND)
            self.assertEqual(got.domain, reasons.DEFAULT_DOMAIN)
            self.assertFalse(got.retryable)

    def test_async_client(self):
        async def main():
            async with AsyncClient(self.server.addr) as c:
                try:
                    await c.call(c.runs.GetRun, run_pb2.GetRunRequest(run_id="run_missing"), deadline=10)
                except grpc.RpcError as err:
                    return classify(err)
            return None

        got = asyncio.run(main())
        self.assertIsNotNone(got, "GetRun of a missing run succeeded")
        self.assertEqual(got.reason, reasons.RUN_NOT_FOUND)
        self.assertEqual(got.code, "NOT_FOUND")


def _status_trailer(reason, domain, delay):
    st = status_pb2.Status(code=grpc.StatusCode.UNAVAILABLE.value[0], message="server overloaded: test")
    info = any_pb2.Any()
    info.Pack(error_details_pb2.ErrorInfo(reason=reason, domain=domain))
    st.details.append(info)
    if delay is not None:
        ri = any_pb2.Any()
        ri.Pack(error_details_pb2.RetryInfo(retry_delay=duration_pb2.Duration(
            seconds=int(delay), nanos=int((delay - int(delay)) * 1e9))))
        st.details.append(ri)
    return st.SerializeToString()


class _Scripted(run_pb2_grpc.RunServiceServicer):
    """GetRun fails with the queued (reason, domain, delay) errors, then
    answers."""

    def __init__(self):
        self.lock = threading.Lock()
        self.queue = []
        self.calls = 0

    def GetRun(self, request, context):
        with self.lock:
            self.calls += 1
            nxt = self.queue.pop(0) if self.queue else None
        if nxt is None:
            return run_pb2.GetRunResponse(run=run_pb2.Run(run_id=request.run_id))
        context.set_trailing_metadata((("grpc-status-details-bin", _status_trailer(*nxt)),))
        context.abort(grpc.StatusCode.UNAVAILABLE, "server overloaded: test")


class TestRetry(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.servicer = _Scripted()
        cls.grpc_server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
        run_pb2_grpc.add_RunServiceServicer_to_server(cls.servicer, cls.grpc_server)
        port = cls.grpc_server.add_insecure_port("127.0.0.1:0")
        cls.grpc_server.start()
        cls.addClassCleanup(cls.grpc_server.stop, None)
        cls.addr = f"127.0.0.1:{port}"

    def script(self, *errors):
        with self.servicer.lock:
            self.servicer.queue = list(errors)
            self.servicer.calls = 0

    def test_cases(self):
        cases = [
            # name, queued errors, deadline, calls, succeeds, waits
            ("retries until success", [("OVERLOADED", "runsvc", 0.02), ("OVERLOADED", "runsvc", 0.03)], None, 3, True, [0.02, 0.03]),
            ("not retryable", [("RUN_NOT_FOUND", "runsvc", None)], None, 1, False, []),
            ("wait past the deadline", [("OVERLOADED", "runsvc", 3600)], 30, 1, False, []),
            ("another domain", [("OVERLOADED", "other.example", 0.01)], None, 1, False, []),
        ]
        stub = run_pb2_grpc.RunServiceStub(grpc.insecure_channel(self.addr))
        for name, errs, deadline, calls, succeeds, waits in cases:
            with self.subTest(name):
                self.script(*errs)
                slept = []
                try:
                    resp = call_with_retry(lambda left: stub.GetRun(run_pb2.GetRunRequest(run_id="r"), timeout=left),
                                           deadline=deadline, sleep=slept.append)
                    self.assertTrue(succeeds, f"succeeded: {resp}")
                except grpc.RpcError as err:
                    self.assertFalse(succeeds, f"failed: {classify(err)}")
                self.assertEqual(self.servicer.calls, calls)
                self.assertEqual([round(s, 3) for s in slept], waits)

    def test_async(self):
        self.script(("OVERLOADED", "runsvc", 0.01))

        async def main():
            async with AsyncClient(self.addr) as c:
                return await c.call(c.runs.GetRun, run_pb2.GetRunRequest(run_id="a"), deadline=30)

        resp = asyncio.run(main())
        self.assertEqual(resp.run.run_id, "a")
        self.assertEqual(self.servicer.calls, 2)

    def test_async_helper_gives_up(self):
        self.script(("OVERLOADED", "runsvc", 3600))
        slept = []

        async def sleep(d):
            slept.append(d)

        async def main():
            async with grpc.aio.insecure_channel(self.addr) as ch:
                stub = run_pb2_grpc.RunServiceStub(ch)
                return await call_with_retry_async(
                    lambda left: stub.GetRun(run_pb2.GetRunRequest(run_id="b"), timeout=left), deadline=20, sleep=sleep)

        with self.assertRaises(grpc.RpcError) as cm:
            asyncio.run(main())
        self.assertEqual(classify(cm.exception).reason, "OVERLOADED")
        self.assertEqual(slept, [])
        self.assertEqual(self.servicer.calls, 1)


if __name__ == "__main__":
    unittest.main()

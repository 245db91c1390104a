"""A Run end to end over TLS with an API key, and the failures of a wrong
CA and a missing token. Run by clients/python/tls_test.go, which starts a
runsvc with its own CA, certificates and keys file and passes them in
RUNSVC_TLS_TARGET, RUNSVC_TLS_CA, RUNSVC_TLS_WRONG_CA and RUNSVC_TLS_TOKEN;
skipped otherwise."""

import os
import unittest

import grpc
from google.protobuf import duration_pb2, json_format, struct_pb2

import support  # noqa: F401 (sys.path)
from runsvc_client import classify
from runsvc_client.connect import channel
from runsvc.v1 import record_pb2, run_pb2, run_pb2_grpc, spec_pb2, spec_pb2_grpc

HELLO = {
    "name": "hello-tls",
    "model": {"provider": "scripted", "script": {"turns": [
        {"text": "Let me look.", "toolCalls": [{"name": "lookup", "arguments": {"q": "weather"}}]},
        {"text": "It is sunny."},
    ]}},
    "tools": [{"name": "lookup", "kind": "TOOL_KIND_CLIENT", "description": "Look things up"}],
}

ENV = ("RUNSVC_TLS_TARGET", "RUNSVC_TLS_CA", "RUNSVC_TLS_WRONG_CA", "RUNSVC_TLS_TOKEN")


@unittest.skipUnless(all(os.environ.get(k) for k in ENV), "skipped: needs the TLS server of clients/python/tls_test.go")
class TLSTest(unittest.TestCase):
    def setUp(self):
        self.target = os.environ["RUNSVC_TLS_TARGET"]
        self.ca = os.environ["RUNSVC_TLS_CA"]
        self.token = os.environ["RUNSVC_TLS_TOKEN"]

    def test_run_end_to_end(self):
        ch = channel(self.target, ca=self.ca, token=self.token)
        self.addCleanup(ch.close)
        specs, runs = spec_pb2_grpc.SpecServiceStub(ch), run_pb2_grpc.RunServiceStub(ch)
        spec = json_format.ParseDict(HELLO, spec_pb2.Spec())
        specs.PublishSpec(spec_pb2.PublishSpecRequest(spec=spec), timeout=10)
        run = runs.StartRun(run_pb2.StartRunRequest(spec="hello-tls", input="weather?"), timeout=10).run
        wait = duration_pb2.Duration(seconds=10)
        got = runs.WaitRun(run_pb2.WaitRunRequest(run_id=run.run_id, wait=wait), timeout=20).run
        self.assertEqual(record_pb2.RunState.Name(got.state), "RUN_STATE_SUSPENDED")
        result = record_pb2.ToolResult(call_id="call_1_1", output=struct_pb2.Value(string_value="sunny"))
        runs.ResumeRun(run_pb2.ResumeRunRequest(run_id=run.run_id, tool_results=[result]), timeout=10)
        for _ in range(20):
            got = runs.WaitRun(run_pb2.WaitRunRequest(run_id=run.run_id, wait=wait), timeout=20).run
            if got.state not in (record_pb2.RUN_STATE_QUEUED, record_pb2.RUN_STATE_RUNNING, record_pb2.RUN_STATE_SUSPENDED):
                break
        self.assertEqual(record_pb2.RunState.Name(got.state), "RUN_STATE_COMPLETED")

    def test_wrong_ca(self):
        ch = channel(self.target, ca=os.environ["RUNSVC_TLS_WRONG_CA"], token=self.token)
        self.addCleanup(ch.close)
        with self.assertRaises(grpc.RpcError) as cm:
            run_pb2_grpc.RunServiceStub(ch).ListRuns(run_pb2.ListRunsRequest(), timeout=10)
        self.assertEqual(cm.exception.code(), grpc.StatusCode.UNAVAILABLE)
        print("wrong CA:", cm.exception.details())
        self.assertRegex(cm.exception.details().lower(), "ssl|certificate|handshake")

    def test_no_token(self):
        ch = channel(self.target, ca=self.ca, token="")
        self.addCleanup(ch.close)
        with self.assertRaises(grpc.RpcError) as cm:
            run_pb2_grpc.RunServiceStub(ch).ListRuns(run_pb2.ListRunsRequest(), timeout=10)
        self.assertEqual(classify(cm.exception).reason, "UNAUTHENTICATED")


if __name__ == "__main__":
    unittest.main()

"""classify() and classify_status() on hand-made statuses (no server)."""

import unittest

import grpc
from google.protobuf import any_pb2, duration_pb2

import support  # noqa: F401 (paths)
from runsvc_client import PUSHBACK_TRAILER, STATUS_DETAILS_TRAILER, classify, classify_status
from google.rpc import code_pb2, error_details_pb2, status_pb2


def packed(*msgs):
    out = []
    for m in msgs:
        a = any_pb2.Any()
        a.Pack(m)
        out.append(a)
    return out


class FakeRpcError(grpc.RpcError, grpc.Call):
    """What a stub raises: an RpcError that is also a Call."""

    def __init__(self, code, details, trailers=()):
        self._code, self._details, self._trailers = code, details, tuple(trailers)

    def code(self):
        return self._code

    def details(self):
        return self._details

    def trailing_metadata(self):
        return self._trailers

    def initial_metadata(self):
        return ()

    def is_active(self):
        return False

    def time_remaining(self):
        return None

    def cancel(self):
        return False

    def add_callback(self, callback):
        return False


class ClassifyTest(unittest.TestCase):
    def test_retryable_rpc_error_with_pushback(self):
        st = status_pb2.Status(code=code_pb2.UNAVAILABLE, message="tool flaky failed: boom", details=packed(
            error_details_pb2.ErrorInfo(reason="TOOL_FAILED", domain="runsvc", metadata={"tool": "flaky", "detail": "boom"}),
            error_details_pb2.RetryInfo(retry_delay=duration_pb2.Duration(seconds=1, nanos=500_000_000)),
        ))
        err = FakeRpcError(grpc.StatusCode.UNAVAILABLE, st.message, [
            (STATUS_DETAILS_TRAILER, st.SerializeToString()), (PUSHBACK_TRAILER, "1500")])
        c = classify(err)
        self.assertEqual((c.code, c.code_number, c.reason, c.domain), ("UNAVAILABLE", 14, "TOOL_FAILED", "runsvc"))
        self.assertEqual(c.metadata, {"tool": "flaky", "detail": "boom"})
        self.assertTrue(c.retryable)
        self.assertAlmostEqual(c.retry_delay, 1.5)
        self.assertEqual(c.retry_delay_ms, 1500)
        self.assertEqual((c.pushback, c.pushback_ms), ("1500", 1500))
        self.assertIsInstance(c.detail(error_details_pb2.RetryInfo), error_details_pb2.RetryInfo)
        self.assertEqual(c.message, "tool flaky failed: boom")

    def test_non_retryable_rpc_error(self):
        st = status_pb2.Status(code=code_pb2.INVALID_ARGUMENT, message="bad", details=packed(
            error_details_pb2.ErrorInfo(reason="INVALID_REQUEST", domain="runsvc", metadata={"violationCount": "1"}),
            error_details_pb2.BadRequest(field_violations=[
                error_details_pb2.BadRequest.FieldViolation(field="run_id", description="is required")]),
        ))
        c = classify(FakeRpcError(grpc.StatusCode.INVALID_ARGUMENT, "bad", [
            (STATUS_DETAILS_TRAILER, st.SerializeToString()), (PUSHBACK_TRAILER, "-1")]))
        self.assertEqual((c.code, c.reason, c.retryable, c.retry_delay, c.pushback_ms), ("INVALID_ARGUMENT", "INVALID_REQUEST", False, None, -1))
        self.assertEqual(c.detail(error_details_pb2.BadRequest).field_violations[0].field, "run_id")

    def test_rpc_error_without_details_degrades_to_its_code(self):
        c = classify(FakeRpcError(grpc.StatusCode.DEADLINE_EXCEEDED, "Deadline Exceeded"))
        self.assertEqual((c.code, c.message, c.reason, c.domain, c.metadata), ("DEADLINE_EXCEEDED", "Deadline Exceeded", "", "", {}))
        self.assertFalse(c.retryable)
        self.assertIsNone(c.retry_delay)
        self.assertIsNone(c.pushback)

    def test_undecodable_details_trailer_degrades_to_its_code(self):
        c = classify(FakeRpcError(grpc.StatusCode.INTERNAL, "x", [(STATUS_DETAILS_TRAILER, b"\xff\xff\xff")]))
        self.assertEqual((c.code, c.reason), ("INTERNAL", ""))

    def test_not_a_grpc_error(self):
        c = classify(ValueError("nope"))
        self.assertEqual((c.code, c.message), ("UNKNOWN", "nope"))

    def test_status_from_a_response(self):
        st = status_pb2.Status(code=code_pb2.RESOURCE_EXHAUSTED, message="m", details=packed(
            error_details_pb2.ErrorInfo(reason="BUDGET_EXCEEDED", domain="runsvc", metadata={"dimension": "tokens"}),
            error_details_pb2.QuotaFailure(),
        ))
        c = classify_status(st)
        self.assertEqual((c.code, c.reason, c.retryable, c.pushback), ("RESOURCE_EXHAUSTED", "BUDGET_EXCEEDED", False, None))
        self.assertIsNotNone(c.detail(error_details_pb2.QuotaFailure))

    def test_status_without_details_and_unknown_detail_types(self):
        c = classify_status(status_pb2.Status(code=code_pb2.NOT_FOUND, message="gone"))
        self.assertEqual((c.code, c.message, c.reason, c.metadata, c.retryable), ("NOT_FOUND", "gone", "", {}, False))
        unknown = any_pb2.Any(type_url="type.googleapis.com/example.Unknown", value=b"\x08\x01")
        c = classify_status(status_pb2.Status(code=code_pb2.INTERNAL, details=[unknown]))
        self.assertEqual([d.type_url for d in c.details], [unknown.type_url])
        self.assertIsInstance(c.details[0], any_pb2.Any)

    def test_none_is_ok(self):
        self.assertEqual(classify_status(None).code, "OK")


if __name__ == "__main__":
    unittest.main()

"""Classify runsvc failures: RPC errors and google.rpc.Status values.

Every runsvc failure is a ``google.rpc.Status`` whose first detail is an
``ErrorInfo{reason, domain, metadata}``; it is retryable if and only if a
``RetryInfo`` detail is present. RPC errors carry the status in the
``grpc-status-details-bin`` trailer and the retry delay again in
``grpc-retry-pushback-ms`` (``-1`` when not retryable).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Optional

import grpc
from google.protobuf import any_pb2, message, symbol_database
from google.rpc import code_pb2, error_details_pb2, status_pb2

STATUS_DETAILS_TRAILER = "grpc-status-details-bin"
PUSHBACK_TRAILER = "grpc-retry-pushback-ms"


@dataclasses.dataclass
class Classification:
    """What a client needs to decide about a failure: what it was, and
    whether and when to retry it."""

    code: str = "OK"
    """The status code's name, e.g. ``NOT_FOUND``."""
    code_number: int = 0
    message: str = ""
    reason: str = ""
    domain: str = ""
    metadata: dict = dataclasses.field(default_factory=dict)
    retryable: bool = False
    retry_delay: Optional[float] = None
    """Seconds to wait before retrying, from RetryInfo; None if not retryable."""
    pushback: Optional[str] = None
    """The raw ``grpc-retry-pushback-ms`` trailer; None for a status read
    from a response or when the trailer is absent."""
    pushback_ms: Optional[int] = None
    """The pushback trailer as an int (-1: do not retry), if present and valid."""
    details: list = dataclasses.field(default_factory=list, repr=False)
    """Every detail, unpacked to its message type (an Any if unknown)."""
    status: Optional[status_pb2.Status] = dataclasses.field(default=None, repr=False)
    """The google.rpc.Status itself."""

    def detail(self, kind: type) -> Optional[message.Message]:
        """Returns the first detail of a message type, e.g.
        ``c.detail(error_details_pb2.BadRequest)``, or None."""
        for d in self.details:
            if isinstance(d, kind):
                return d
        return None

    @property
    def retry_delay_ms(self) -> Optional[int]:
        """The RetryInfo delay in whole milliseconds, or None."""
        if self.status is None:
            return None
        ri = self.detail(error_details_pb2.RetryInfo)
        if ri is None:
            return None
        return ri.retry_delay.seconds * 1000 + ri.retry_delay.nanos // 1_000_000


def _code_name(number: int) -> str:
    try:
        return code_pb2.Code.Name(number)
    except ValueError:
        return "UNKNOWN"


def _unpack(a: any_pb2.Any) -> message.Message:
    """Unpacks an Any whose type is known to this process, else returns it."""
    name = a.TypeName()
    try:
        cls = symbol_database.Default().GetSymbol(name)
    except KeyError:
        return a
    msg = cls()
    return msg if a.Unpack(msg) else a


def classify_status(st: Optional[status_pb2.Status]) -> Classification:
    """Classifies a google.rpc.Status: a Run's ``failure``, a tool call's
    ``error``. A status without details classifies by its code alone; None
    is OK."""
    if st is None:
        return Classification()
    c = Classification(
        code=_code_name(st.code), code_number=st.code, message=st.message, status=st
    )
    for a in st.details:
        d = _unpack(a)
        c.details.append(d)
        if isinstance(d, error_details_pb2.ErrorInfo) and not c.reason:
            c.reason, c.domain = d.reason, d.domain
            c.metadata = dict(d.metadata)
        elif isinstance(d, error_details_pb2.RetryInfo) and not c.retryable:
            c.retryable = True
            c.retry_delay = d.retry_delay.seconds + d.retry_delay.nanos / 1e9
    return c


def _trailer(md: Any, key: str) -> list:
    return [v for k, v in (md or ()) if k == key]


def classify(rpc_error: BaseException) -> Classification:
    """Classifies an RPC error raised by a stub (``grpc.RpcError``) from its
    ``grpc-status-details-bin`` trailer and pushback trailer. An error
    without the details trailer classifies by its gRPC code alone; an
    exception that is not a gRPC error is UNKNOWN."""
    code_fn = getattr(rpc_error, "code", None)
    if not callable(code_fn):
        return Classification(code="UNKNOWN", code_number=2, message=str(rpc_error))
    code = code_fn() or grpc.StatusCode.UNKNOWN
    details_fn = getattr(rpc_error, "details", None)
    msg = (details_fn() if callable(details_fn) else "") or ""
    md_fn = getattr(rpc_error, "trailing_metadata", None)
    md = (md_fn() if callable(md_fn) else None) or ()

    st = None
    raw = _trailer(md, STATUS_DETAILS_TRAILER)
    if raw:
        try:
            st = status_pb2.Status.FromString(raw[0])
        except message.DecodeError:
            pass
    if st is None:
        st = status_pb2.Status(code=code.value[0], message=msg)
    c = classify_status(st)

    pushback = _trailer(md, PUSHBACK_TRAILER)
    if pushback:
        c.pushback = ",".join(str(v) for v in pushback)
        try:
            c.pushback_ms = int(c.pushback)
        except ValueError:
            c.pushback_ms = None
    return c

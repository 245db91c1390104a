"""Clients of a runsvc server: :class:`Client` (blocking) and
:class:`AsyncClient` (``grpc.aio``).

    from runsvc.v1 import run_pb2
    from runsvc_client import Client

    with Client("127.0.0.1:50051") as c:
        run = c.call(c.runs.GetRun, run_pb2.GetRunRequest(run_id="run_1"))

Each has a stub per runsvc.v1 service (``runs``, ``specs``, ``tools``,
``memory``, ``bus``, ``delegations``); :meth:`Client.call` calls a unary
method with :func:`~runsvc_client.retry.call_with_retry`, so retryable
errors are retried after RetryInfo's delay within the deadline.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, Tuple

import grpc
from grpc import aio

from runsvc.v1 import (
    bus_pb2_grpc,
    delegation_pb2_grpc,
    memory_pb2_grpc,
    run_pb2_grpc,
    spec_pb2_grpc,
    tool_pb2_grpc,
)

from .reasons import DEFAULT_DOMAIN
from .retry import DEFAULT_MAX_ATTEMPTS, call_with_retry, call_with_retry_async

DEFAULT_TARGET = "127.0.0.1:50051"

_STUBS = {
    "runs": run_pb2_grpc.RunServiceStub,
    "specs": spec_pb2_grpc.SpecServiceStub,
    "tools": tool_pb2_grpc.ToolServiceStub,
    "memory": memory_pb2_grpc.MemoryServiceStub,
    "bus": bus_pb2_grpc.BusServiceStub,
    "delegations": delegation_pb2_grpc.DelegationServiceStub,
}


class _Stubs:
    runs: run_pb2_grpc.RunServiceStub
    specs: spec_pb2_grpc.SpecServiceStub
    tools: tool_pb2_grpc.ToolServiceStub
    memory: memory_pb2_grpc.MemoryServiceStub
    bus: bus_pb2_grpc.BusServiceStub
    delegations: delegation_pb2_grpc.DelegationServiceStub

    def _open(self, channels: Any, target: str, credentials: Optional[grpc.ChannelCredentials],
              token: Optional[str], options: Sequence[Tuple[str, Any]], domain: str,
              max_attempts: int) -> None:
        """Opens the channel with ``channels`` (``grpc`` or ``grpc.aio``)
        and binds a stub per service to it."""
        if credentials is None:
            self.channel = channels.insecure_channel(target, options=options)
        else:
            self.channel = channels.secure_channel(target, credentials, options=options)
        self.domain, self.max_attempts = domain, max_attempts
        self._metadata = (("authorization", "Bearer " + token),) if token else ()
        for name, stub in _STUBS.items():
            setattr(self, name, stub(self.channel))


class Client(_Stubs):
    """A blocking client over one channel. ``credentials`` makes it a
    secure channel; ``token`` sends ``authorization: Bearer <token>``."""

    def __init__(
        self,
        target: str = DEFAULT_TARGET,
        *,
        credentials: Optional[grpc.ChannelCredentials] = None,
        token: Optional[str] = None,
        options: Sequence[Tuple[str, Any]] = (),
        domain: str = DEFAULT_DOMAIN,
        max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    ) -> None:
        self._open(grpc, target, credentials, token, options, domain, max_attempts)

    def call(self, method: Any, request: Any, *, deadline: Optional[float] = None,
             metadata: Sequence[Tuple[str, str]] = (), retry: bool = True) -> Any:
        """Calls a unary stub method, e.g. ``c.runs.GetRun``, retrying
        retryable runsvc errors within ``deadline`` seconds."""
        md = tuple(self._metadata) + tuple(metadata)
        return call_with_retry(
            lambda left: method(request, timeout=left, metadata=md),
            max_attempts=self.max_attempts if retry else 1, deadline=deadline, domain=self.domain)

    def close(self) -> None:
        """Closes the channel."""
        self.channel.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class AsyncClient(_Stubs):
    """A ``grpc.aio`` client: the same stubs, whose methods are awaitable.
    Create it inside a running event loop."""

    def __init__(
        self,
        target: str = DEFAULT_TARGET,
        *,
        credentials: Optional[grpc.ChannelCredentials] = None,
        token: Optional[str] = None,
        options: Sequence[Tuple[str, Any]] = (),
        domain: str = DEFAULT_DOMAIN,
        max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    ) -> None:
        self._open(aio, target, credentials, token, options, domain, max_attempts)

    async def call(self, method: Any, request: Any, *, deadline: Optional[float] = None,
                   metadata: Sequence[Tuple[str, str]] = (), retry: bool = True) -> Any:
        """Awaits a unary stub method, retrying retryable runsvc errors
        within ``deadline`` seconds."""
        md = tuple(self._metadata) + tuple(metadata)
        return await call_with_retry_async(
            lambda left: method(request, timeout=left, metadata=md),
            max_attempts=self.max_attempts if retry else 1, deadline=deadline, domain=self.domain)

    async def close(self) -> None:
        """Closes the channel."""
        await self.channel.close()

    async def __aenter__(self) -> "AsyncClient":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

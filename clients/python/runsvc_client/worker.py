"""A runsvc tool worker: serves worker tools over ToolService.ServeTools.

    from runsvc_client.worker import ToolError, Worker

    def upper(args, call):
        return args["text"].upper()

    def flaky(args, call):
        raise ToolError("boom", retryable=True)

    w = Worker("127.0.0.1:50051", {"upper": upper, "flaky": flaky})
    w.serve_forever()          # or w.start() ... w.stop()

The worker sends ``register`` with its tools, runs every ``call`` it gets on
a thread pool (at most ``max_concurrency`` at once) and answers it with a
``result``: the handler's return value as a google.protobuf.Value, or
``error {message, retryable}`` when it raises (:class:`ToolError` says
whether retrying may help; any other exception is not retryable). A
``cancel`` sets ``call.cancelled`` and drops the result. When the stream
drops, the worker reconnects with backoff until stopped; runsvc gives the
calls of a vanished worker to another one, with the same ``call_id`` (use
it to deduplicate side effects).

A call can come again with a ``call_id`` the worker has seen: runsvc died,
or lost the stream, after the call reached the worker, and the Run's next
Attempt (on this runsvc or another replica) makes the call again. The
``call_id`` is the call's idempotency key (the one an http tool gets as
``Idempotency-Key``). The worker remembers the results of the last
``result_cache_size`` calls by ``call_id`` (4096 by default; 0 turns it
off) and answers such a call from there without running the handler
again; a call still running when it comes again is answered when its one
run ends (so a dropped stream does not cancel the calls running on it).
A retryable ``ToolError`` and a cancelled call's result are not
remembered: that call runs again. The cache lives in this process: a call
given to another worker process, or sent after this one restarted, runs
again there, so a handler whose side effect must happen once still
deduplicates by ``call.call_id`` in its own store.
"""

from __future__ import annotations

import collections
import concurrent.futures
import dataclasses
import inspect
import logging
import os
import queue
import socket
import threading
from typing import Any, Callable, Mapping, Optional, Union

import grpc
from google.protobuf import json_format

from . import GEN_DIR  # noqa: F401 (puts the generated stubs on sys.path)
from runsvc.v1 import tool_pb2, tool_pb2_grpc

log = logging.getLogger("runsvc_client.worker")

_CLOSE = object()


class _Outcome:
    """One run of a call: ``result`` once ``done``; ``waiters`` are the
    outboxes of the same call sent again while it ran."""

    __slots__ = ("done", "result", "waiters")

    def __init__(self) -> None:
        self.done = False
        self.result: Any = None
        self.waiters: list = []


class ToolError(Exception):
    """Raised by a handler: the call fails with this message; `retryable`
    tells the model (and runsvc) whether trying again may succeed."""

    def __init__(self, message: str, retryable: bool = False):
        super().__init__(message)
        self.message = message
        self.retryable = retryable


@dataclasses.dataclass
class Call:
    """One call to execute, as a handler sees it."""

    call_id: str
    name: str
    arguments: dict
    run_id: str = ""
    """The Run that made the call; empty for InvokeTool."""
    deadline: Any = None
    """When runsvc stops waiting (a UTC datetime), or None."""
    cancelled: threading.Event = dataclasses.field(default_factory=threading.Event)
    """Set when runsvc withdraws the call; the result is then dropped."""
    _outbox: Any = dataclasses.field(default=None, repr=False, compare=False)


@dataclasses.dataclass
class Tool:
    """A tool this worker serves. handler(args) or handler(args, call)
    returns any JSON value or raises ToolError."""

    name: str
    handler: Callable[..., Any]
    description: str = ""
    parameters: Optional[dict] = None
    """The arguments' JSON Schema."""

    def __post_init__(self) -> None:
        try:
            params = [p for p in inspect.signature(self.handler).parameters.values()
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL)]
            self._wants_call = len(params) >= 2 or any(p.kind == p.VAR_POSITIONAL for p in params)
        except (TypeError, ValueError):
            self._wants_call = True

    def invoke(self, call: Call) -> Any:
        return self.handler(call.arguments, call) if self._wants_call else self.handler(call.arguments)


class Worker:
    """Serves tools to a runsvc server until stopped; reconnects when the
    stream drops."""

    def __init__(
        self,
        target: str,
        tools: Union[Mapping[str, Callable[..., Any]], list],
        *,
        name: Optional[str] = None,
        max_concurrency: int = 16,
        channel: Optional[grpc.Channel] = None,
        min_backoff: float = 0.2,
        max_backoff: float = 5.0,
        result_cache_size: int = 4096,
    ):
        if isinstance(tools, Mapping):
            tools = [Tool(n, h) for n, h in tools.items()]
        self.tools = {t.name: t for t in tools}
        if not self.tools:
            raise ValueError("a worker serves at least one tool")
        self.target = target
        self.name = name or f"{socket.gethostname()}-{os.getpid()}-py"
        self.max_concurrency = max_concurrency
        self.min_backoff, self.max_backoff = min_backoff, max_backoff
        self._own_channel = channel is None
        self._channel = channel or grpc.insecure_channel(target)
        self._stub = tool_pb2_grpc.ToolServiceStub(self._channel)
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=max_concurrency, thread_name_prefix="runsvc-tool")
        self._stop = threading.Event()
        self._registered = threading.Event()
        self._lock = threading.Lock()
        self._responses: Any = None
        self._calls: dict = {}
        self.result_cache_size = result_cache_size
        self._results: "collections.OrderedDict[str, _Outcome]" = collections.OrderedDict()
        self.received = 0
        """How many calls runsvc sent, those answered from the cache too."""
        self.runs = 0
        """How many times a handler ran (a call answered from the cache is
        not counted)."""
        self._thread: Optional[threading.Thread] = None
        self.worker_id = ""
        self.connections = 0
        """How many times the worker registered (1 + reconnections)."""

    # -- lifecycle ---------------------------------------------------------

    def start(self) -> "Worker":
        """Serves in a background thread; returns at once."""
        self._thread = threading.Thread(target=self.serve_forever, name="runsvc-worker", daemon=True)
        self._thread.start()
        return self

    def wait_registered(self, timeout: Optional[float] = None) -> bool:
        """Waits until runsvc acknowledged the registration."""
        return self._registered.wait(timeout)

    def stop(self, timeout: float = 5.0) -> None:
        """Disconnects and stops serving."""
        self._stop.set()
        with self._lock:
            responses = self._responses
        if responses is not None:
            responses.cancel()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)
        self._pool.shutdown(wait=False, cancel_futures=True)
        if self._own_channel:
            self._channel.close()

    def serve_forever(self) -> None:
        """Serves until stop(), reconnecting with backoff."""
        backoff = self.min_backoff
        while not self._stop.is_set():
            registered = self._serve_once()
            if self._stop.is_set():
                break
            if registered:
                backoff = self.min_backoff
            log.info("runsvc worker %s: stream ended; reconnecting in %.1fs", self.name, backoff)
            self._stop.wait(backoff)
            backoff = min(backoff * 2, self.max_backoff)

    # -- one connection ----------------------------------------------------

    def _register_message(self) -> tool_pb2.ServeToolsRequest:
        reg = tool_pb2.ServeToolsRequest.Register(worker_name=self.name, max_concurrency=self.max_concurrency)
        for t in self.tools.values():
            d = reg.tools.add(name=t.name, description=t.description)
            if t.parameters is not None:
                json_format.ParseDict(t.parameters, d.parameters)
        return tool_pb2.ServeToolsRequest(register=reg)

    def _serve_once(self) -> bool:
        """One ServeTools stream; returns whether it got registered."""
        outbox: queue.Queue = queue.Queue()
        register = self._register_message()

        def requests():
            yield register
            while True:
                item = outbox.get()
                if item is _CLOSE:
                    return
                yield item

        registered = False
        responses = self._stub.ServeTools(requests())
        with self._lock:
            self._responses = responses
        if self._stop.is_set():
            responses.cancel()
        try:
            for msg in responses:
                kind = msg.WhichOneof("message")
                if kind == "registered":
                    registered = True
                    self.worker_id = msg.registered.worker_id
                    self.connections += 1
                    self._registered.set()
                    log.info("runsvc worker %s registered as %s", self.name, self.worker_id)
                elif kind == "call":
                    self._dispatch(msg.call, outbox)
                elif kind == "cancel":
                    with self._lock:
                        c = self._calls.get(msg.cancel.call_id)
                    if c is not None:
                        c.cancelled.set()
        except grpc.RpcError as e:
            if not self._stop.is_set():
                level = logging.INFO if e.code() == grpc.StatusCode.UNAVAILABLE else logging.WARNING
                log.log(level, "runsvc worker %s: stream failed: %s %s", self.name, e.code(), e.details())
        finally:
            self._registered.clear()
            outbox.put(_CLOSE)
            with self._lock:
                self._responses = None
                # Calls of this connection are runsvc's to re-dispatch now.
                # With the cache they keep running: the call sent again
                # gets their result.
                if not self.result_cache_size:
                    for c in self._calls.values():
                        if c._outbox is outbox:
                            c.cancelled.set()
        return registered

    def _dispatch(self, msg: Any, outbox: queue.Queue) -> None:
        call = Call(
            call_id=msg.call_id,
            name=msg.name,
            arguments=json_format.MessageToDict(msg.arguments),
            run_id=msg.run_id,
            deadline=msg.deadline_time.ToDatetime() if msg.HasField("deadline_time") else None,
            _outbox=outbox,
        )
        with self._lock:
            self.received += 1
            if self._answer_again(call.call_id, outbox):
                return
            self._calls[call.call_id] = call
            self.runs += 1
        try:
            self._pool.submit(self._execute, call, outbox)
        except RuntimeError:  # the pool is shut down: we are stopping
            with self._lock:
                self._calls.pop(call.call_id, None)

    def _answer_again(self, call_id: str, outbox: queue.Queue) -> bool:
        """With the lock held: answers a call seen before from the cache
        (now, or when its run ends) and reports whether it did; else
        makes room for the run about to start."""
        if not self.result_cache_size:
            return False
        o = self._results.get(call_id)
        if o is None:
            self._results[call_id] = _Outcome()
            while len(self._results) > self.result_cache_size:
                self._results.popitem(last=False)
            return False
        self._results.move_to_end(call_id)
        if o.done:
            outbox.put(tool_pb2.ServeToolsRequest(result=o.result))
        else:
            o.waiters.append(outbox)
        log.info("runsvc worker %s: call %s came again; answering it from the cache", self.name, call_id)
        return True

    def _still_wanted(self, call: Call) -> bool:
        """A call cancelled before it ran: whether the same call, sent
        again, waits for it (then it runs); else it leaves the cache."""
        with self._lock:
            o = self._results.get(call.call_id)
            if o is not None and o.waiters:
                return True
            if o is not None and not o.done:
                del self._results[call.call_id]
            return False

    def _remember(self, call: Call, result: Any) -> list:
        """Stores a run's result for the call sent again, and returns the
        outboxes waiting for it."""
        with self._lock:
            o = self._results.get(call.call_id)
            if o is None or o.done:
                return []
            o.done, o.result, waiters = True, result, o.waiters
            o.waiters = []
            if call.cancelled.is_set() or (result.HasField("error") and result.error.retryable):
                del self._results[call.call_id]
        return waiters

    def _execute(self, call: Call, outbox: queue.Queue) -> None:
        result = tool_pb2.ServeToolsRequest.Result(call_id=call.call_id)
        try:
            if call.cancelled.is_set() and not self._still_wanted(call):
                return
            tool = self.tools.get(call.name)
            try:
                if tool is None:
                    raise ToolError(f"this worker does not serve {call.name}")
                out = tool.invoke(call)
                try:
                    json_format.ParseDict(out, result.output)
                except (json_format.ParseError, TypeError, ValueError) as e:
                    raise ToolError(f"the result is not JSON: {e}") from None
            except ToolError as e:
                result.ClearField("output")
                result.error.message, result.error.retryable = e.message, e.retryable
            except Exception as e:  # a handler bug is a non-retryable tool error
                log.exception("runsvc worker %s: tool %s failed", self.name, call.name)
                result.ClearField("output")
                result.error.message, result.error.retryable = f"{type(e).__name__}: {e}", False
            waiters = self._remember(call, result)
            if not call.cancelled.is_set():
                outbox.put(tool_pb2.ServeToolsRequest(result=result))
            for w in waiters:
                w.put(tool_pb2.ServeToolsRequest(result=result))
        finally:
            with self._lock:
                if self._calls.get(call.call_id) is call:
                    del self._calls[call.call_id]


"""Runs testdata/scenarios.json with the generated stubs.

A Python mirror of internal/testing/scenario (scenario.go and runner.go): for every
reason a runsvc server returns to a client, the calls that provoke it and
what the status must carry. Steps: ``call`` ("Service/Method" in package
runsvc.v1, request as protojson with ``${var}``, ``${suite}`` and
``${repeat:C:N}`` substitution; a JSON string that is exactly
``"${list:C:N}"`` becomes an array of N strings ``"C"``), ``save`` (a
variable from a dotted response path), ``until`` (repeat the call until
dotted paths hold values, up to 30 s), ``sleep``, ``hold`` (open a server
stream, wait for its first message and keep it open until the scenario
ends) and ``check`` (``"error"``: the call's error; a dotted path: a
google.rpc.Status in the last response). A call of a method runsvc.v1 does
not declare is sent with an empty message. A scenario may name a
``server`` setting (its address and variables come from
``RUNSVC_SCENARIO_SERVERS``, see :func:`servers_from_env`) and an
``apiKey`` sent as a bearer token on every call.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
import pkgutil
import re
import time
from typing import Any, Optional

import grpc
from google.protobuf import descriptor_pool, json_format, symbol_database

from . import errors  # also puts the generated stubs on sys.path
from google.rpc import error_details_pb2, status_pb2  # noqa: F401 (registers the detail types)
import runsvc.v1 as _runsvc_v1

DOMAIN = "runsvc"
UNTIL_TIMEOUT = 30.0
POLL_INTERVAL = 0.05
CALL_TIMEOUT = 60.0

# Import every generated runsvc.v1 module so that services and messages
# resolve by name from the default descriptor pool.
for _m in pkgutil.iter_modules(_runsvc_v1.__path__):
    importlib.import_module("runsvc.v1." + _m.name)


class ScenarioError(Exception):
    """A scenario could not be run to its check (not a wrong status)."""


@dataclasses.dataclass
class Scenario:
    """One reason, provoked."""

    name: str
    reason: str
    code: str
    retryable: bool
    metadata_keys: list
    steps: list
    metadata: dict = dataclasses.field(default_factory=dict)  # values some keys must have
    message: str = ""  # the exact message, where the scenario fixes it
    server: str = ""  # the server setting it runs on; "" is the default server
    api_key: str = ""  # sent as "authorization: Bearer <key>" on every call

    @classmethod
    def from_json(cls, d: dict) -> "Scenario":
        return cls(
            name=d["name"],
            reason=d.get("reason", ""),
            code=d.get("code", ""),
            retryable=bool(d.get("retryable", False)),
            metadata_keys=list(d.get("metadataKeys") or []),
            metadata=dict(d.get("metadata") or {}),
            message=d.get("message", ""),
            steps=list(d.get("steps") or []),
            server=d.get("server", ""),
            api_key=d.get("apiKey", ""),
        )

    def problems(self, o: "Outcome") -> list:
        """Compares an outcome with what the scenario expects and lists every
        difference (empty: it holds)."""
        if o.status is None:
            return ["no status"]
        c = o.classification
        out = []
        if c.code != self.code:
            out.append(f"code {c.code}, want {self.code}")
        if c.reason != self.reason:
            out.append(f"reason {c.reason!r}, want {self.reason!r}")
        if c.domain != DOMAIN:
            out.append(f"domain {c.domain!r}, want {DOMAIN!r}")
        keys, want = sorted(c.metadata), sorted(self.metadata_keys)
        if keys != want:
            out.append(f"metadata keys {keys}, want {want}")
        for k, v in sorted(self.metadata.items()):
            if c.metadata.get(k) != v:
                out.append(f"metadata {k}={c.metadata.get(k)!r}, want {v!r}")
        if c.retryable != self.retryable:
            out.append(f"retryable {c.retryable}, want {self.retryable}")
        if self.message and c.message != self.message:
            out.append(f"message {c.message!r}, want {self.message!r}")
        if self.message and o.rpc and o.wire_message != self.message:
            out.append(f"grpc-message {o.wire_message!r}, want {self.message!r}")
        if o.rpc:
            want_pb = str(c.retry_delay_ms) if c.retryable else "-1"
            if (o.pushback or "") != want_pb:
                out.append(f"pushback trailer {o.pushback!r}, want {want_pb!r}")
        return out


@dataclasses.dataclass
class ScenarioFile:
    """The scenarios file."""

    about: str
    specs: list
    scenarios: list
    servers: dict = dataclasses.field(default_factory=dict)
    """Server settings by name, as the file describes them."""

    @classmethod
    def load(cls, path: str) -> "ScenarioFile":
        with open(path, encoding="utf-8") as f:
            d = json.load(f)
        return cls(
            about=d.get("about", ""),
            specs=list(d.get("specs") or []),
            scenarios=[Scenario.from_json(s) for s in d.get("scenarios") or []],
            servers=dict(d.get("servers") or {}),
        )


SERVERS_ENV = "RUNSVC_SCENARIO_SERVERS"


def servers_from_env() -> Optional[dict]:
    """The servers a Go test started for the file's server settings, from
    RUNSVC_SCENARIO_SERVERS: {name: {"addr": "127.0.0.1:port", "vars":
    {...}}}; None when the variable is not set."""
    raw = os.environ.get(SERVERS_ENV)
    if not raw:
        return None
    return json.loads(raw)


@dataclasses.dataclass
class Outcome:
    """The status a scenario produced."""

    status: Optional[status_pb2.Status]
    classification: errors.Classification
    pushback: Optional[str] = None
    """The grpc-retry-pushback-ms trailer of an RPC error."""
    rpc: bool = False
    """True when the status was a call's error."""
    method: str = ""
    request: str = ""
    wire_message: str = ""
    """An RPC error's message as grpcio read it from grpc-message."""


_PLACEHOLDER = re.compile(r"\$\{([^}]+)\}")
_LIST = re.compile(r'"\$\{list:([^}:]*):([0-9]+)\}"')


def substitute(s: str, variables: dict) -> str:
    """Fills ${name} from variables and ${repeat:C:N} with C repeated N
    times; a JSON string that is exactly "${list:C:N}" becomes a JSON array
    of N strings "C"; unknown names are left as they are."""

    s = _LIST.sub(lambda m: "[" + ",".join(['"' + m.group(1) + '"'] * int(m.group(2))) + "]", s)

    def repl(m: re.Match) -> str:
        name = m.group(1)
        if name.startswith("repeat:"):
            ch, _, n = name[len("repeat:"):].partition(":")
            try:
                return ch * int(n)
            except ValueError:
                pass
        if name in variables:
            return variables[name]
        return m.group(0)

    return _PLACEHOLDER.sub(repl, s)


_DURATION_PART = re.compile(r"(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)")
_UNITS = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}


def parse_duration(s: str) -> float:
    """Parses a Go duration ("1.2s", "500ms", "1m30s") into seconds."""
    text, sign = s.strip(), 1.0
    if text and text[0] in "+-":
        sign, text = (-1.0 if text[0] == "-" else 1.0), text[1:]
    if text == "0":
        return 0.0
    if not text:
        raise ValueError(f"invalid duration {s!r}")
    pos, total = 0, 0.0
    while pos < len(text):
        m = _DURATION_PART.match(text, pos)
        if not m:
            raise ValueError(f"invalid duration {s!r}")
        total += float(m.group(1)) * _UNITS[m.group(2)]
        pos = m.end()
    return sign * total


def lookup(v: Any, path: str) -> Any:
    """Follows a dotted path through nested dicts; None when absent."""
    for part in path.split("."):
        if not isinstance(v, dict):
            return None
        v = v.get(part)
    return v


def go_sprint(v: Any) -> str:
    """Formats a JSON value as Go's fmt.Sprint does, for `until`."""
    if v is None:
        return "<nil>"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        if v.is_integer() and abs(v) < 1e21:
            return str(int(v))
        return repr(v)
    if isinstance(v, dict):
        return "map[" + " ".join(f"{k}:{go_sprint(v[k])}" for k in sorted(v)) + "]"
    if isinstance(v, list):
        return "[" + " ".join(go_sprint(x) for x in v) + "]"
    return str(v)


def matches(resp: dict, until: Optional[dict]) -> bool:
    """Whether every dotted path of `until` has its value in resp."""
    return all(go_sprint(lookup(resp, p)) == want for p, want in (until or {}).items())


@dataclasses.dataclass
class _Method:
    callable: Any
    request_cls: Any
    response_cls: Any
    server_streaming: bool


class Runner:
    """Runs scenarios over one gRPC channel."""

    def __init__(self, channel: grpc.Channel, suite: str, variables: Optional[dict] = None):
        self.channel = channel
        self.suite = suite
        self.variables = dict(variables or {})
        """The server's variables (see the server settings), for ${name}."""
        self._stubs: dict = {}

    # -- calls -------------------------------------------------------------

    def _method(self, call: str) -> Optional[_Method]:
        svc, sep, name = call.partition("/")
        if not sep or not svc or not name:
            raise ScenarioError(f"call {call!r} is not Service/Method")
        try:
            sd = descriptor_pool.Default().FindServiceByName("runsvc.v1." + svc)
        except KeyError:
            raise ScenarioError(f"no service runsvc.v1.{svc}") from None
        md = sd.methods_by_name.get(name)
        if md is None:
            return None
        stub = self._stubs.get(svc)
        if stub is None:
            module = importlib.import_module(sd.file.name[: -len(".proto")].replace("/", ".") + "_pb2_grpc")
            stub = self._stubs[svc] = getattr(module, svc + "Stub")(self.channel)
        db = symbol_database.Default()
        return _Method(
            callable=getattr(stub, name),
            request_cls=db.GetSymbol(md.input_type.full_name),
            response_cls=db.GetSymbol(md.output_type.full_name),
            server_streaming=md.server_streaming,
        )

    def _parse(self, m: _Method, request_json: str):
        req = m.request_cls()
        try:
            json_format.Parse(request_json, req)
        except json_format.ParseError as e:
            raise ScenarioError(f"request {request_json[:200]}: {e}") from None
        return req

    def hold(self, call: str, request_json: str, metadata=()):
        """Opens a server stream and returns it once its first message came;
        the caller cancels it."""
        m = self._method(call)
        if m is None or not m.server_streaming:
            raise ScenarioError(f"hold needs a server stream; {call} is not one")
        stream = m.callable(self._parse(m, request_json), timeout=CALL_TIMEOUT, metadata=metadata)
        try:
            next(stream)
        except BaseException:
            stream.cancel()
            raise
        return stream

    def call(self, call: str, request_json: str, metadata=()):
        """Invokes a runsvc.v1 method with a protojson request. Returns
        (response as JSON dict, trailing metadata, grpc.RpcError or None);
        a server stream is read to its end and its last message kept. A
        method runsvc.v1 does not declare is called with an empty message."""
        m = self._method(call)
        if m is None:
            raw = self.channel.unary_unary("/runsvc.v1." + call, request_serializer=lambda b: b,
                                           response_deserializer=lambda b: b)
            try:
                _, c = raw.with_call(b"", timeout=CALL_TIMEOUT, metadata=metadata)
                return {}, c.trailing_metadata() or (), None
            except grpc.RpcError as e:
                return None, (e.trailing_metadata() or ()), e
        req = self._parse(m, request_json)
        resp = m.response_cls()
        trailer = ()
        try:
            if m.server_streaming:
                stream = m.callable(req, timeout=CALL_TIMEOUT, metadata=metadata)
                for msg in stream:
                    resp = msg
                trailer = stream.trailing_metadata() or ()
            else:
                resp, c = m.callable.with_call(req, timeout=CALL_TIMEOUT, metadata=metadata)
                trailer = c.trailing_metadata() or ()
        except grpc.RpcError as e:
            return None, (e.trailing_metadata() or ()), e
        return json_format.MessageToDict(resp), trailer, None

    # -- scenarios ---------------------------------------------------------

    def setup(self, f: ScenarioFile) -> None:
        """Publishes the file's Specs."""
        for spec in f.specs:
            _, _, err = self.call("SpecService/PublishSpec", json.dumps({"spec": spec}))
            if err is not None:
                raise ScenarioError(f"publishing {spec.get('name')}: {err.code().name}: {err.details()}")

    def run(self, s: Scenario) -> Outcome:
        """Runs a scenario's steps and returns the status its check names;
        the streams its steps hold are cancelled when it ends."""
        held: list = []
        try:
            return self._run(s, held)
        finally:
            for stream in held:
                stream.cancel()

    def _run(self, s: Scenario, held: list) -> Outcome:
        variables = {"suite": self.suite, **self.variables}
        metadata = (("authorization", "Bearer " + s.api_key),) if s.api_key else ()
        last: Optional[dict] = None
        for i, step in enumerate(s.steps):
            if step.get("sleep"):
                time.sleep(parse_duration(step["sleep"]))
                continue
            call, check = step.get("call", ""), step.get("check", "")
            if not call:
                return self._status_at(last, check)
            req = substitute(json.dumps(step.get("request", {})), variables)
            if step.get("hold"):
                try:
                    held.append(self.hold(call, req, metadata))
                except grpc.RpcError as e:
                    raise ScenarioError(f"step {i} (holding {call}): {e.code().name}: {e.details()}") from None
                continue
            deadline = time.monotonic() + UNTIL_TIMEOUT
            while True:
                resp, trailer, err = self.call(call, req, metadata)
                if check == "error":
                    if err is None:
                        raise ScenarioError(f"step {i} ({call}) succeeded; the scenario expects an error")
                    c = errors.classify(err)
                    return Outcome(status=c.status, classification=c, pushback=c.pushback,
                                   rpc=True, method=call, request=req, wire_message=err.details() or "")
                if err is not None:
                    raise ScenarioError(f"step {i} ({call} {req[:200]}): {err.code().name}: {err.details()}")
                last = resp
                if matches(resp, step.get("until")):
                    break
                if time.monotonic() > deadline:
                    raise ScenarioError(f"step {i} ({call}): {step.get('until')} never held; last response {resp}")
                time.sleep(POLL_INTERVAL)
            for name, path in (step.get("save") or {}).items():
                v = lookup(last, path)
                if not isinstance(v, str):
                    raise ScenarioError(f"step {i}: no string at {path} in {last}")
                variables[name] = v
            if check:
                return self._status_at(last, check)
        raise ScenarioError("the scenario has no check step")

    @staticmethod
    def _status_at(resp: Optional[dict], path: str) -> Outcome:
        v = lookup(resp, path)
        if v is None:
            raise ScenarioError(f"no status at {path} in {resp}")
        st = status_pb2.Status()
        try:
            json_format.ParseDict(v, st)
        except json_format.ParseError as e:
            raise ScenarioError(f"the value at {path} is not a google.rpc.Status: {e}") from None
        return Outcome(status=st, classification=errors.classify_status(st))

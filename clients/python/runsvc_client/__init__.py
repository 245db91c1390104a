"""Python client helpers for runsvc.

Importing this package puts the generated stubs (clients/python/gen) on
sys.path, so ``from runsvc.v1 import run_pb2_grpc`` and
``from google.rpc import status_pb2`` work next to the system's
``google.protobuf``.

- :func:`classify` reads an RPC error (``grpc.RpcError``).
- :func:`classify_status` reads a ``google.rpc.Status`` found in a response:
  a Run's ``failure``, a tool call's ``error``.
- :mod:`runsvc_client.worker` serves worker tools over ToolService.ServeTools.
- :mod:`runsvc_client.scenario` runs testdata/scenarios.json.
"""

import os as _os
import sys as _sys

GEN_DIR = _os.path.join(_os.path.dirname(_os.path.dirname(_os.path.abspath(__file__))), "gen")
if GEN_DIR not in _sys.path:
    _sys.path.append(GEN_DIR)

from .errors import (  # noqa: E402
    PUSHBACK_TRAILER,
    STATUS_DETAILS_TRAILER,
    Classification,
    classify,
    classify_status,
)

__all__ = [
    "GEN_DIR",
    "PUSHBACK_TRAILER",
    "STATUS_DETAILS_TRAILER",
    "Classification",
    "classify",
    "classify_status",
]

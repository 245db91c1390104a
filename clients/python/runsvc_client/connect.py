"""Channels to a runsvc that uses TLS and API keys.

:func:`channel` returns a ``grpc.Channel``: plaintext when given neither a
CA, a client certificate nor a token (a loopback runsvc without a keys
file), otherwise TLS, verifying the server against ``ca`` (a PEM file) or
the system roots, presenting ``cert``/``key`` for mTLS, and sending
``authorization: Bearer <token>`` on every call.
"""

import os
from typing import Optional, Sequence, Tuple

import grpc


def _read(path: Optional[str]) -> Optional[bytes]:
    if path is None:
        return None
    with open(path, "rb") as f:
        return f.read()


def credentials(
    *,
    ca: Optional[str] = None,
    cert: Optional[str] = None,
    key: Optional[str] = None,
    token: Optional[str] = None,
) -> grpc.ChannelCredentials:
    """TLS channel credentials, with the token as call credentials."""
    creds = grpc.ssl_channel_credentials(
        root_certificates=_read(ca), private_key=_read(key), certificate_chain=_read(cert)
    )
    if token:
        creds = grpc.composite_channel_credentials(creds, grpc.access_token_call_credentials(token))
    return creds


def channel(
    target: str,
    *,
    ca: Optional[str] = None,
    cert: Optional[str] = None,
    key: Optional[str] = None,
    token: Optional[str] = None,
    options: Sequence[Tuple[str, object]] = (),
) -> grpc.Channel:
    """A channel to runsvc at target; the token defaults to RUNSVC_TOKEN."""
    token = token if token is not None else os.environ.get("RUNSVC_TOKEN") or None
    if ca is None and cert is None and token is None:
        return grpc.insecure_channel(target, options=list(options))
    return grpc.secure_channel(target, credentials(ca=ca, cert=cert, key=key, token=token), options=list(options))

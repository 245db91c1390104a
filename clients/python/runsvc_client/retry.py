"""Retry runsvc calls whose error says a retry may succeed.

A runsvc error is retryable if and only if its status carries RetryInfo;
:func:`call_with_retry` waits that delay and calls again, never past the
caller's deadline (``deadline``, seconds from now) and at most
``max_attempts`` times. Errors from another domain (a proxy, another
service) are not retried. :func:`call_with_retry_async` is the same for
``grpc.aio`` coroutines.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Awaitable, Callable, Optional, TypeVar

from .errors import Classification, classify
from .reasons import DEFAULT_DOMAIN

T = TypeVar("T")

DEFAULT_MAX_ATTEMPTS = 5


def _decide(err: BaseException, attempt: int, max_attempts: int, domain: str,
            deadline_at: Optional[float], now: float) -> Optional[float]:
    """The delay before the next attempt, or None to give up and raise."""
    c: Classification = classify(err)
    if not c.retryable or c.domain != domain or attempt >= max_attempts:
        return None
    delay = c.retry_delay or 0.0
    if deadline_at is not None and now + delay > deadline_at:
        return None
    return delay


def call_with_retry(
    call: Callable[[Optional[float]], T],
    *,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    deadline: Optional[float] = None,
    domain: str = DEFAULT_DOMAIN,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
    on_retry: Optional[Callable[[int, BaseException, float], None]] = None,
) -> T:
    """Calls ``call(timeout)`` until it returns, raising the last error once
    it is not retryable, attempts run out, or waiting would pass the
    deadline. ``timeout`` is the time left until the deadline (None without
    one): pass it on as the RPC's timeout."""
    deadline_at = None if deadline is None else clock() + deadline
    attempt = 0
    while True:
        attempt += 1
        left = None if deadline_at is None else max(0.0, deadline_at - clock())
        try:
            return call(left)
        except Exception as err:  # noqa: BLE001 (classify decides)
            delay = _decide(err, attempt, max_attempts, domain, deadline_at, clock())
            if delay is None:
                raise
            if on_retry is not None:
                on_retry(attempt, err, delay)
            sleep(delay)


async def call_with_retry_async(
    call: Callable[[Optional[float]], Awaitable[T]],
    *,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    deadline: Optional[float] = None,
    domain: str = DEFAULT_DOMAIN,
    sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    clock: Callable[[], float] = time.monotonic,
    on_retry: Optional[Callable[[int, BaseException, float], None]] = None,
) -> T:
    """:func:`call_with_retry` for coroutines (``grpc.aio`` calls)."""
    deadline_at = None if deadline is None else clock() + deadline
    attempt = 0
    while True:
        attempt += 1
        left = None if deadline_at is None else max(0.0, deadline_at - clock())
        try:
            return await call(left)
        except Exception as err:  # noqa: BLE001 (classify decides)
            delay = _decide(err, attempt, max_attempts, domain, deadline_at, clock())
            if delay is None:
                raise
            if on_retry is not None:
                on_retry(attempt, err, delay)
            await sleep(delay)

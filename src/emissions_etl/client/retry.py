"""RetryTransport: retries transient failures (429, 5xx, connection errors) with jittered backoff.

Follows etl-anchors §1.1 and §7: full-jitter exponential backoff, ``Retry-After`` wins when it is
greater than 0 (0 or missing means "no hint", the dlt#4036 trap), and every wait is capped.
"""

from __future__ import annotations

import email.utils
import logging
import random
import ssl
import time
from collections.abc import Callable

import httpx

logger = logging.getLogger("emissions_etl.client")

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})


def parse_retry_after(value: str | None, *, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` value (delay-seconds or HTTP date), or None.

    Returns None when the header is missing, unparseable, or not in the future (0 included):
    the caller then falls back to its own backoff.
    """
    if value is None or not value.strip():
        return None
    text = value.strip()
    try:
        seconds = float(text)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError):
            return None
        if when.tzinfo is None:
            return None
        seconds = when.timestamp() - (time.time() if now is None else now)
    return seconds if seconds > 0 else None


def backoff_delay(attempt: int, *, base: float, maximum: float, rng: Callable[[], float]) -> float:
    """Full-jitter exponential backoff: uniform in [0, min(maximum, base * 2**(attempt-1)))."""
    return rng() * min(maximum, base * 2.0 ** (attempt - 1))


def may_resend_after_reply(request: httpx.Request) -> bool:
    """True when sending ``request`` twice cannot create a duplicate.

    Idempotent methods and any request carrying an ``Idempotency-Key`` (interface: POST
    /v2/wastes) qualify. A POST without one is retried only when nothing reached the server:
    a connect error, or a 429 (the service refuses over-limit requests before doing anything,
    interface: Limits rule 4). A 5xx or a read timeout after sending it is not retried.
    """
    return request.method in IDEMPOTENT_METHODS or "idempotency-key" in request.headers


#: TLS errors that say the connection was cut, not that the peer is refused: a server under
#: load closes a connection mid-handshake (``UNEXPECTED_EOF_WHILE_READING``) and the next one
#: goes through.
_CUT_CONNECTION = (ssl.SSLEOFError, ssl.SSLZeroReturnError, ssl.SSLSyscallError)


def _refused_by_tls(exc: BaseException) -> bool:
    """True when the TLS handshake refused the peer (an untrusted certificate, a protocol the
    two sides do not share): trying again gives the same answer. httpx chains the ssl error as
    a cause."""
    seen: BaseException | None = exc
    for _ in range(10):  # a bounded walk: exception chains can, rarely, loop
        if seen is None:
            return False
        if isinstance(seen, ssl.SSLError):
            return not isinstance(seen, _CUT_CONNECTION)
        seen = seen.__cause__ or seen.__context__
    return False


class RetryTransport(httpx.BaseTransport):
    """Wraps a transport and retries transient failures; the last response or error is returned."""

    def __init__(
        self,
        inner: httpx.BaseTransport,
        *,
        max_attempts: int = 6,
        backoff_base: float = 0.5,
        backoff_max: float = 30.0,
        retry_after_max: float = 120.0,
        sleep: Callable[[float], None] = time.sleep,
        rng: Callable[[], float] = random.random,
    ) -> None:
        if max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")
        self._inner = inner
        self.max_attempts = max_attempts
        self.backoff_base = backoff_base
        self.backoff_max = backoff_max
        self.retry_after_max = retry_after_max
        self._sleep = sleep
        self._rng = rng

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        request.read()  # the body must be replayable across attempts
        attempt = 1
        while True:
            started = time.monotonic()
            try:
                response = self._inner.handle_request(request)
            except httpx.TransportError as exc:
                elapsed = time.monotonic() - started
                logger.debug(
                    "%s %s failed: %s in %.3fs",
                    request.method,
                    request.url.path,
                    type(exc).__name__,
                    elapsed,
                )
                if attempt >= self.max_attempts or not self._retryable_error(request, exc):
                    raise
                wait = self._backoff(attempt)
                self._warn(request, type(exc).__name__, attempt, wait)
            else:
                logger.debug(
                    "%s %s -> %d in %.3fs",
                    request.method,
                    request.url.path,
                    response.status_code,
                    time.monotonic() - started,
                )
                if attempt >= self.max_attempts or not self._retryable_status(request, response):
                    return response
                response.read()
                response.close()
                wait = self.wait_for(response, attempt)
                self._warn(request, str(response.status_code), attempt, wait)
            self._sleep(wait)
            attempt += 1

    def wait_for(self, response: httpx.Response, attempt: int) -> float:
        """Seconds before the next attempt: ``Retry-After`` if > 0 (capped), else backoff."""
        hinted = parse_retry_after(response.headers.get("retry-after"))
        if hinted is not None:
            return min(hinted, self.retry_after_max)
        return self._backoff(attempt)

    def close(self) -> None:
        self._inner.close()

    def _backoff(self, attempt: int) -> float:
        return backoff_delay(
            attempt, base=self.backoff_base, maximum=self.backoff_max, rng=self._rng
        )

    @staticmethod
    def _retryable_status(request: httpx.Request, response: httpx.Response) -> bool:
        if response.status_code == 429:
            return True
        return response.status_code in RETRY_STATUSES and may_resend_after_reply(request)

    @staticmethod
    def _retryable_error(request: httpx.Request, exc: httpx.TransportError) -> bool:
        if _refused_by_tls(exc):
            return False  # an untrusted certificate stays untrusted
        if isinstance(exc, httpx.ConnectError | httpx.ConnectTimeout | httpx.PoolTimeout):
            return True  # nothing was sent
        return isinstance(
            exc, httpx.NetworkError | httpx.TimeoutException | httpx.ProtocolError
        ) and (may_resend_after_reply(request))

    @staticmethod
    def _warn(request: httpx.Request, cause: str, attempt: int, wait: float) -> None:
        logger.warning(
            "%s %s: %s on attempt %d, retrying in %.2fs",
            request.method,
            request.url.path,
            cause,
            attempt,
            wait,
        )

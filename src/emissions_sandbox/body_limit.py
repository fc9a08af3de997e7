"""A maximum request body size for the whole sandbox, enforced before a body is read whole.

The interface leaves the maximum unstated (Limits, rate-limit rule 5); without one, every route
that reads JSON buffers the whole body, so a few large posts held their whole size each. This ASGI
middleware answers **413** `REQUEST_TOO_LARGE` in the path's error shape (README: body limit):

* a declared `Content-Length` over the limit is refused at once, before any body byte is
  asked for (so a client sending `Expect: 100-continue` never uploads it);
* a body without a length (chunked) is counted as it streams in; the first chunk that takes
  it over the limit stops the read, whatever the route was doing is discarded, and the 413
  goes out instead. At most the limit plus one chunk is ever held.

The unread rest of a refused body is drained and discarded by the server, so the client can
read the 413 on a kept-alive connection.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from emissions_sandbox.errors import ServiceError, error_response
from emissions_sandbox.settings import DEFAULT_MAX_BODY_BYTES

TOO_LARGE_CODE = "REQUEST_TOO_LARGE"


class _BodyTooLarge(Exception):
    """Raised from `receive` when the body passes the limit; never leaves the middleware."""


class BodyLimitMiddleware:
    """Refuse request bodies larger than `max_body_bytes` with 413 (v1 or v2 error shape)."""

    def __init__(self, app: ASGIApp, max_body_bytes: int = DEFAULT_MAX_BODY_BYTES) -> None:
        if max_body_bytes < 1:
            raise ValueError("max_body_bytes must be at least 1")
        self.app = app
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _declared_length(scope)
        if declared is not None and declared > self.max_body_bytes:
            await self._refuse(scope, receive, send)
            return
        await _LimitedRequest(self, scope, receive, send).run()

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        error = ServiceError(
            413,
            TOO_LARGE_CODE,
            f"The request body is larger than the limit of {self.max_body_bytes} bytes",
        )
        await error_response(Request(scope), error)(scope, receive, send)


class _LimitedRequest:
    """One request whose body is counted as the application reads it."""

    def __init__(self, limit: BodyLimitMiddleware, scope: Scope, receive: Receive, send: Send):
        self.limit, self.scope, self.receive, self.send = limit, scope, receive, send
        self.received = 0
        self.exceeded = False
        self.response_started = False

    async def _counting_receive(self) -> Message:
        if self.exceeded:
            raise _BodyTooLarge
        message = await self.receive()
        if message["type"] == "http.request":
            self.received += len(message.get("body", b""))
            if self.received > self.limit.max_body_bytes:
                self.exceeded = True
                raise _BodyTooLarge
        return message

    async def _guarded_send(self, message: Message) -> None:
        if self.exceeded and not self.response_started:
            return  # the application's answer to a body it could not read is replaced by 413
        if message["type"] == "http.response.start":
            self.response_started = True
        await self.send(message)

    async def run(self) -> None:
        try:
            await self.limit.app(self.scope, self._counting_receive, self._guarded_send)
        except Exception:
            if not self.exceeded or self.response_started:
                raise
        if self.exceeded and not self.response_started:
            await self.limit._refuse(self.scope, self.receive, self.send)


def _declared_length(scope: Scope) -> int | None:
    """The request's Content-Length, or None when absent (the server rejects malformed ones)."""
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None

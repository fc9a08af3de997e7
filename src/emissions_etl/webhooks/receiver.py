"""WebhookReceiver: a small HTTP server on a background thread that takes signed events.

Order of work for each POST, cheapest refusal first: no ``Content-Length`` → 411; a declared
body over the limit → 413 before a byte of it is read; then the raw bytes are verified
(``verification.py``) → 401/400 with nothing recorded; then the ``webhook-id`` is deduplicated
(a duplicate → 204, ignored); only then is the event handed to the sink, which does no I/O, so
the 2xx goes back at once. Slow clients are cut off after ``read_timeout`` seconds and at most
``max_connections`` are served at a time.
"""

from __future__ import annotations

import errno
import logging
import socket
import socketserver
import threading
from collections.abc import Callable, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import TypeAlias

from emissions_etl.errors import ConfigurationError, ListenPortTakenError
from emissions_etl.webhooks.deduplication import SeenDeliveries
from emissions_etl.webhooks.verification import DeliveryRejected, EventVerifier, VerifiedEvent

logger = logging.getLogger("emissions_etl.webhooks")

EventSink = Callable[[VerifiedEvent], None]
#: A request as socketserver hands it on (a TCP server's: its connected socket).
_Request: TypeAlias = "socket.socket | tuple[bytes, socket.socket]"
#: A client's address: (host, port) over IPv4, (host, port, flowinfo, scope_id) over IPv6.
_ClientAddress: TypeAlias = "tuple[str, int] | tuple[str, int, int, int]"


class WebhookReceiver:
    """Binds ``listen`` at construction (so a taken port fails before anything is registered:
    ListenPortTakenError, which ``binding`` answers); answers 503 until ``arm()`` gives it a
    verifier and a sink; ``start()``/``stop()`` the thread.
    """

    def __init__(
        self,
        listen: str,
        *,
        max_body_bytes: int = 64 * 1024,
        read_timeout: float = 10.0,
        max_connections: int = 32,
    ) -> None:
        host, port = parse_listen(listen)
        self.max_body_bytes = max_body_bytes
        self.seen = SeenDeliveries()
        self._armed: tuple[EventVerifier, EventSink] | None = None
        self._thread: threading.Thread | None = None
        try:
            self._server = _Server(host, port, self, read_timeout, max_connections)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise ListenPortTakenError(listen, port) from exc
            raise ConfigurationError(f"webhook receiver cannot listen on {listen}: {exc}") from exc

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def host(self) -> str:
        return str(self._server.server_address[0])

    @property
    def local_url(self) -> str:
        """``http://host:port`` as bound (the port is the real one when ``listen`` said 0)."""
        host = str(self._server.server_address[0])
        return f"http://{f'[{host}]' if ':' in host else host}:{self.port}"

    def arm(self, verifier: EventVerifier, sink: EventSink) -> None:
        """From now on, verified events go to ``sink``."""
        self._armed = (verifier, sink)

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(
                target=self._server.serve_forever,
                kwargs={"poll_interval": 0.1},  # how soon stop() is noticed
                name="webhook-receiver",
                daemon=True,
            )
            self._thread.start()

    def stop(self) -> None:
        if self._thread is not None:
            self._server.shutdown()
            self._thread.join(timeout=10)
            self._thread = None
        self._server.server_close()

    def __enter__(self) -> WebhookReceiver:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

    def take(self, body: bytes, headers: Mapping[str, str]) -> int:
        """Verify, deduplicate and hand on one delivery; returns the HTTP status to answer."""
        armed = self._armed
        if armed is None:
            return 503  # not ready: the service retries later
        verifier, sink = armed
        try:
            event = verifier.verify(body, headers)
        except DeliveryRejected as exc:
            # Header values of an unverified request are not logged: they are the sender's text.
            logger.warning("webhook delivery refused with %d: %s", exc.status, exc.reason)
            return exc.status
        if not self.seen.add(event.webhook_id):
            logger.debug("webhook %s already taken: ignored", event.webhook_id)
            return 204
        try:
            sink(event)
        except Exception:
            self.seen.discard(event.webhook_id)  # let the service's retry be taken
            logger.exception("webhook %s could not be handled", event.webhook_id)
            return 500
        return 204


def parse_listen(listen: str) -> tuple[str, int]:
    """``host:port`` or ``[v6]:port`` → (host, port); ConfigurationError when malformed."""
    host, sep, port_text = listen.strip().rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port_text.isdigit() or int(port_text) > 65535:
        raise ConfigurationError(f"EMISSIONS_WEBHOOK_LISTEN must be host:port (got {listen!r})")
    return host, int(port_text)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def __init__(
        self, host: str, port: int, receiver: WebhookReceiver, timeout: float, slots: int
    ) -> None:
        self.address_family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.receiver = receiver
        self.read_timeout = timeout
        self._slots = threading.BoundedSemaphore(slots)
        super().__init__((host, port), _Handler)

    def server_bind(self) -> None:
        # HTTPServer.server_bind resolves the host's FQDN, which can stall on DNS; not needed.
        socketserver.TCPServer.server_bind(self)
        self.server_name = str(self.server_address[0])
        self.server_port = int(self.server_address[1])

    def process_request(self, request: _Request, client_address: _ClientAddress) -> None:
        if not self._slots.acquire(blocking=False):
            self.shutdown_request(request)  # full: drop the connection, the sender retries
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._slots.release()
            raise

    def process_request_thread(self, request: _Request, client_address: _ClientAddress) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    server_version = "emissions-etl-webhooks"
    sys_version = ""

    def setup(self) -> None:
        super().setup()
        self.connection.settimeout(self.server.read_timeout)  # a slow client is cut off

    def do_POST(self) -> None:
        receiver = self.server.receiver
        declared = self.headers.get("content-length")
        if declared is None or self.headers.get("transfer-encoding"):
            self._answer(411)
            return
        try:
            length = int(declared)
        except ValueError:
            length = -1
        if length < 0:
            self._answer(400)
            return
        if length > receiver.max_body_bytes:
            self._answer(413)  # the body is left unread
            return
        body = self.rfile.read(length)
        if len(body) != length:
            self._answer(400)  # the client closed early
            return
        self._answer(receiver.take(body, dict(self.headers.items())))

    def _answer(self, status: int) -> None:
        self.close_connection = True
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.send_header("Connection", "close")
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        logger.debug("%s " + format, self.address_string(), *args)

"""Which port the receiver binds, and the URL the service is given to reach it.

Two loads on one machine both want ``EMISSIONS_WEBHOOK_LISTEN``'s port; the second finds it
taken. Whether it can take another depends on how the service reaches the receiver, which the
URL tells:

* **The URL follows the port** when it says so, with ``{port}`` in it (replaced by the port the
  receiver binds; for a proxy rule forwarding ``/emissions/NNNN`` to ``127.0.0.1:NNNN``), or
  when its own port is the listen port (the service calls the receiver directly, as a sandbox
  on loopback does). Then a taken port makes the receiver bind a free one on the same host, and
  the load registers an endpoint of its own for the URL with that port: a *stand-in*, deleted
  when the load ends. The configured URL's endpoint stays the other load's, reused by the
  next load that gets the port.
* **Otherwise the URL reaches one fixed port**: a proxy or a tunnel (ngrok, cloudflared)
  forwards it to the configured port, which the other load holds. This load cannot be reached
  there, so it polls its ingest jobs, saying so; its jobs finish all the same.

A listen address that cannot be bound for another reason (not a local address, a privileged
port) is a ConfigurationError, before the service is touched.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from emissions_etl.errors import ListenPortTakenError
from emissions_etl.webhooks.notices import Notices, shown_url
from emissions_etl.webhooks.receiver import WebhookReceiver, parse_listen
from emissions_etl.webhooks.settings import WebhookSettings

#: Written in EMISSIONS_WEBHOOK_URL, replaced by the port the receiver binds.
PORT_PLACEHOLDER = "{port}"


@dataclass
class BoundReceiver:
    """A receiver listening, the URL that reaches it, and whether that URL is a stand-in."""

    receiver: WebhookReceiver
    url: str
    stand_in: bool = False


def bind_receiver(settings: WebhookSettings, notices: Notices) -> BoundReceiver | None:
    """The receiver on the configured port, or on a free one when that is taken and the URL
    follows the port; None when the load must poll (taken, and the URL cannot follow).

    ConfigurationError when the listen address cannot be bound for any other reason.
    """
    assert settings.url is not None
    host, port = parse_listen(settings.listen)
    receiver_options = {"max_body_bytes": settings.max_body_bytes}
    try:
        receiver = WebhookReceiver(settings.listen, **receiver_options)
    except ListenPortTakenError:
        if url_for_port(settings.url, port, port) is None:
            notices(
                f"webhook: port {port} is taken (another load?) and EMISSIONS_WEBHOOK_URL "
                f"reaches that port only ({shown_url(settings.url)}): this load polls its "
                "ingest jobs"
            )
            return None
        listen = f"[{host}]:0" if ":" in host else f"{host}:0"
        receiver = WebhookReceiver(listen, **receiver_options)
        url = url_for_port(settings.url, port, receiver.port)
        assert url is not None
        notices(
            f"webhook: port {port} is taken (another load?): this load listens on "
            f"{receiver.local_url} and registers {shown_url(url)} for itself"
        )
        return BoundReceiver(receiver, url, stand_in=True)
    url = settings.url.replace(PORT_PLACEHOLDER, str(receiver.port))
    return BoundReceiver(receiver, url)


def url_for_port(url: str, listen_port: int, port: int) -> str | None:
    """``url`` made to reach a receiver on ``port``, or None when it cannot follow the port
    (it names neither ``{port}`` nor the listen port itself)."""
    if PORT_PLACEHOLDER in url:
        return url.replace(PORT_PLACEHOLDER, str(port))
    parts = urlsplit(url)
    try:
        own_port = parts.port
    except ValueError:
        return None
    if own_port is None or own_port != listen_port:
        return None
    host = parts.netloc.rpartition(":")[0]
    return urlunsplit(parts._replace(netloc=f"{host}:{port}"))

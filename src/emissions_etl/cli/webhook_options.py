"""Command-line options for finishing ingest jobs by webhook (``WebhookSettings``), for ``load``:
each also read from its EMISSIONS_WEBHOOK_* variable, as ``--help`` shows; ``WebhookOptions``,
the group of them a command's options object takes."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypedDict

import typer

if TYPE_CHECKING:
    from pydantic import SecretStr

    from emissions_etl.webhooks import WebhookSettings

WebhookUrlOption = Annotated[
    str | None,
    typer.Option(
        "--webhook-url",
        envvar="EMISSIONS_WEBHOOK_URL",
        show_envvar=True,
        help="Public URL the service calls when an ingest job finishes (https, to a proxy or "
        "tunnel in front of --webhook-listen); {port} in it is replaced by the receiver's port. "
        "Unset: ingest jobs are polled.",
    ),
]
WebhookListenOption = Annotated[
    str | None,
    typer.Option(
        "--webhook-listen",
        envvar="EMISSIONS_WEBHOOK_LISTEN",
        show_envvar=True,
        help="host:port the receiver binds (default 127.0.0.1:8787). When another load holds "
        "the port, a free one is taken if the URL follows the port ({port} in it, or the same "
        "port), else this load polls.",
    ),
]
WebhookSecretOption = Annotated[
    str | None,
    typer.Option(
        "--webhook-secret",
        envvar="EMISSIONS_WEBHOOK_SECRET",
        show_envvar=True,
        show_default=False,
        help="whsec_ signing secret of an endpoint you registered yourself for the URL; prefer "
        "the variable (a command line is visible to other users of the machine).",
    ),
]
WebhookSecretFileOption = Annotated[
    Path | None,
    typer.Option(
        "--webhook-secret-file",
        envvar="EMISSIONS_WEBHOOK_SECRET_FILE",
        show_envvar=True,
        help="Where the secrets of endpoints this tool creates are kept, 0600 (default: "
        "<warehouse>.webhook-secret.json).",
    ),
]
WebhookFallbackOption = Annotated[
    float | None,
    typer.Option(
        "--webhook-fallback-after",
        envvar="EMISSIONS_WEBHOOK_FALLBACK_AFTER",
        show_envvar=True,
        min=0,
        help="Seconds to wait for a job's event before polling the job (default 30).",
    ),
]
WebhookMaxBodyOption = Annotated[
    int | None,
    typer.Option(
        "--webhook-max-body-bytes",
        envvar="EMISSIONS_WEBHOOK_MAX_BODY_BYTES",
        show_envvar=True,
        min=1,
        help="Deliveries larger than this get 413, unread (default 65536).",
    ),
]


class _GivenWebhook(TypedDict, total=False):
    """The ``WebhookSettings`` fields given on the command line (the others: their variables,
    else their defaults)."""

    url: str
    listen: str
    secret: SecretStr
    secret_file: Path
    fallback_after: float
    max_body_bytes: int


@dataclass(frozen=True)
class WebhookOptions:
    """The webhook options of ``load``, as one group its options object names where ``--help``
    lists them (``options_object`` splices these fields there)."""

    webhook_url: WebhookUrlOption = None
    webhook_listen: WebhookListenOption = None
    webhook_secret: WebhookSecretOption = None
    webhook_secret_file: WebhookSecretFileOption = None
    webhook_fallback_after: WebhookFallbackOption = None
    webhook_max_body_bytes: WebhookMaxBodyOption = None

    def settings(self, warehouse: str | Path) -> WebhookSettings:
        """How ingest jobs say they finished: these options over the EMISSIONS_WEBHOOK_*
        environment, for ``warehouse`` (the secret file lives beside it)."""
        from pydantic import SecretStr

        from emissions_etl.webhooks import WebhookSettings

        given: _GivenWebhook = {}
        if self.webhook_url is not None:
            given["url"] = self.webhook_url
        if self.webhook_listen is not None:
            given["listen"] = self.webhook_listen
        if self.webhook_secret is not None:
            given["secret"] = SecretStr(self.webhook_secret)
        if self.webhook_secret_file is not None:
            given["secret_file"] = self.webhook_secret_file
        if self.webhook_fallback_after is not None:
            given["fallback_after"] = self.webhook_fallback_after
        if self.webhook_max_body_bytes is not None:
            given["max_body_bytes"] = self.webhook_max_body_bytes
        return WebhookSettings(**given, warehouse=warehouse)

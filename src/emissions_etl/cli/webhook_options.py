"""Command-line options for finishing ingest jobs by webhook (``WebhookSettings``), for ``load``:
each also read from its EMISSIONS_WEBHOOK_* variable, as ``--help`` shows."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

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


def webhook_settings(**given: Any) -> dict[str, Any]:
    """The options given, by ``WebhookSettings`` field name (``webhook_url`` -> ``url``)."""
    return {
        name.removeprefix("webhook_"): value for name, value in given.items() if value is not None
    }

"""What a load says about its webhook, so that a person sees it work: one line when the endpoint
is registered or reused, when the receiver's port is taken, and one per ingest job finished by
its event or by polling after the wait.

Each line goes to the ``emissions_etl.webhooks`` logger at INFO and to the caller's ``notify``:
the command line prints it, a Prefect task logs it through its run logger
(``orchestration/tasks.py``). A URL is shown by its scheme, host and port only: people put
tokens in webhook paths.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from urllib.parse import urlsplit

logger = logging.getLogger("emissions_etl.webhooks")

#: Receives each line, already worded.
Notify = Callable[[str], None]


class Notices:
    """Sends each line to the logger at INFO and to ``notify``, when there is one."""

    def __init__(self, notify: Notify | None = None) -> None:
        self._notify = notify

    def __call__(self, message: str) -> None:
        logger.info("%s", message)
        if self._notify is not None:
            self._notify(message)


def shown_url(url: str) -> str:
    """``https://hooks.example.com:443/…``: where the service calls, without path or query."""
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = None
    host = parts.hostname or "?"
    host = f"[{host}]" if ":" in host else host
    return f"{parts.scheme}://{host}{f':{port}' if port else ''}/…"


def job_outcome(job: Mapping[str, object]) -> str:
    """``completed, 5000 of 5000 records calculated`` from an ingest job."""
    status = str(job.get("status") or "finished")
    counts = job.get("counts")
    if not isinstance(counts, Mapping):
        return status
    succeeded, submitted = counts.get("succeeded"), counts.get("submitted")
    if isinstance(succeeded, int) and isinstance(submitted, int):
        return f"{status}, {succeeded:,} of {submitted:,} records calculated"
    return status

"""Settings of one sandbox instance, read once at the edge (CLI or tests) and passed down."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

# README "Request body limit": the largest legitimate body (5,000 logistics records, every text
# field at its maximum) is about 14 MiB
DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024


@dataclass
class SandboxSettings:
    """What varies between sandbox instances; everything else is fixed by the interface."""

    db_path: Path
    calc_delay: float = 0.0  # seconds slept per calculated chunk, so tests can observe `processing`
    allow_private_webhooks: bool = False
    chunk_size: int = 1000
    test_routes: bool = False  # mounts /_test/* routes that exercise the rate-limit machinery
    jwt_lifetime_seconds: int = 3600  # interface: Login, expires_in 3600
    worker_poll_seconds: float = 0.05
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES  # larger request bodies answer 413 (README)

"""Where S3 is, as the AWS chain says, for the clients that do not read the chain themselves
(DuckDB's httpfs reads a lake's data files in S3 through a secret that names the endpoint;
its credentials it takes from the chain too, never from us)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit


@dataclass(frozen=True)
class S3Endpoint:
    """An S3-compatible endpoint (MinIO, R2, a test server), or None fields for AWS's own."""

    #: ``host[:port]`` of ``AWS_ENDPOINT_URL_S3`` / ``AWS_ENDPOINT_URL``; None: AWS.
    host: str | None = None
    use_ssl: bool = True
    #: The region of ``AWS_REGION`` / ``AWS_DEFAULT_REGION``; None: the client's default.
    region: str | None = None

    @property
    def path_style(self) -> bool:
        """Buckets in the path (``host/bucket/key``), as S3-compatible stores expect; AWS
        itself takes them in the host name."""
        return self.host is not None


def s3_endpoint(environ: Mapping[str, str] | None = None) -> S3Endpoint:
    """The endpoint and region the AWS variables name (the same ones s3fs reads)."""
    environ = os.environ if environ is None else environ
    url = environ.get("AWS_ENDPOINT_URL_S3") or environ.get("AWS_ENDPOINT_URL")
    region = environ.get("AWS_REGION") or environ.get("AWS_DEFAULT_REGION") or None
    if not url:
        return S3Endpoint(region=region)
    parts = urlsplit(url if "://" in url else f"https://{url}")
    return S3Endpoint(host=parts.netloc, use_ssl=parts.scheme != "http", region=region)


def s3_secret_options(endpoint: S3Endpoint | None = None) -> list[str]:
    """The options of a DuckDB ``CREATE SECRET`` reaching S3 as the AWS chain says: its
    ``credential_chain`` provider (the packaged ``aws`` extension) reads the keys, profiles and
    instance roles itself, so no key is ever written into a statement; only the endpoint and
    region, which are not secret, are named (path-style buckets for S3-compatible stores)."""
    endpoint = endpoint or s3_endpoint()
    options = ["TYPE s3", "PROVIDER credential_chain"]
    if endpoint.host is not None:
        options += [
            f"ENDPOINT '{_quoted(endpoint.host)}'",
            "URL_STYLE 'path'",
            f"USE_SSL {str(endpoint.use_ssl).lower()}",
        ]
    if endpoint.region:
        options.append(f"REGION '{_quoted(endpoint.region)}'")
    return options


def _quoted(text: str) -> str:
    return text.replace("'", "''")

"""Credentials never shown or stored: every secret the settings and the environment hold is
scrubbed from a text before it is printed, logged, kept as an artifact or written.

Secrets reach messages we do not write: DuckDB quotes a catalog's whole conninfo when it cannot
attach it, a store client may quote a signed request, a library's traceback may hold a key. So
the words that leave the program pass through ``scrub`` at a few doors (where a foreign error
becomes ours, the command line's output, the flows' logs, artifacts and states, a run's error in
the warehouse), and ``scrub`` knows every secret in one place:

- what the program was given: ``keep_secret`` (API keys read from settings, Secret blocks and
  organization files; the webhook secret);
- what the stores' and PostgreSQL's own credential chains read from the environment (the
  variables in ``SECRET_VARIABLES``, a password in ``EMISSIONS_WAREHOUSE``'s conninfo, the
  passwords of libpq's ``.pgpass`` file, the keys of AWS's shared credentials file). These are
  read here, and only here, because the libraries that use them read them there too;
- what has the shape of a credential whatever its value: ``password=...`` in a conninfo, the
  password of a ``scheme://user:password@host`` URL, Azure's ``AccountKey=`` and ``sig=``.
"""

from __future__ import annotations

import configparser
import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from urllib.parse import quote

#: What a secret becomes.
MASK = "***"
#: Shorter values are not scrubbed wherever they appear (a password "ab" would blank every
#: "ab" of a message); the shapes below still catch them where they sit in a credential.
MIN_SECRET_CHARS = 4

#: Environment variables whose value is a credential (ours, libpq's, the stores' chains).
SECRET_VARIABLES = (
    "EMISSIONS_API_KEY",
    "EMISSIONS_WEBHOOK_SECRET",
    "PREFECT_API_KEY",
    "PGPASSWORD",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "AWS_SECURITY_TOKEN",
    "AZURE_STORAGE_KEY",
    "AZURE_STORAGE_ACCOUNT_KEY",
    "AZURE_STORAGE_SAS_TOKEN",
    "AZURE_STORAGE_CONNECTION_STRING",
    "AZURE_CLIENT_SECRET",
    "GOOGLE_OAUTH_ACCESS_TOKEN",
    "CLOUDSDK_AUTH_ACCESS_TOKEN",
)
#: Variables holding a conninfo or connection string whose password part is a secret.
_CONNECTION_VARIABLES = ("EMISSIONS_WAREHOUSE", "AZURE_STORAGE_CONNECTION_STRING")

_SHAPES = (
    # libpq conninfo (and DuckDB's quoting of it): password=secret, password='with space'
    re.compile(r"(\bpassword\s*=\s*)('(?:[^'\\]|\\.)*'|[^\s;'\"]+)", re.IGNORECASE),
    # scheme://user:password@host (postgresql://, a proxy URL)
    re.compile(r"(\b[a-z][a-z0-9+.-]*://[^\s:/@]+:)([^\s/@]+)(?=@)", re.IGNORECASE),
    # Azure connection strings and SAS tokens
    re.compile(r"(\b(?:AccountKey|SharedAccessSignature)=)([^;\s]+)", re.IGNORECASE),
    re.compile(r"([?&]sig=)([^&\s]+)", re.IGNORECASE),
    # AWS signed URLs and headers
    re.compile(r"([?&]X-Amz-(?:Signature|Security-Token|Credential)=)([^&\s]+)", re.IGNORECASE),
)
_CONNINFO_PASSWORD = re.compile(r"\bpassword\s*=\s*('(?:[^'\\]|\\.)*'|[^\s;'\"]+)", re.I)
_URL_PASSWORD = re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s:/@]+:([^\s/@]+)@", re.I)

_kept: set[str] = set()
_files: dict[Path, tuple[int, tuple[str, ...]]] = {}


def keep_secret(value: object) -> None:
    """Remember ``value`` (text or a pydantic SecretStr; None is ignored) as a secret to scrub
    from every text from now on in this process."""
    if value is None:
        return
    reveal = getattr(value, "get_secret_value", None)
    text = str(reveal() if callable(reveal) else value)
    if text:
        _kept.add(text)


def keep_conninfo_secrets(text: str) -> None:
    """Remember the passwords ``text`` holds as a libpq conninfo (``password=...``) or a URL
    (``scheme://user:password@host``): a table source's ``--attach`` names them."""
    for found in _CONNINFO_PASSWORD.findall(text):
        keep_secret(_unquoted(found))
    for found in _URL_PASSWORD.findall(text):
        keep_secret(found)


def known_secrets(environ: Mapping[str, str] | None = None) -> set[str]:
    """Every secret this process knows of: those kept and those its environment holds."""
    environ = os.environ if environ is None else environ
    found = set(_kept)
    found.update(value for name in SECRET_VARIABLES if (value := environ.get(name)))
    for name in _CONNECTION_VARIABLES:
        found.update(_unquoted(m) for m in _CONNINFO_PASSWORD.findall(environ.get(name, "")))
        found.update(re.findall(r"AccountKey=([^;\s]+)", environ.get(name, ""), re.I))
    found.update(_pgpass_passwords(environ))
    found.update(_aws_file_secrets(environ))
    return {secret for secret in found if len(secret) >= MIN_SECRET_CHARS}


def scrub(text: str, environ: Mapping[str, str] | None = None) -> str:
    """``text`` with every known secret (and every credential by its shape) masked."""
    if not text:
        return text
    for shape in _SHAPES:
        text = shape.sub(lambda found: found.group(1) + MASK, text)
    for secret in sorted(known_secrets(environ), key=len, reverse=True):
        for form in _forms(secret):
            text = text.replace(form, MASK)
    return text


def _forms(secret: str) -> tuple[str, ...]:
    """The secret as written, and as a URL or a form quotes it."""
    quoted = quote(secret, safe="")
    return (secret,) if quoted == secret else (secret, quoted)


def _unquoted(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] == "'":
        return re.sub(r"\\(.)", r"\1", value[1:-1])
    return value


def _pgpass_passwords(environ: Mapping[str, str]) -> tuple[str, ...]:
    """The passwords of libpq's password file (``PGPASSFILE``, else ``~/.pgpass``): each is a
    catalog's password as libpq may send it."""
    return _read_once(Path(environ.get("PGPASSFILE") or Path.home() / ".pgpass"), _pgpass)


def _aws_file_secrets(environ: Mapping[str, str]) -> tuple[str, ...]:
    """Secret keys and session tokens of AWS's shared credentials file (profiles)."""
    path = environ.get("AWS_SHARED_CREDENTIALS_FILE") or Path.home() / ".aws" / "credentials"
    return _read_once(Path(path), _aws_credentials)


def _read_once(path: Path, parse: Callable[[str], list[str]]) -> tuple[str, ...]:
    """``parse`` of the file's text, read again only when the file changed (every log line is
    scrubbed: the files are not read for each)."""
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        return ()
    cached = _files.get(path)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    try:
        found = tuple(parse(path.read_text(encoding="utf-8", errors="replace")))
    except OSError:
        found = ()
    _files[path] = (stamp, found)
    return found


def _pgpass(text: str) -> list[str]:
    lines = text.splitlines()
    found = []
    for line in lines:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = re.split(r"(?<!\\):", line, maxsplit=4)
        if len(fields) == 5:
            found.append(fields[4].replace("\\:", ":").replace("\\\\", "\\"))
    return found


def _aws_credentials(text: str) -> list[str]:
    parser = configparser.RawConfigParser()
    try:
        parser.read_string(text)
    except configparser.Error:
        return []
    keys = ("aws_secret_access_key", "aws_session_token", "aws_security_token")
    return [
        parser.get(section, key)
        for section in parser.sections()
        for key in keys
        if parser.has_option(section, key)
    ]


__all__ = [
    "MASK",
    "SECRET_VARIABLES",
    "keep_conninfo_secrets",
    "keep_secret",
    "known_secrets",
    "scrub",
]

"""``--attach NAME=URI``: a database a table source's query reads, by the name the query gives it.

``postgres:<libpq conninfo or URL>``, ``mysql:<DuckDB's MySQL connection string>``,
``sqlite:<path>``, ``duckdb:<path>`` or a bare path (a DuckDB file). Every database is attached
read-only: a sync never writes into the ERP's tables. Credentials come from where each client
reads them (the conninfo, ``PGPASSWORD``, ``.pgpass``, the AWS chain for ``s3://``); a password
given in a URI is kept as a secret (``scrubbing``) the moment it is parsed, so no text shown or
stored holds it, and ``described`` never shows it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from emissions_etl.errors import TableSourceError
from emissions_etl.scrubbing import keep_conninfo_secrets, scrub

#: Kinds of database and DuckDB's ``TYPE`` for each (None: a DuckDB file).
KINDS: dict[str, str | None] = {
    "postgres": "postgres",
    "mysql": "mysql",
    "sqlite": "sqlite",
    "duckdb": None,
}
#: The packaged extension each kind needs (``duckdb_extensions.load_packaged``).
EXTENSIONS = {"postgres": "postgres_scanner", "mysql": "mysql_scanner", "sqlite": "sqlite_scanner"}
_SPELLINGS = {"postgresql": "postgres", "pg": "postgres", "sqlite3": "sqlite"}
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PASSWORD = re.compile(r"(\bpassword\s*=\s*)('(?:[^'\\]|\\.)*'|[^\s;'\"]+)", re.IGNORECASE)


@dataclass(frozen=True)
class Attachment:
    """One database a query reads: ``name`` in the query, its ``kind`` and ``target`` (a
    conninfo, a connection string, a path)."""

    name: str
    kind: str
    target: str = field(repr=False)  # a conninfo may hold a password

    def __post_init__(self) -> None:
        keep_conninfo_secrets(self.target)

    @property
    def described(self) -> str:
        """``NAME=KIND:TARGET`` with every password masked: what runs record and print."""
        return scrub(f"{self.name}={self.kind}:{self.target}")

    @property
    def password(self) -> str | None:
        """The password the target's conninfo holds (``password=...``), if it holds one."""
        found = _PASSWORD.search(self.target)
        return _unquoted(found.group(2)) if found else None

    def without_password(self) -> Attachment:
        """This attachment with no password in its conninfo (the client reads it elsewhere)."""
        return replace(self, target=" ".join(_PASSWORD.sub("", self.target).split()))

    @property
    def extension(self) -> str | None:
        return EXTENSIONS.get(self.kind)

    def attach_sql(self) -> str:
        """The read-only ``ATTACH`` statement (the target quoted as a SQL literal)."""
        kind = KINDS[self.kind]
        options = f"TYPE {kind}, READ_ONLY" if kind else "READ_ONLY"
        target = self.target.replace("'", "''")
        return f"ATTACH '{target}' AS \"{self.name}\" ({options})"


def parse_attachment(text: str) -> Attachment:
    """``NAME=URI`` as an Attachment; TableSourceError saying what a good one looks like."""
    name, equals, uri = text.partition("=")
    name, uri = name.strip(), uri.strip()
    if not equals or not _NAME.fullmatch(name) or not uri:
        raise TableSourceError(
            "--attach",
            f"{scrub(text)!r} is not NAME=URI (erp=postgres:<conninfo>, crm=mysql:<...>, "
            "legacy=sqlite:<path>, or a DuckDB file); NAME is a SQL name, letters, digits and _",
        )
    prefix, colon, rest = uri.partition(":")
    kind = _SPELLINGS.get(prefix.lower(), prefix.lower())
    if colon and kind in KINDS and rest.strip():
        return Attachment(name, kind, rest.strip())
    return Attachment(name, "duckdb", uri)


def parse_attachments(texts: list[str] | tuple[str, ...]) -> tuple[Attachment, ...]:
    """Each ``NAME=URI``; a name given twice is refused."""
    attachments = tuple(parse_attachment(text) for text in texts)
    names = [attachment.name.lower() for attachment in attachments]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise TableSourceError("--attach", f"{', '.join(twice)} attached twice: give each once")
    return attachments


def _unquoted(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] == "'":
        return re.sub(r"\\(.)", r"\1", value[1:-1])
    return value

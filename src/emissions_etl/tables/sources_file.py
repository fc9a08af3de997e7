"""A file of table sources (``--sources FILE.toml``, ``EMISSIONS_SOURCES``): what the nightly
syncs after its inbox, each source as a load of its own.

    [[source]]
    name = "fuel_card"                          # the source's name (default: the query's table)
    resource = "vehicle_consumptions"
    query = "SELECT * FROM erp.public.fuel_card_transactions"
    key = ["txn_id"]                            # or "txn_id", or "company,doc_no"
    organization = "acme-es"                    # optional: synced in that organization's run
    [source.attach]
    erp = "postgres:host=db.internal dbname=erp user=etl"   # NAME = URI, as --attach takes
    # or, with the password in a Prefect Secret block (never in the file):
    # erp = { uri = "postgres:host=db.internal dbname=erp user=etl", password_block = "erp-db" }

Passwords come from libpq's own places (``PGPASSWORD``, ``.pgpass``) or the AWS chain as they
do for ``--attach``; ``prefect-setup --sources`` moves a password written in a URI into a Secret
block and stores the file without it (``public``).
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from emissions_etl.errors import TableSourceError
from emissions_etl.json_values import JsonObject
from emissions_etl.tables.attachments import Attachment, parse_attachment
from emissions_etl.tables.source import TableSource

_FIELDS = {"name", "resource", "query", "key", "organization", "attach"}


@dataclass(frozen=True)
class SourceEntry:
    """One source of the file: the table source, whose run syncs it, and the Secret blocks
    holding its attachments' passwords (attachment name -> block)."""

    source: TableSource
    organization: str | None = None
    password_blocks: Mapping[str, str] | None = None

    def with_passwords(self, passwords: Mapping[str, str]) -> TableSource:
        """The source with each attachment's password (by name) added to its conninfo."""
        attachments = tuple(
            _with_password(attachment, passwords[attachment.name])
            if attachment.name in passwords
            else attachment
            for attachment in self.source.attachments
        )
        return replace(self.source, attachments=attachments)

    def passwords_moved(
        self, block_of: Callable[[str, str], str]
    ) -> tuple[SourceEntry, dict[str, str]]:
        """This entry with each password its URIs hold moved to a Secret block
        (``block_of(source, attachment)`` names it), and those blocks' values."""
        blocks = dict(self.password_blocks or {})
        values: dict[str, str] = {}
        attachments = []
        for attachment in self.source.attachments:
            password = attachment.password
            if password is not None:
                block = block_of(self.source.source_name, attachment.name)
                blocks[attachment.name], values[block] = block, password
                attachment = attachment.without_password()
            attachments.append(attachment)
        source = replace(self.source, attachments=tuple(attachments))
        return replace(self, source=source, password_blocks=blocks or None), values

    def public(self) -> JsonObject:
        """The entry as it may be stored and shown (a Prefect variable): no password (one a
        URI holds is left out: ``passwords_moved`` keeps it in a block first)."""
        attach: JsonObject = {}
        for attachment in self.source.attachments:
            uri = f"{attachment.kind}:{attachment.without_password().target}"
            block = (self.password_blocks or {}).get(attachment.name)
            attach[attachment.name] = {"uri": uri, "password_block": block} if block else uri
        entry: JsonObject = {
            "name": self.source.source_name,
            "resource": self.source.resource,
            "query": self.source.query,
            "key": list(self.source.key),
            "attach": attach,
        }
        if self.organization:
            entry["organization"] = self.organization
        return entry


def read_sources_file(path: Path) -> list[SourceEntry]:
    """The sources of the TOML file ``path``; TableSourceError names what is wrong."""
    try:
        data: Mapping[str, object] = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise TableSourceError(str(path), f"cannot read it ({error.strerror})") from None
    except tomllib.TOMLDecodeError as error:
        raise TableSourceError(str(path), f"not TOML: {error}") from None
    listed = data.get("source", [])
    if not isinstance(listed, list) or not listed:
        raise TableSourceError(str(path), "no [[source]] in it")
    return sources_of(listed, where=str(path))


def sources_of(listed: Sequence[object], *, where: str) -> list[SourceEntry]:
    """The entries ``listed`` (a file's ``[[source]]``, a Prefect variable's list); their
    names are unique."""
    entries = [_entry(item, f"{where}, source {n}") for n, item in enumerate(listed, start=1)]
    names = [entry.source.source_name for entry in entries]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise TableSourceError(where, f"source {', '.join(twice)} named twice: name each once")
    return entries


def _entry(given: object, where: str) -> SourceEntry:
    if not isinstance(given, dict):
        raise TableSourceError(where, "a source is a table of name, resource, query, key, attach")
    item: Mapping[str, object] = given  # a TOML table's (or a JSON object's) keys are texts
    unknown = sorted(set(item) - _FIELDS)
    if unknown:
        raise TableSourceError(where, f"unknown field(s) {', '.join(unknown)}")
    for field in ("resource", "query", "key"):
        if not item.get(field):
            raise TableSourceError(where, f"no {field}")
    key = item["key"]
    if not isinstance(key, str | list):
        raise TableSourceError(where, "key: give a column, or a list of columns")
    columns = tuple(str(c).strip() for c in (key.split(",") if isinstance(key, str) else key))
    attachments, blocks = _attachments(item.get("attach", {}), where)
    name = item.get("name")
    source = TableSource(
        query=str(item["query"]),
        resource=str(item["resource"]),
        key=columns,
        attachments=attachments,
        name=str(name) if name else None,
        defined_in=where,
    )
    organization = item.get("organization")
    return SourceEntry(source, str(organization) if organization else None, blocks or None)


def _attachments(given: object, where: str) -> tuple[tuple[Attachment, ...], dict[str, str]]:
    if not isinstance(given, dict):
        raise TableSourceError(where, "attach is a table of NAME = URI")
    attach: Mapping[str, object] = given
    attachments, blocks = [], {}
    for name, value in attach.items():
        uri = value.get("uri") if isinstance(value, dict) else value
        if not isinstance(uri, str):
            raise TableSourceError(where, f"attach.{name}: give a URI, or {{ uri = ... }}")
        attachments.append(parse_attachment(f"{name}={uri}"))
        if isinstance(value, dict) and value.get("password_block"):
            blocks[str(name)] = str(value["password_block"])
    return tuple(attachments), blocks


def _with_password(attachment: Attachment, password: str) -> Attachment:
    """``attachment`` whose conninfo carries ``password`` (quoted as libpq quotes values)."""
    quoted = "'" + password.replace("\\", "\\\\").replace("'", "\\'") + "'"
    return replace(attachment, target=f"{attachment.target} password={quoted}")

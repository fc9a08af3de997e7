"""The table sources a nightly run syncs after its inbox, as the worker or Prefect holds them: the
worker's ``EMISSIONS_SOURCES`` file wins, else the Prefect variable ``emissions_sources`` (the
file's entries, never a password) with the passwords in Secret blocks, one per attached
database that needs one (``emissions-source-<source>-<database>``).

``emissions-etl prefect-setup --sources FILE`` writes the variable and the blocks. Read when a
run starts, so a source added to the variable is in the next night's runs; a run loads the
sources of its organization (those that name none when it loads the plain settings').
"""

from __future__ import annotations

import re

from pydantic import SecretStr

from emissions_etl.errors import TableSourceError
from emissions_etl.orchestration.config import prefect_variable, secret_block_value
from emissions_etl.orchestration.flow_runs import PlannedSource
from emissions_etl.settings import Settings
from emissions_etl.tables import TableSource
from emissions_etl.tables.sources_file import SourceEntry, read_sources_file, sources_of

SOURCES_VARIABLE = "emissions_sources"
PASSWORD_BLOCK_PREFIX = "emissions-source-"


def password_block_name(source: str, attachment: str) -> str:
    """``emissions-source-fuel-card-erp``: the Secret block of a source's database password (a
    block's name takes lower-case letters, digits and dashes)."""
    return PASSWORD_BLOCK_PREFIX + re.sub(r"[^a-z0-9-]+", "-", f"{source}-{attachment}".lower())


def sources_of_the_run(organization: str | None) -> list[SourceEntry]:
    """The sources a run for ``organization`` syncs (None: the plain settings' run), without
    their passwords: the worker's file, else the Prefect variable; none when neither is set."""
    path = Settings().sources
    if path is not None:
        entries = read_sources_file(path)
    else:
        listed = prefect_variable(SOURCES_VARIABLE, parse=False)
        if not listed:
            return []
        if not isinstance(listed, list):
            raise TableSourceError(SOURCES_VARIABLE, "the variable does not hold a list")
        entries = sources_of(listed, where=f"the Prefect variable {SOURCES_VARIABLE}")
    return [entry for entry in entries if entry.organization == organization]


def planned_sources(organization: str | None) -> list[PlannedSource]:
    """The table sources of the run, by name and resource, as the nightly hands them to its
    tasks (each reads its source, passwords included, when it runs)."""
    return [
        PlannedSource(entry.source.source_name, entry.source.resource)
        for entry in sources_of_the_run(organization)
    ]


def source_named(name: str, organization: str | None) -> TableSource:
    """The source ``name`` of the run, with the passwords its Secret blocks hold."""
    for entry in sources_of_the_run(organization):
        if entry.source.source_name == name:
            passwords = {
                attachment: value
                for attachment, block in (entry.password_blocks or {}).items()
                if (value := secret_block_value(block))
            }
            return entry.with_passwords(passwords)
    raise TableSourceError(name, "no longer among the run's table sources")


def save_sources(entries: list[SourceEntry]) -> list[str]:
    """The passwords the entries' URIs hold in their Secret blocks, then the entries without
    them in the variable; returns the blocks written."""
    from prefect.blocks.system import Secret
    from prefect.variables import Variable

    stored, written = [], []
    for entry in entries:
        moved, values = entry.passwords_moved(password_block_name)
        for block, value in values.items():
            Secret(value=SecretStr(value)).save(block, overwrite=True)
            written.append(block)
        stored.append(moved.public())
    Variable.set(SOURCES_VARIABLE, stored, overwrite=True)
    return written

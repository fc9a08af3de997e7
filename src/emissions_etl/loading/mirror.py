"""``--mirror``: the file is the whole truth for its source, so the records of rows it no longer
has are deleted, in the service (through the resource's delete operation) and the warehouse.

A mirror is guarded: it deletes nothing when rows of the file were rejected, or sheets of its
workbook refused (their records cannot be told from those of dropped rows), and refuses to
delete more than a bounded share of the source's records unless allowed (a wrong or truncated
file must not empty a data set).
Deletions are marked pending before they are sent, so a crash half-way is finished by the next
run of the resource.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import pandas as pd

from emissions_etl.errors import MirrorRefusedError
from emissions_etl.loading.ports import LoadWarehouse

#: Largest share of a source's records one mirror deletes without ``--allow-mass-delete``.
MASS_DELETE_SHARE = 0.2
#: So many deletions are always allowed (a correction of a small file).
ALWAYS_ALLOWED = 2
#: Pending marks of a mirror's deletions start with this (``pending_uploads.idempotency_key``).
MIRROR_MARK = "mirror:"


class Deleter(Protocol):
    """A write strategy's delete operation (``Writer.delete``)."""

    def delete(self, ids: list[str]) -> int: ...


@dataclass(frozen=True)
class MirrorPlan:
    """What a mirror of ``source_name`` deletes: the records of rows its file no longer has."""

    source_name: str
    #: source_key, remote_id and where the row was last seen (source_file, sheet, row).
    gone: pd.DataFrame
    #: Records the source's rows map to now (those of the file and the gone ones).
    held: int

    @property
    def share(self) -> float:
        return len(self.gone) / self.held if self.held else 0.0


@dataclass(frozen=True)
class MirrorRequest:
    """One file's load, as its mirror needs it."""

    path: str
    resource: str
    source_name: str
    run_id: str
    rows_rejected: int
    #: Delete what the file no longer has (else only count it).
    mirror: bool
    allow_mass_delete: bool
    dry_run: bool
    #: Sheets of the file's workbook refused (not read): their rows may be the gone records'.
    sheets_refused: tuple[str, ...] = ()
    #: What holds the rows, in messages: a file, or a table source's query.
    holder: str = "file"


@dataclass
class MirrorOutcome:
    """The records of the source the file no longer has, and what became of them."""

    gone: int = 0
    deleted: int = 0
    notes: list[str] = field(default_factory=list)


def mirror_source(writer: LoadWarehouse, deleter: Deleter, request: MirrorRequest) -> MirrorOutcome:
    """Count the records of the source whose rows the file no longer has; with ``mirror``,
    delete them (on a dry run, say which), as guarded by ``check_mirror``."""
    plan = plan_mirror(writer, request.resource, request.source_name, request.run_id)
    outcome = MirrorOutcome(gone=len(plan.gone))
    source = repr(request.source_name)
    if not request.mirror:
        if outcome.gone:
            outcome.notes.append(
                f"{outcome.gone} record(s) of source {source} have no row in this "
                f"{request.holder} (dropped "
                "or edited rows): they stay in the service; load with --mirror to delete them"
            )
        return outcome
    try:
        check_mirror(
            plan,
            path=request.path,
            rows_rejected=request.rows_rejected,
            allow_mass_delete=request.allow_mass_delete,
            sheets_refused=request.sheets_refused,
            holder=request.holder,
        )
    except MirrorRefusedError as refused:
        if not request.dry_run:
            raise
        outcome.notes.append(f"the mirror would be refused: {refused.reason}")
    if request.dry_run:
        if outcome.gone:
            outcome.notes.append(
                f"--mirror would delete {outcome.gone} record(s) of source {source}, last seen "
                f"at {_places(plan.gone)}"
            )
        return outcome
    outcome.deleted = apply_mirror(writer, deleter, request.resource, plan, request.run_id)
    return outcome


def _places(rows: pd.DataFrame, shown: int = 5) -> str:
    """Where rows were last seen (``file sheet row``, a table's ``source key``), the first
    ``shown`` of them."""
    places = [
        " ".join(str(part) for part in (row.source_file, row.source_sheet, _row_of(row))
                 if part not in (None, "", "None"))
        for row in rows.head(shown).itertuples()
    ]  # fmt: skip
    more = f" and {len(rows) - shown} more" if len(rows) > shown else ""
    return ", ".join(places) + more


def _row_of(row: object) -> str:
    key = getattr(row, "source_row_key", None)
    return str(key) if isinstance(key, str) and key else f"row {getattr(row, 'source_row', '')}"


def plan_mirror(writer: LoadWarehouse, resource: str, source_name: str, run_id: str) -> MirrorPlan:
    """The records of ``source_name`` whose rows run ``run_id`` did not land."""
    gone = writer.mappings.gone_rows(resource, source_name, run_id)
    held = writer.mappings.source_records(resource, source_name)
    return MirrorPlan(source_name, gone, held)


def check_mirror(
    plan: MirrorPlan,
    *,
    path: str,
    rows_rejected: int,
    allow_mass_delete: bool,
    sheets_refused: Sequence[str] = (),
    holder: str = "file",
) -> None:
    """MirrorRefusedError when the mirror must delete nothing (see the module's docstring);
    ``sheets_refused``: sheets of the workbook that were not read (their rows may be the gone
    records')."""
    gone = len(plan.gone)
    if gone == 0:
        return
    if sheets_refused:
        raise MirrorRefusedError(
            path,
            f"--mirror deletes nothing while sheets of the workbook are refused "
            f"({', '.join(sheets_refused)}): the {gone} record(s) of source "
            f"{plan.source_name!r} whose rows are not loaded may be theirs; fix them and load "
            "again",
            gone=gone,
            held=plan.held,
        )
    if rows_rejected:
        raise MirrorRefusedError(
            path,
            f"--mirror deletes nothing while rows are rejected ({rows_rejected} here): the "
            f"{gone} record(s) of source {plan.source_name!r} whose rows are not loaded may be "
            "those rows'; fix the rejected rows and load again",
            gone=gone,
            held=plan.held,
        )
    if gone > ALWAYS_ALLOWED and plan.share > MASS_DELETE_SHARE and not allow_mass_delete:
        raise MirrorRefusedError(
            path,
            f"--mirror would delete {gone} of the {plan.held} records of source "
            f"{plan.source_name!r} ({plan.share:.0%}, more than {MASS_DELETE_SHARE:.0%}): "
            f"check that the {holder} is whole and is this source's, then add "
            "--allow-mass-delete",
            gone=gone,
            held=plan.held,
        )


def apply_mirror(
    writer: LoadWarehouse, deleter: Deleter, resource: str, plan: MirrorPlan, run_id: str
) -> int:
    """Delete the gone records in the service, then forget them in the warehouse."""
    if plan.gone.empty:
        return 0
    marks = plan.gone[["source_key", "remote_id"]].assign(source_hash="")
    key = MIRROR_MARK + run_id
    writer.marks.add_pending(resource, run_id, key, marks)
    deleted = _delete(writer, deleter, resource, marks)
    writer.marks.clear_pending(resource, key)
    return deleted


def finish_interrupted_mirrors(writer: LoadWarehouse, deleter: Deleter, resource: str) -> int:
    """Finish the deletions a mirror marked and did not see through (a crash)."""
    pending = writer.marks.pending(resource)
    marked = pending[pending["idempotency_key"].astype(str).str.startswith(MIRROR_MARK)]
    if marked.empty:
        return 0
    deleted = _delete(writer, deleter, resource, marked.drop_duplicates("remote_id"))
    writer.marks.clear_pending(resource, marked["idempotency_key"].unique().tolist())
    return deleted


def _delete(writer: LoadWarehouse, deleter: Deleter, resource: str, marks: pd.DataFrame) -> int:
    ids = marks["remote_id"].astype(str).tolist()
    deleted = deleter.delete(ids)
    writer.mappings.forget(resource, marks["source_key"].astype(str).tolist(), ids)
    return deleted

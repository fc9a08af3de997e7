"""A file's rows read and validated batch by batch, before anything is sent: the valid rows
with their keys, the rejects, and strict mode's pass over the whole file
(``emissions-etl validate`` stops here)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from emissions_etl.domain.references import References
from emissions_etl.domain.rejects import RejectCode, empty_rejects, make_rejects
from emissions_etl.domain.row_keys import ContentKeys
from emissions_etl.errors import StrictModeError
from emissions_etl.loading.options import LoadOptions, ProgressCallback, source_name
from emissions_etl.loading.ports import RunLog
from emissions_etl.loading.validation import validate_batch
from emissions_etl.profiles.reading import read_batches
from emissions_etl.resources import ResourceSpec
from emissions_etl.storage import AnyPath


@dataclass
class ValidationSummary:
    """Offline verdict on a file: how many rows, and the rejects."""

    rows_read: int
    rows_valid: int
    rejects: pd.DataFrame
    #: Rows read and valid per sheet ("" for a csv), in reading order.
    read_by_sheet: Counter[str] = field(default_factory=Counter)
    valid_by_sheet: Counter[str] = field(default_factory=Counter)


def iter_validated(
    path: AnyPath, spec: ResourceSpec, options: LoadOptions
) -> Iterator[tuple[int, pd.DataFrame, pd.DataFrame]]:
    """(rows read, valid rows, rejects) per batch; a key repeated across batches is rejected;
    rows without a key are numbered by content across the whole file: across every sheet of
    ``options.sheets``, read one after the other (a batch never spans two sheets)."""
    seen: set[str] = set()
    content_keys = ContentKeys(source_name(path, options))
    for batch, left_out in _read_sheets(path, spec, options):
        result = validate_batch(batch, spec, content_keys)
        valid, rejects = result.valid, pd.concat([left_out, result.rejects], ignore_index=True)
        keys = valid["source_key"].astype(str).tolist()
        # Looked up one by one: Series.isin(set) converts the whole set on every batch, a cost
        # that grew with the file.
        repeated = np.fromiter((key in seen for key in keys), dtype=bool, count=len(keys))
        if repeated.any():
            rejects = pd.concat([rejects, _repeated_rejects(valid[repeated], spec)])
            valid = valid[~repeated]
        seen.update(valid["source_key"].astype(str))
        yield len(batch) + rejected_rows(left_out), valid, rejects


def _read_sheets(
    path: AnyPath, spec: ResourceSpec, options: LoadOptions
) -> Iterator[tuple[pd.DataFrame, pd.DataFrame]]:
    """``read_batches`` of each sheet of ``options.sheets`` in turn (each read as the only
    sheet: its own header, its own profile), or of the file as ``options.sheet`` says."""
    if not options.sheets:
        yield from read_batches(path, spec, options)
        return
    for sheet in options.sheets:
        yield from read_batches(path, spec, replace(options, sheet=sheet, sheets=()))


def _repeated_rejects(rows: pd.DataFrame, spec: ResourceSpec) -> pd.DataFrame:
    column = spec.natural_key[0] if spec.natural_key else "client_row_id"
    keys = rows["source_key"].astype(str)
    return make_rejects(
        rows,
        column=rows.attrs.get("headers", {}).get(column, column),
        value=keys,
        code=RejectCode.DUPLICATE_ROW_ID,
        message="'" + keys + "' is already used by an earlier row of the file; "
        "give each row its own.",
    )


def validate_file(
    path: AnyPath,
    *,
    spec: ResourceSpec,
    options: LoadOptions | None = None,
    progress: ProgressCallback | None = None,
) -> ValidationSummary:
    """Read and validate a file without the service (``emissions-etl validate``); ``progress``
    is told the rows of each batch once validated (stage "read")."""
    options = options or LoadOptions()
    summary = ValidationSummary(0, 0, empty_rejects())
    rejects = [summary.rejects]
    for read, valid, batch_rejects in iter_validated(path, spec, options):
        if progress is not None:
            progress("read", read)
        summary.rows_read += read
        summary.rows_valid += len(valid)
        rejects.append(batch_rejects)
        # A batch is rows of one sheet: its valid rows or its rejects say which.
        sheet = next(iter([*valid["_sheet"].head(1), *batch_rejects["sheet"].head(1)]), "")
        summary.read_by_sheet[str(sheet)] += read
        summary.valid_by_sheet[str(sheet)] += len(valid)
    summary.rejects = pd.concat(rejects, ignore_index=True)
    return summary


def rejected_rows(rejects: pd.DataFrame) -> int:
    """Distinct rows among rejects (a row with two bad cells counts once)."""
    if rejects.empty:
        return 0
    return int(rejects[["file", "sheet", "row"]].drop_duplicates().shape[0])


def check_strict(
    batches: Iterable[tuple[int, pd.DataFrame, pd.DataFrame]],
    spec: ResourceSpec,
    references: References,
    runs: RunLog,
    run_id: str,
) -> None:
    """A pass over the validated ``batches`` that resolves without sending, so strict mode
    sends nothing when any row is bad; the rejects it finds are kept for the person who fixes
    the file."""
    found = [empty_rejects()]
    for _read, valid, rejects in batches:
        found += [rejects, spec.to_records(valid, references)[1]]
    all_rejects = pd.concat(found, ignore_index=True)
    if not all_rejects.empty:
        runs.land_rejects(run_id, spec.name, all_rejects)
        raise StrictModeError(rejected_rows(all_rejects), rejects=all_rejects)

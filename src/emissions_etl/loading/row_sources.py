"""Where one load's rows come from, as the pipeline needs it: a file (``FileRows``: its path,
its sheets) or a table source (``TableRows``: a query's result, each row named by its key).
Either gives the same validated batches; the run records where they came from."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

import pandas as pd

from emissions_etl.domain.table_keys import table_keys
from emissions_etl.json_values import JsonObject, JsonValue
from emissions_etl.loading.file_plan import SheetFate
from emissions_etl.loading.options import LoadOptions, run_parameters, source_name
from emissions_etl.loading.validated import iter_validated, rejected_rows
from emissions_etl.loading.validation import validate_batch
from emissions_etl.profiles.table_reading import read_table_batches
from emissions_etl.resources import ResourceSpec
from emissions_etl.sources.digest import file_sha256
from emissions_etl.sources.frames import ROW_KEY_COLUMN
from emissions_etl.storage import AnyPath
from emissions_etl.tables import TableSource

#: (rows read, valid rows, rejects) of one batch.
Validated = tuple[int, pd.DataFrame, pd.DataFrame]


class RowSource(Protocol):
    """The rows of one load, of one resource, and what its run records of where they are."""

    @property
    def location(self) -> str:
        """The run's ``source``: the file's path, or ``sql:<source>``."""
        ...

    @property
    def name(self) -> str:
        """The data set the rows belong to (a mirror deletes within it)."""
        ...

    @property
    def empty_reason(self) -> str:
        """Why a load that read no row fails."""
        ...

    @property
    def sheets_refused(self) -> tuple[str, ...]:
        """Sheets of a workbook not read (their rows may be those a mirror would delete)."""
        ...

    @property
    def holder(self) -> str:
        """What holds the rows, in messages: ``file``, ``query``."""
        ...

    def digest(self) -> str | None:
        """The SHA-256 of the document read (None: not a document)."""
        ...

    def as_source(self, name: str) -> RowSource:
        """The same rows, belonging to the data set ``name``."""
        ...

    def parameters(self) -> Mapping[str, JsonValue]:
        """The run's parameters."""
        ...

    def validated(self) -> Iterator[Validated]:
        """The rows, read and validated, batch by batch."""
        ...


@dataclass(frozen=True)
class FileRows:
    """A file's rows (or the sheets ``options.sheets`` of a workbook)."""

    path: AnyPath
    spec: ResourceSpec
    options: LoadOptions
    workbook: Sequence[SheetFate] = ()

    @property
    def location(self) -> str:
        return str(self.path)

    @property
    def name(self) -> str:
        return source_name(self.path, self.options)

    @property
    def empty_reason(self) -> str:
        return "no data rows under the header"

    @property
    def sheets_refused(self) -> tuple[str, ...]:
        return tuple(fate.sheet for fate in self.workbook if fate.refused)

    @property
    def holder(self) -> str:
        return "file"

    def digest(self) -> str | None:
        return file_sha256(self.path)

    def as_source(self, name: str) -> FileRows:
        return replace(self, options=replace(self.options, source=name))

    def parameters(self) -> Mapping[str, JsonValue]:
        return run_parameters(self.path, self.options, self.workbook)

    def validated(self) -> Iterator[Validated]:
        return iter_validated(self.path, self.spec, self.options)


@dataclass(frozen=True)
class TableRows:
    """A table source's rows: its query's result, in its key's order."""

    source: TableSource
    spec: ResourceSpec
    options: LoadOptions

    @property
    def location(self) -> str:
        return f"sql:{self.name}"

    @property
    def name(self) -> str:
        return self.source.source_name

    @property
    def empty_reason(self) -> str:
        return "the query returned no rows"

    @property
    def sheets_refused(self) -> tuple[str, ...]:
        return ()

    @property
    def holder(self) -> str:
        return "query"

    def digest(self) -> str | None:
        return None

    def as_source(self, name: str) -> TableRows:
        return self  # a table source is its own data set, named by its entry

    def parameters(self) -> Mapping[str, JsonValue]:
        return {**self.source.parameters(), "resource": self.spec.name,
                **_load_knobs(self.options)}  # fmt: skip

    def validated(self) -> Iterator[Validated]:
        """Each batch of the result: rows without a key of their own rejected, the others
        validated with their key as their identity (``<source>#txn_id=T-0101``)."""
        for batch, left_out in read_table_batches(self.source, self.spec, self.options):
            keys = table_keys(self.name, batch[ROW_KEY_COLUMN])
            result = validate_batch(batch, self.spec, given_keys=keys)
            rejects = pd.concat([left_out, result.rejects], ignore_index=True)
            yield len(batch) + rejected_rows(left_out), result.valid, rejects


def _load_knobs(options: LoadOptions) -> JsonObject:
    """The options a table source's run records (a file's sheets and encodings mean nothing)."""
    return {
        "strict": options.strict,
        "dry_run": options.dry_run,
        "mirror": options.mirror,
        "allow_mass_delete": options.allow_mass_delete,
        "profile": options.profile,
        "batch_rows": options.batch_rows,
    }

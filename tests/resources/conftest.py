"""A fresh organization per test with the parents every example needs, and example workbooks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl

from emissions_etl.errors import AlreadyLoadedError
from emissions_etl.loading.pipeline import LoadOptions, LoadSummary, load_file
from emissions_etl.resources import resource_spec
from tests.pipeline.tenancy import Tenant, tenant  # noqa: F401  (fixture)
from tests.resources.examples import EXAMPLES, Example


def write_example(path: Path, example: Example, rows: list[list[Any]]) -> Path:
    """The example as a person's workbook: its header, then ``rows``."""
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet.title = example.resource[:31]
    for row in [*example.title_rows, example.header, *rows]:
        sheet.append(row)
    workbook.save(path)
    return path


def load(org: Tenant, resource: str, path: Path, **options: Any) -> LoadSummary:
    with org.client() as client:
        return load_file(
            path,
            api=client,
            warehouse=org.warehouse,
            spec=resource_spec(resource),
            options=LoadOptions(**options),
        )


def load_parents(org: Tenant, example: Example) -> None:
    """Load the examples of ``example``'s parents (and theirs) first."""
    for parent in example.parents:
        load_parents(org, EXAMPLES[parent])
        path = org.workdir / f"parent-{parent}.xlsx"
        if not path.exists():
            written = write_example(path, EXAMPLES[parent], EXAMPLES[parent].rows)
            try:
                summary = load(org, parent, written)
            except AlreadyLoadedError:  # the test loaded that example itself: the parents exist
                continue
            assert summary.rows_rejected == 0, summary.rejects.to_dict("records")

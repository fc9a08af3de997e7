"""The two ways a person receives rejects: JSON is for machines and tickets; the annotated
workbook is for the person who owns the spreadsheet.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from emissions_etl.domain.rejects import reject_records


def write_rejects_json(rejects: pd.DataFrame, path: Path) -> None:
    """A UTF-8 JSON array of reject objects, sorted by file, sheet, row and column."""
    text = json.dumps(reject_records(rejects), ensure_ascii=False, indent=2)
    Path(path).write_text(text + "\n", "utf-8")


def write_annotated_workbook(source: Path, rejects: pd.DataFrame, out: Path) -> str | None:
    """A copy of ``source`` (an xlsx; a csv, .xls, .xlsb, .ods or HTML table turned into xlsx)
    with bad cells filled light red, each carrying its message as a comment, plus a "Rejects"
    sheet listing them all; any value is written (control characters escaped), never an
    error. Returns why the copy lacks the workbook's formatting or cells, if it does
    (``annotated_workbook``)."""
    from emissions_etl.loading.annotated_workbook import write_annotated

    return write_annotated(Path(source), rejects, Path(out))

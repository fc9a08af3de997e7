"""The two ways a person receives rejects: JSON is for machines and tickets; the annotated
workbook is for the person who owns the spreadsheet. Either may be written to an object store,
and the workbook annotated may be read from one.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from emissions_etl.domain.rejects import reject_records
from emissions_etl.errors import InputError
from emissions_etl.storage import AnyPath, as_path, local_file, write_text, written


def write_rejects_json(rejects: pd.DataFrame, path: AnyPath) -> None:
    """A UTF-8 JSON array of reject objects, sorted by file, sheet, row and column."""
    text = json.dumps(reject_records(rejects), ensure_ascii=False, indent=2)
    write_text(as_path(path), text + "\n")


def write_annotated_workbook(
    source: AnyPath | None, rejects: pd.DataFrame, out: AnyPath
) -> str | None:
    """A copy of ``source`` (an xlsx; a csv, .xls, .xlsb, .ods or HTML table turned into xlsx)
    with bad cells filled light red, each carrying its message as a comment, plus a "Rejects"
    sheet listing them all; any value is written (control characters escaped), never an
    error. Returns why the copy lacks the workbook's formatting or cells, if it does
    (``annotated_workbook``). ``source`` None: rows of a table source, which has no original
    (the rejects are listed, each with its row's key)."""
    from emissions_etl.loading.annotated_workbook import write_annotated, write_listed

    if source is None:
        with written(as_path(out)) as local:
            write_listed(rejects, local)
        return None
    copy: Path | None
    try:
        copy = local_file(as_path(source))  # a workbook in a store: its copy on this disk
    except InputError:
        copy = None  # gone, or its store unreachable: the rejects are listed alone
    with written(as_path(out)) as local:
        return write_annotated(copy, rejects, local)

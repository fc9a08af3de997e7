"""The evidence behind each line of the inventory, for an auditor: every record a line adds up,
one row each, with the row it came from (file, sheet, row as the spreadsheet shows it), the
SHA-256 of the file as it was loaded (so the document can be told to be the one behind the
figure) and when it landed. A record is listed under every line it adds up into (its category,
its scope, the total), so the records of a line add up to the line.

``--sample N`` keeps N records of each line, drawn reproducibly from a seed, as an auditor
samples a population.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import openpyxl
import pandas as pd

from emissions_etl.inventory.esrs import record_lines
from emissions_etl.inventory.files import check_target, write_atomically, write_csv
from emissions_etl.inventory.reading import Inventory

#: The evidence file's columns: the record's field in the warehouse for each (``line`` and
#: ``co2e_kg`` first: what a line is, and what adds up to it).
COLUMNS = {
    "line": "line",
    "co2e_kg": "co2e_kg",
    "resource": "resource",
    "service_id": "remote_id",
    "source_key": "source_key",
    "activity_date": "activity_date",
    "status": "status",
    "facility": "facility_name",
    "source": "source_name",
    "file": "source_file",
    "sheet": "source_sheet",
    "row": "source_row",
    "file_sha256": "file_sha256",
    "landed_at": "landed_at",
    "run_id": "run_id",
}
#: What an empty ``file_sha256`` means, for the About sheet and the command line.
NO_DIGEST_NOTE = (
    "landed before emissions-etl recorded the SHA-256 of the files it loads: empty (the next "
    "load of the file records it)"
)


@dataclass(frozen=True)
class Evidence:
    """The rows of the evidence file, and how they were drawn."""

    rows: pd.DataFrame
    #: Records of each line before sampling, by line (in the table's order).
    population: pd.Series
    #: Records per line kept (None: every record) and the seed they were drawn with.
    sample: int | None = None
    seed: int | None = None

    @property
    def without_digest(self) -> int:
        """Rows whose file's SHA-256 was not recorded when they landed (and came from a file)."""
        rows = self.rows
        return int((rows["file_sha256"].isna() & rows["file"].notna()).sum())


def evidence(
    inventory: Inventory, records: pd.DataFrame, *, sample: int | None = None, seed: int = 0
) -> Evidence:
    """The records behind each line of ``inventory`` (``records.records_behind``), in the
    table's order of lines, each line's in the order of file, sheet and row; ``sample`` of each
    line's drawn with ``seed`` (a line with fewer keeps them all)."""
    if sample is not None and sample < 1:
        raise ValueError(f"--sample {sample}: give how many records of each line, 1 or more")
    order = {line: position for position, line in enumerate(inventory.lines["line"])}
    listed = record_lines(records)
    listed = listed.assign(position=listed["line"].map(order)).sort_values(
        ["position", "source_file", "source_sheet", "source_row", "resource", "remote_id"],
        kind="stable", na_position="last",
    )  # fmt: skip
    population = listed.groupby("line", sort=False).size()
    if sample is not None:
        listed = _sampled(listed, sample, seed)
    rows = listed[list(COLUMNS.values())].set_axis(list(COLUMNS), axis=1)
    rows = rows.assign(row=rows["row"].astype("Int64")).reset_index(drop=True)
    return Evidence(rows, population, sample, seed if sample is not None else None)


def _sampled(listed: pd.DataFrame, size: int, seed: int) -> pd.DataFrame:
    """``size`` rows of each line, drawn by one generator seeded with ``seed`` line after line
    (the same records and seed draw the same rows), kept in their order."""
    generator = np.random.default_rng(seed)
    kept = []
    for _, part in listed.groupby("position", sort=True):
        if len(part) <= size:
            kept.append(part)
        else:
            chosen = np.sort(generator.choice(len(part), size=size, replace=False))
            kept.append(part.iloc[chosen])
    return pd.concat(kept) if kept else listed


#: Rows a worksheet holds under its header.
XLSX_MAX_ROWS = 1_048_575


def write_evidence(found: Evidence, out: Path, *, facts: list[tuple[str, str]]) -> Path:
    """``out``: .csv the rows; .xlsx the rows (sheet ``Evidence``) and an About sheet of
    ``facts`` and how the rows were drawn. ValueError for more rows than a worksheet holds."""
    check_target(out, "--evidence")
    rows = [
        [_cell(value) for value in row]
        for row in found.rows.astype(object).where(found.rows.notna(), None).itertuples(index=False)
    ]
    if out.suffix.lower() == ".csv":
        write_atomically(out, lambda path: write_csv(path, list(COLUMNS), rows))
        return out
    if len(rows) > XLSX_MAX_ROWS:
        raise ValueError(
            f"--evidence {out}: {len(rows):,} rows are more than a worksheet holds; write a "
            ".csv, or draw a sample (--sample N)"
        )
    drawn = (
        f"{found.sample} record(s) of each line, drawn with --seed {found.seed} (the same seed "
        "draws the same records); a line with fewer lists them all"
        if found.sample is not None else "every record of each line"
    )  # fmt: skip
    about = [
        *facts,
        ("records", drawn),
        ("adds up", "a record is listed under every line it adds up into (its category, its "
                    "scope, the total): the co2e_kg of a line's records is the line's"),
        ("row", "as the spreadsheet shows it (1 is the first row)"),
        ("file_sha256", "the SHA-256 of the file as it was loaded: compare it with the "
                        "document's (sha256sum FILE)"),
        ("no file_sha256", f"{found.without_digest:,} row(s) {NO_DIGEST_NOTE}"
                           if found.without_digest else ""),
    ]  # fmt: skip

    def write(path: Path) -> None:
        workbook = openpyxl.Workbook(write_only=True)
        sheet = workbook.create_sheet("Evidence")
        sheet.append(list(COLUMNS))
        for row in rows:
            sheet.append(row)
        notes = workbook.create_sheet("About")
        notes.append(["what", "value"])
        for fact in about:
            if fact[1]:
                notes.append(list(fact))
        workbook.save(path)

    write_atomically(out, write)
    return out


def _cell(value: object) -> object:
    """A plain value for a cell (dates as dates, timestamps in UTC without their zone)."""
    if isinstance(value, pd.Timestamp):
        if value.tzinfo is not None:
            return value.tz_convert("UTC").tz_localize(None).to_pydatetime()
        return value.to_pydatetime()
    return value.item() if hasattr(value, "item") else value

"""Prints how long reading a 100,000-row xlsx and validating 1,000,000 rows take.

Targets (issue, performance): xlsx of 100,000 rows read under 2 s; validation of 1,000,000
rows under 2 s. Run: ``.venv/bin/python tests/benchmarks/bench_read_validate.py``.
"""

from __future__ import annotations

import datetime as dt
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
from openpyxl import Workbook

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from emissions_etl.loading.validation import validate_batch  # noqa: E402
from emissions_etl.resources import resource_spec  # noqa: E402
from emissions_etl.sources import read_source  # noqa: E402
from tests.benchmarks.results import write_results  # noqa: E402

WASTES = resource_spec("wastes")
HEADERS = ["Facility", "Identification name", "Start date", "End date", "Base quantity", "Unit",
           "LER code", "RD code", "Destination", "Description", "Total km to waste center",
           "Client row id"]  # fmt: skip
EXPECTED = list(WASTES.columns)


def write_xlsx(path: Path, rows: int) -> None:
    workbook = Workbook(write_only=True)
    sheet = workbook.create_sheet("Wastes")
    sheet.append(["Waste report"])
    sheet.append([])
    sheet.append(HEADERS)
    start = dt.date(2026, 1, 1)
    for i in range(rows):
        day = start + dt.timedelta(days=i % 180)
        end = day + dt.timedelta(days=27)
        quantity = 10.5 + i % 50
        sheet.append(["Madrid Warehouse", f"INV-{i}", day, end, quantity, "kg", "20 01 01", "R3",
                      "Gestor Norte", "", 12.5, f"row-{i}"])  # fmt: skip
    workbook.save(path)


def frame_like_xlsx(rows: int) -> pd.DataFrame:
    """What read_source yields for an xlsx: text as str, numbers as float, dates as objects."""
    rng = np.random.default_rng(7)
    days = pd.to_datetime("2026-01-01") + pd.to_timedelta(rng.integers(0, 180, rows), unit="D")
    quantity = rng.uniform(-1, 500, rows).round(2)  # about 0.2% not positive
    frame = pd.DataFrame(
        {
            "facility": pd.Series(
                ["Madrid Warehouse", "Barcelona Plant"] * (rows // 2), dtype="str"
            ),
            "identification_name": pd.Series([f"INV-{i}" for i in range(rows)], dtype="str"),
            "start_date": pd.Series(days.date, dtype=object),
            "end_date": pd.Series((days + pd.Timedelta(days=27)).date, dtype=object),
            "base_quantity": quantity,
            "unit": pd.Series(["kg", "t"] * (rows // 2), dtype="str"),
            "ler_code": pd.Series(["20 01 01", "15 01 02"] * (rows // 2), dtype="str"),
            "rd_code": pd.Series(["R3", "D1"] * (rows // 2), dtype="str"),
            "destination": pd.Series("Gestor Norte", index=range(rows), dtype="str"),
            "description": pd.Series("", index=range(rows), dtype="str"),
            "total_km_to_waste_center": pd.Series(12.5, index=range(rows)),
            "client_row_id": pd.Series("", index=range(rows), dtype="str"),
            "_file": "bench.xlsx",
            "_sheet": "Wastes",
            "_row": np.arange(4, rows + 4),
        }
    )
    frame.attrs["headers"] = dict(zip(EXPECTED, HEADERS, strict=True))
    return frame


def frame_like_csv(rows: int) -> pd.DataFrame:
    """What read_source yields for a csv: every cell text, decimal commas, dd/mm/yyyy."""
    frame = frame_like_xlsx(rows)
    for name in ("start_date", "end_date"):
        frame[name] = pd.to_datetime(frame[name]).dt.strftime("%d/%m/%Y").astype("str")
    for name in ("base_quantity", "total_km_to_waste_center"):
        frame[name] = frame[name].map("{:.2f}".format).str.replace(".", ",")
    frame["_sheet"] = ""
    return frame


#: Each measurement's wall and CPU seconds, by its label, for write_results.
FIGURES: dict[str, float] = {}


def timed(label: str, action) -> object:  # type: ignore[no-untyped-def]
    began, cpu = time.perf_counter(), time.process_time()
    result = action()
    wall, used = time.perf_counter() - began, time.process_time() - cpu
    # CPU seconds too: on a shared machine the wall time counts other people's work.
    print(f"{label}: {wall:.2f} s (cpu {used:.2f} s)")
    FIGURES[f"{label}: wall (s)"] = round(wall, 2)
    FIGURES[f"{label}: cpu (s)"] = round(used, 2)
    return result


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.xlsx"
        timed("write 100,000-row xlsx (openpyxl, setup)", lambda: write_xlsx(path, 100_000))
        batches = timed(
            "read 100,000-row xlsx (target < 2 s)",
            lambda: list(
                read_source(
                    path,
                    expected_columns=EXPECTED,
                    aliases=WASTES.aliases,
                    required_columns=WASTES.required_columns,
                )  # fmt: skip
            ),
        )
        print(f"  rows read: {sum(len(b) for b in batches)}")  # type: ignore[attr-defined]
    for label, build in (("xlsx-like", frame_like_xlsx), ("csv-like", frame_like_csv)):
        frame = build(1_000_000)
        result = timed(
            f"validate 1,000,000 {label} rows (target < 2 s)",
            lambda f=frame: validate_batch(f, WASTES),
        )
        print(f"  valid: {len(result.valid)}, rejects: {len(result.rejects)}")  # type: ignore[attr-defined]
    write_results(
        "bench_read_validate", FIGURES, parameters={"xlsx_rows": 100_000, "rows": 1_000_000}
    )


if __name__ == "__main__":
    main()

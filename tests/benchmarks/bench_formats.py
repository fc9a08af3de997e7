"""Prints how long reading the same rows takes in each format read: the checks made before
calamine opens the file (``*_package``), and the whole read (checks, calamine, batches).

Run: ``.venv/bin/python tests/benchmarks/bench_formats.py [--rows N]`` (default 60,000: an .xls
sheet holds at most 65,536 rows).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from emissions_etl.resources import resource_spec  # noqa: E402
from emissions_etl.sources import read_source, source_format  # noqa: E402
from emissions_etl.sources.workbook_reader import _inspected  # noqa: E402
from tests.benchmarks.results import write_results  # noqa: E402
from tests.builders import write_xlsx  # noqa: E402
from tests.format_builders import (  # noqa: E402
    REGISTER_HEADER,
    register_row,
    write_html,
    write_ods,
    write_xls,
    write_xlsb,
)

WASTES = resource_spec("wastes")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=60_000)
    args = parser.parse_args()
    rows = [REGISTER_HEADER] + [register_row(n, n % 12 + 1, n / 4) for n in range(args.rows)]
    writers = {
        "xlsx": lambda p: write_xlsx(p, {"S": rows}),
        "xls": lambda p: write_xls(p, {"S": rows}),
        "xlsb": lambda p: write_xlsb(p, {"S": rows}),
        "ods": lambda p: write_ods(p, {"S": rows}),
        "html": lambda p: write_html(p, rows),
    }
    figures: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory() as folder:
        for kind, write in writers.items():
            path = Path(folder) / f"register.{kind}"
            write(path)
            kind_of = source_format(path)
            started = time.perf_counter()
            if kind_of.is_workbook:
                _inspected(path.resolve(), kind_of, -1, -1)  # uncached
            checks = time.perf_counter() - started
            _inspected.cache_clear()
            started = time.perf_counter()
            read = sum(len(batch) for batch in read_source(
                path, expected_columns=WASTES.columns, required_columns=WASTES.required_columns))
            total = time.perf_counter() - started
            print(f"{kind:5} {path.stat().st_size / 1e6:6.1f} MB  {read:,} rows  "
                  f"checks {checks:5.2f} s  read (checks included) {total:5.2f} s")
            figures.append({"format": kind, "mb": round(path.stat().st_size / 1e6, 1),
                            "rows": read, "checks_s": round(checks, 2),
                            "read_s": round(total, 2)})  # fmt: skip
    write_results("bench_formats", {"formats": figures}, parameters={"rows": args.rows})


if __name__ == "__main__":
    main()

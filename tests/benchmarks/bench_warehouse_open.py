"""Print how long a writer takes to open the warehouse: a new DuckDB file (its schema, views and
comments written), an existing one, and an existing DuckLake catalogued in a file (their schema
checked, nothing written), as every load's writer opens it.

    .venv/bin/python tests/benchmarks/bench_warehouse_open.py [--rounds N] [--against SRC]

``--against SRC``: also measure the package in the folder SRC (another version's ``src``, e.g.
``git archive round-base src | tar -x -C /tmp/before``), in turns with this one (ABBA), each
round in a process of its own, so both see the same machine at the same time. Figures, not
assertions.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: Writer opens per kind and round (the median is kept).
OPENS = 20


def measure(folder: Path) -> dict[str, float]:
    """Median milliseconds (wall, and CPU) of a writer's open of each kind, in this process."""
    from emissions_etl.warehouse import Warehouse

    def opened(warehouse: Warehouse) -> tuple[float, float]:
        wall, cpu = time.perf_counter(), time.process_time()
        with warehouse.writer():
            pass
        return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000

    new = [opened(Warehouse(folder / f"new-{n}.duckdb")) for n in range(OPENS)]
    existing_file = Warehouse(folder / "existing.duckdb")
    lake = Warehouse(f"ducklake:{folder / 'lake.ducklake'}")
    opened(existing_file)
    opened(lake)
    existing = [opened(existing_file) for _ in range(OPENS)]
    lakes = [opened(lake) for _ in range(OPENS)]
    figures = {}
    for name, times in (("new_file", new), ("existing_file", existing), ("existing_lake", lakes)):
        figures[f"{name}_ms"] = round(statistics.median(wall for wall, _ in times), 2)
        figures[f"{name}_cpu_ms"] = round(statistics.median(cpu for _, cpu in times), 2)
    return figures


def one_round(src: Path | None) -> dict[str, float]:
    """``measure`` in a new process, importing the package from ``src`` (None: this one)."""
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    done = subprocess.run(
        [sys.executable, __file__, "--measure"], env=env, capture_output=True, text=True,
        check=True,
    )  # fmt: skip
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--against", type=Path, default=None)
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        with tempfile.TemporaryDirectory(prefix="bench-open-") as folder:
            print(json.dumps(measure(Path(folder))))
        return
    versions: dict[str, Path | None] = {"this": None}
    if args.against is not None:
        versions["against"] = args.against.resolve()
    rounds: dict[str, list[dict[str, float]]] = {name: [] for name in versions}
    for number in range(args.rounds):  # ABBA: each version as often first as second
        turn = list(versions.items())
        for name, src in turn if number % 2 == 0 else reversed(turn):
            rounds[name].append(one_round(src))
    figures = {}
    for name, results in rounds.items():
        for key in results[0]:
            figures[f"{name}_{key}"] = round(statistics.median(r[key] for r in results), 2)
    for key, value in figures.items():
        print(f"{key:34} {value:8.2f}")
    from tests.benchmarks.results import write_results

    write_results(
        "bench_warehouse_open",
        figures,
        parameters={"rounds": args.rounds, "opens": OPENS, "against": str(args.against or "")},
    )


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    main()

"""Benchmark of a warehouse that grows: N nights of M waste rows loaded into one warehouse, as a
data team's nightly run would over months; prints figures per night (issue #26).

    .venv/bin/python -m tests.benchmarks.bench_growth                       # 6 nights of 150,000
    .venv/bin/python -m tests.benchmarks.bench_growth --nights 40 --rows 40 # small nightly loads
    .venv/bin/python -m tests.benchmarks.bench_growth --warehouses lake --maintain --report

Each night is ``emissions-etl load`` in a process of its own, against a sandbox that lives for
the whole series (one per warehouse kind, so both start from the same service), into one DuckDB
file (``file``) or one DuckLake whose catalog is in a real PostgreSQL started here (``lake``).
Per night: the records the warehouse held before, the wall time, the loader's CPU and peak
memory (``wait4`` of the load's process: the sandbox is not in them), and the warehouse's size
after (the file with its WAL; the lake's data files and catalog database, files and snapshots).
The last lines hold the last night against the first (the issue's targets: at most 1.5x the CPU
and 1.25x the peak) and draw cost against warehouse size. ``--maintain`` runs
``emissions-etl maintain-warehouse`` after each night, as the deployed schedule does.
``--report`` times ``report`` and ``inventory`` over the final warehouse.
Figures, not assertions (STYLE: benchmarks are scripts that print figures).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from tests.benchmarks.bench_pipeline import make_frame
from tests.benchmarks.results import write_results
from tests.postgres_server import PostgresServer, postgres_bin, running_postgres

CLI = str(Path(sys.executable).with_name("emissions-etl"))
#: The issue's targets: the last night against the first.
MAX_CPU_RATIO, MAX_PEAK_RATIO = 1.5, 1.25


@dataclass
class Command:
    """One CLI process as measured: exit code, wall time, CPU and peak memory."""

    code: int
    wall_s: float
    cpu_s: float
    peak_mb: int
    error: str = ""


def run_measured(args: list[str], env: dict[str, str], log: Path) -> Command:
    """``args`` in a process of its own; its CPU and peak RSS from ``wait4`` (its own only)."""
    started = time.perf_counter()
    with log.open("w") as out:
        process = subprocess.Popen(args, env=env, stdout=out, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - started
    lines = [line for line in log.read_text().splitlines() if line.strip()]
    error = next((line for line in reversed(lines) if line.startswith("error")), "")
    return Command(
        code=process.returncode,
        wall_s=round(wall, 1),
        cpu_s=round(usage.ru_utime + usage.ru_stime, 1),
        peak_mb=round(usage.ru_maxrss / 1024),
        error=error if process.returncode else "",
    )


@dataclass
class Target:
    """One warehouse under test: how the CLI names it, and how to measure it."""

    kind: str
    env: dict[str, str]
    folder: Path
    server: PostgresServer | None = None
    database: str = ""
    nights: list[dict] = field(default_factory=list)

    def size(self) -> dict[str, object]:
        """Bytes on disk (and, for a lake, data files and snapshots)."""
        if self.server is None:
            path = Path(self.env["EMISSIONS_WAREHOUSE"])
            wal = path.with_name(path.name + ".wal")
            total = path.stat().st_size + (wal.stat().st_size if wal.exists() else 0)
            return {"warehouse_mb": round(total / 1e6, 1)}
        data = Path(self.env["EMISSIONS_WAREHOUSE_DATA"])
        files = [p for p in data.rglob("*") if p.is_file()]
        data_bytes = sum(p.stat().st_size for p in files)
        catalog = int(self._psql("SELECT pg_database_size(current_database())"))
        snapshots = int(self._psql("SELECT count(*) FROM ducklake_snapshot"))
        return {
            "warehouse_mb": round((data_bytes + catalog) / 1e6, 1),
            "data_mb": round(data_bytes / 1e6, 1),
            "catalog_mb": round(catalog / 1e6, 1),
            "data_files": len(files),
            "snapshots": snapshots,
        }

    def records(self) -> int:
        done = subprocess.run(
            [CLI, "sql", "SELECT count(*) AS n FROM remote_records", "--format", "csv"],
            env=self.env, capture_output=True, text=True, check=False,
        )  # fmt: skip
        lines = done.stdout.strip().splitlines()
        return int(lines[-1]) if done.returncode == 0 and len(lines) > 1 else -1

    def _psql(self, query: str) -> str:
        assert self.server is not None
        done = subprocess.run(
            [str(postgres_bin() / "psql"), "-h", "127.0.0.1", "-p", str(self.server.port),
             "-U", "emissions", "-d", self.database, "-tAc", query],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        return done.stdout.strip()


@contextmanager
def targets(kinds: list[str], workdir: Path) -> Iterator[list[Target]]:
    """A sandbox per warehouse kind (and PostgreSQL for a lake), until the block ends."""
    from emissions_etl.cli.demo import create_facilities, running_sandbox

    made = []
    with ExitStack() as stack:
        server = stack.enter_context(running_postgres()) if "lake" in kinds else None
        for kind in kinds:
            folder = workdir / kind
            folder.mkdir(parents=True)
            sandbox = stack.enter_context(running_sandbox(folder))
            create_facilities(sandbox)
            env = {
                **os.environ,
                "EMISSIONS_API_URL": sandbox.base_url,
                "EMISSIONS_API_KEY": sandbox.api_key,
                "EMISSIONS_ORGANIZATION_ID": sandbox.organization_id,
                "EMISSIONS_CA_FILE": str(sandbox.ca_file),
                "EMISSIONS_LIMITS_FILE": str(folder / "limits.sqlite3"),
                "EMISSIONS_WAREHOUSE": str(folder / "warehouse.duckdb"),
            }
            target = Target(kind, env, folder)
            if kind == "lake":
                assert server is not None
                conninfo = server.create_database("growth")
                env["EMISSIONS_WAREHOUSE"] = f"ducklake:postgres:{conninfo}"
                env["EMISSIONS_WAREHOUSE_DATA"] = str(folder / "lake-data")
                database = conninfo.split()[0].removeprefix("dbname=")  # numbered by the server
                target.server, target.database = server, database
            made.append(target)
        yield made


def night_file(workdir: Path, night: int, rows: int) -> Path:
    """``rows`` wastes of their own: keys no other night uses."""
    path = workdir / f"night-{night:03d}.csv"
    if not path.exists():
        frame = make_frame(rows)
        frame["Client row id"] = [f"n{night}-{i}" for i in range(rows)]
        frame["Identification name"] = [f"N{night}-{i:07d}" for i in range(rows)]
        frame.to_csv(path, index=False)
    return path


def run_night(target: Target, night: int, path: Path, maintain: bool) -> dict:
    before = target.nights[-1]["records_after"] if target.nights else 0
    load = run_measured(
        [CLI, "load", str(path), "--resource", "wastes"],
        target.env,
        target.folder / f"night-{night:03d}.log",
    )
    figures: dict = {"warehouse": target.kind, "night": night, "records_before": before,
                     "exit": load.code, "wall_s": load.wall_s, "loader_cpu_s": load.cpu_s,
                     "peak_mb": load.peak_mb}  # fmt: skip
    if maintain:
        upkeep = run_measured(
            [CLI, "maintain-warehouse"], target.env, target.folder / f"maintain-{night:03d}.log"
        )
        figures |= {"maintain_s": upkeep.wall_s, "maintain_exit": upkeep.code}
    figures |= target.size()
    figures["records_after"] = target.records()
    if load.error:
        figures["error"] = load.error
    target.nights.append(figures)
    return figures


def time_readers(target: Target) -> list[dict]:
    """``report`` and ``inventory`` over the warehouse as the nights left it."""
    lines = []
    for name, args in (
        ("report", ["report", "--out", str(target.folder / "report.html")]),
        ("inventory", ["inventory", "--out", str(target.folder / "inventory.xlsx")]),
    ):
        done = run_measured([CLI, *args], target.env, target.folder / f"{name}.log")
        lines.append({"warehouse": target.kind, "command": name, "exit": done.code,
                      "records": target.nights[-1]["records_after"], "wall_s": done.wall_s,
                      "cpu_s": done.cpu_s, "peak_mb": done.peak_mb,
                      **({"error": done.error} if done.error else {})})  # fmt: skip
    return lines


def target_line(target: Target) -> str:
    """The last night that landed against the first: the issue's flat-cost targets."""
    landed = [night for night in target.nights if night["exit"] == 0]
    if len(landed) < 2 or landed[0]["night"] != 1:
        return f"{target.kind}: fewer than two nights landed (first night included): no ratio"
    first, last = landed[0], landed[-1]
    cpu = last["loader_cpu_s"] / max(first["loader_cpu_s"], 0.1)
    peak = last["peak_mb"] / max(first["peak_mb"], 1)
    return (
        f"{target.kind}: night {last['night']} into {last['records_before']:,} records against "
        f"night 1 into none: loader CPU {cpu:.2f}x "
        f"({'met' if cpu <= MAX_CPU_RATIO else 'NOT MET'}: <= {MAX_CPU_RATIO}x), "
        f"peak {peak:.2f}x ({'met' if peak <= MAX_PEAK_RATIO else 'NOT MET'}: "
        f"<= {MAX_PEAK_RATIO}x)"
    )


def print_chart(target: Target, width: int = 40) -> None:
    """Loader CPU and peak memory against the records the warehouse held: one bar per night."""
    if not target.nights:
        return
    top_cpu = max(night["loader_cpu_s"] for night in target.nights) or 1
    top_peak = max(night["peak_mb"] for night in target.nights) or 1
    print(f"{target.kind}: cost against warehouse size (C = loader CPU, M = peak memory)")
    for night in target.nights:
        cpu = "C" * round(width * night["loader_cpu_s"] / top_cpu)
        peak = "M" * round(width * night["peak_mb"] / top_peak)
        held = f"{night['records_before']:>11,}"
        failed = "  (failed)" if night["exit"] else ""
        print(f"  {held} | {cpu:<{width}} {night['loader_cpu_s']:>6} s{failed}")
        print(f"  {'':>11} | {peak:<{width}} {night['peak_mb']:>6} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--nights", type=int, default=6)
    parser.add_argument("--rows", type=int, default=150_000, help="rows loaded each night")
    parser.add_argument("--warehouses", nargs="+", default=["file", "lake"],
                        choices=["file", "lake"])  # fmt: skip
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/emissions-bench-growth"))
    parser.add_argument("--maintain", action="store_true",
                        help="run maintain-warehouse after each night")  # fmt: skip
    parser.add_argument("--report", action="store_true",
                        help="time report and inventory over the final warehouse")  # fmt: skip
    args = parser.parse_args()
    workdir = args.workdir / time.strftime("%Y%m%d-%H%M%S")
    workdir.mkdir(parents=True)
    readers: list[dict] = []
    verdicts: list[str] = []
    with targets(args.warehouses, workdir) as made:
        for night in range(1, args.nights + 1):
            path = night_file(workdir, night, args.rows)
            for target in made:  # interleaved: both kinds see the same minutes of the machine
                figures = run_night(target, night, path, args.maintain)
                print("  ".join(f"{k}={v}" for k, v in figures.items()), flush=True)
        for target in made:
            if args.report:
                for line in time_readers(target):
                    print("  ".join(f"{k}={v}" for k, v in line.items()), flush=True)
                    readers.append(line)
            verdicts.append(target_line(target))
            print(verdicts[-1], flush=True)
            print_chart(target)
        nights = [night for target in made for night in target.nights]
    write_results(
        "bench_growth",
        {"nights": nights, "readers": readers, "targets": verdicts},
        parameters={"nights": args.nights, "rows": args.rows, "warehouses": args.warehouses,
                    "maintain": args.maintain, "report": args.report},
    )  # fmt: skip


if __name__ == "__main__":
    main()

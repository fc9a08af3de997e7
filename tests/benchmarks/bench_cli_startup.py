"""Prints the median wall time of ``emissions-etl --help`` over 5 runs (target under 1 s).

The CLI imports pandas, Pandera, httpx and Prefect only inside the commands that need them, so
asking for help answers at once. Run: ``.venv/bin/python tests/benchmarks/bench_cli_startup.py``
(``--runs N`` for another count; any other arguments are the command line to time instead, e.g.
``... bench_cli_startup.py --version``). The CPU seconds of the command are printed too: on a
shared machine the wall time also counts other people's work.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.benchmarks.results import write_results  # noqa: E402

CLI = str(Path(sys.executable).with_name("emissions-etl"))
TARGET_SECONDS = 1.0


def timed_run(args: list[str]) -> tuple[float, float]:
    """(wall, cpu) seconds from launching the command until it exited; it must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    subprocess.run([CLI, *args], check=True, capture_output=True)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    options, command = parser.parse_known_args()
    command = command or ["--help"]
    timed_run(command)  # warm the file cache once, as a person's second call would find it
    runs = [timed_run(command) for _ in range(options.runs)]
    walls = [wall for wall, _ in runs]
    median = statistics.median(walls)
    cpu = statistics.median(cpu for _, cpu in runs)
    print(
        f"emissions-etl {' '.join(command)}: median {median:.3f} s over {options.runs} runs "
        f"(min {min(walls):.3f} s, max {max(walls):.3f} s; cpu {cpu:.3f} s; "
        f"target < {TARGET_SECONDS:.0f} s)"
    )
    write_results(
        "bench_cli_startup",
        {"median_s": round(median, 3), "min_s": round(min(walls), 3),
         "max_s": round(max(walls), 3), "cpu_s": round(cpu, 3), "target_s": TARGET_SECONDS},
        parameters={"command": f"emissions-etl {' '.join(command)}", "runs": options.runs},
    )  # fmt: skip


if __name__ == "__main__":
    main()

"""Where a benchmark's figures go: one JSON file per benchmark under ``results/``.

    write_results("bench_report", {"seconds": 1.2, "page_mb": 3.4}, parameters={"records": 200_000})

Each file holds the figures with what they were measured on (the date, the commit, the machine's
cores and CPU model), so the docs' Performance page can show the latest of each and a reader can
tell when a figure is old. Figures live here and in closing notes, never in prose.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import platform
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).with_name("results")


def write_results(
    benchmark: str,
    figures: Mapping[str, Any],
    *,
    parameters: Mapping[str, Any] | None = None,
    folder: Path = RESULTS,
) -> Path:
    """Write ``folder/<benchmark>.json`` (the latest run of that benchmark) and return it."""
    folder.mkdir(parents=True, exist_ok=True)
    result = {
        "benchmark": benchmark,
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "commit": _commit(),
        "machine": {
            "cores": os.cpu_count(),
            "cpu": _cpu_model(),
            "python": platform.python_version(),
            # the machine's load when the figures were written: other work shares its cores
            "load_average": [round(load, 2) for load in os.getloadavg()],
        },
        "parameters": dict(parameters or {}),
        "figures": dict(figures),
    }
    path = folder / f"{benchmark}.json"
    path.write_text(json.dumps(result, indent=2, sort_keys=False, default=str) + "\n")
    return path


def _commit() -> str | None:
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"],
            cwd=Path(__file__).parent, capture_output=True, text=True, check=True,
        )  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return None
    return done.stdout.strip() or None


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()

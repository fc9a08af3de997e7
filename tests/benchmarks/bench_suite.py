"""The README's test command measured as issue #28 asks: ``.ci/run`` on a fresh clone of each
commit given, one after the other, with its wall time, its CPU time (user + system) and that CPU
by kind of process (a script, not a test).

Run: ``.venv/bin/python -m tests.benchmarks.bench_suite [--rev REV ...] [--ids FILE]``

Two commits are run ABBA (A, B, B, A): a machine's speed drifts within an hour, and the order
cancels a steady drift. ``--ids FILE`` runs only the test ids listed (one per line, as pytest
names them, without the ``@group`` xdist adds): the tests two commits have in common, for a
like-for-like figure. ``--durations N`` writes pytest's N slowest phases in each run's log, and
keeps the logs (``--keep`` keeps the clones too).

The CPU total is the run's own rusage (what ``/usr/bin/time`` reports). The kinds come from
``/proc``, sampled every ``SAMPLE_SECONDS``: a process started by the run counts under the kind
its command line names (test workers, the command line, flow runs, Prefect servers,
sandboxes, a browser...), which says where the CPU goes, not only how much; a process that ends
between two samples loses what it spent since the last, so the kinds add up to a little less
than the total. Servers the run starts in a session of their own are counted there too (the
rusage misses them when nobody waits for them).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tests.benchmarks.results import write_results

REPOSITORY = Path(__file__).resolve().parents[2]
SAMPLE_SECONDS = 0.2
#: The variable every process of a run inherits, naming the run (``ProcessSampler``).
RUN_VARIABLE = "BENCH_SUITE_RUN"
_TICKS = os.sysconf("SC_CLK_TCK")
#: A process's kind: the first whose words its command line holds.
KINDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("test workers", ("execnet", "import sys;exec(eval(sys.stdin.readline()))")),
    ("command line", ("tests.cli_process", "bin/emissions-etl")),
    ("flow runs", ("_workspace_supervisor", "prefect.engine", "_workspace_runtime_bootstrap")),
    ("Prefect servers", ("prefect server start", "prefect.server.api.server:create_app")),
    ("Prefect workers", ("prefect worker start",)),
    ("Prefect CLI", ("bin/prefect",)),
    ("sandboxes", ("emissions-sandbox",)),
    ("PostgreSQL", ("postgres",)),
    ("browser", ("chromium", "playwright")),
    ("object store (moto)", ("moto",)),
    ("install", ("pip_compileall", "bin/uv", "pip install", "-m venv", "ensurepip", "setuptools")),
    ("ruff, import contracts, mypy", ("ruff", "lint-imports", "mypy")),
    ("pytest (controller)", ("bin/pytest",)),
)
_UNSAFE = re.compile(r"[^\w.-]")  # in a folder's name
_PASSED = re.compile(r"(\d+) passed.* in ([\d.]+)s")


def kind_of(command_line: str) -> str:
    """The kind of process ``command_line`` starts (KINDS), else "other"."""
    for kind, words in KINDS:
        if any(word in command_line for word in words):
            return kind
    return "other"


class ProcessSampler:
    """CPU per process of one run, read from /proc: a process is the run's when its parent is
    (at first sight) or its environment holds the run's token (servers in a session of their
    own, orphaned when what started them ended)."""

    def __init__(self, root_pid: int, run_id: str) -> None:
        self._ours = {root_pid}
        self._token = f"{RUN_VARIABLE}={run_id}".encode()
        self._cpu: dict[tuple[int, str], float] = {}
        self._command: dict[tuple[int, str], str] = {}
        self._strangers: set[tuple[int, str]] = set()  # judged once: not the run's
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="process-sampler", daemon=True)

    def __enter__(self) -> ProcessSampler:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self._sample()

    def by_kind(self) -> dict[str, float]:
        kinds: dict[str, float] = {}
        for key, cpu in self._cpu.items():
            kind = kind_of(self._command.get(key, ""))
            kinds[kind] = kinds.get(kind, 0.0) + cpu
        return kinds

    def unnamed(self, count: int) -> list[tuple[float, str]]:
        """The ``count`` costliest processes of no kind, with their command lines."""
        rows = [
            (cpu, self._command.get(key, f"pid {key[0]}"))
            for key, cpu in self._cpu.items()
            if kind_of(self._command.get(key, "")) == "other"
        ]
        return sorted(rows, reverse=True)[:count]

    def _run(self) -> None:
        while not self._stop.wait(SAMPLE_SECONDS):
            self._sample()

    def _sample(self) -> None:
        # In the order of their pids: a parent is read (and known as the run's) before the
        # children it started, whose pids came after.
        for pid in sorted(int(name) for name in os.listdir("/proc") if name.isdigit()):
            self._read(pid)

    def _read(self, pid: int) -> None:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            fields = stat[stat.rindex(")") + 2 :].split()
            parent, started = int(fields[1]), fields[19]
            key = (pid, started)
            if key in self._strangers:
                return
            if key not in self._cpu and not self._is_ours(pid, parent):
                self._strangers.add(key)
                return
            self._ours.add(pid)
            self._cpu[key] = (int(fields[11]) + int(fields[12])) / _TICKS
            # The latest command line: a flow run's supervisor execs its engine in place.
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
            if command.strip():
                self._command[key] = command.decode(errors="replace")
        except (OSError, ValueError, IndexError):
            return  # gone between the listing and the read

    def _is_ours(self, pid: int, parent: int) -> bool:
        if parent in self._ours or pid in self._ours:
            return True
        try:
            return self._token in Path(f"/proc/{pid}/environ").read_bytes()
        except OSError:
            return False


@dataclass
class Run:
    label: str
    rev: str
    log: Path
    exit_code: int = 0
    wall: float = 0.0
    cpu: float = 0.0
    passed: str = "?"
    pytest_seconds: str = "?"
    kinds: dict[str, float] = field(default_factory=dict)
    unnamed: list[tuple[float, str]] = field(default_factory=list)


def run_ci(label: str, rev: str, workdir: Path, *, ids: Path | None, durations: int) -> Run:
    """``.ci/run`` on a fresh clone of ``rev``, its output in ``workdir/<label>.log``."""
    clone = workdir / label
    subprocess.run(["git", "clone", "-q", str(REPOSITORY), str(clone)], check=True)
    subprocess.run(["git", "-C", str(clone), "checkout", "-q", rev], check=True)
    run_id = f"{label}-{os.getpid()}"
    env = {**os.environ, RUN_VARIABLE: run_id}
    addopts = [env.get("PYTEST_ADDOPTS", "")]
    if durations:
        addopts.append(f"--durations={durations}")
    if ids is not None:
        plugins = workdir / "plugins"
        plugins.mkdir(exist_ok=True)
        shutil.copy(Path(__file__).with_name("select_ids.py"), plugins / "bench_select_ids.py")
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(plugins), env.get("PYTHONPATH")]))
        env["BENCH_SELECT_IDS"] = str(ids.resolve())
        addopts.append("-p bench_select_ids")
    env["PYTEST_ADDOPTS"] = " ".join(filter(None, addopts))
    result = Run(label, rev, workdir / f"{label}.log")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.monotonic()
    with result.log.open("w") as log:
        process = subprocess.Popen(
            ["bash", ".ci/run"], cwd=clone, env=env, stdout=log, stderr=subprocess.STDOUT
        )
        with ProcessSampler(process.pid, run_id) as sampler:
            result.exit_code = process.wait()
    result.wall = time.monotonic() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    result.cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    result.kinds = sampler.by_kind()
    result.unnamed = sampler.unnamed(5)
    found = _PASSED.findall(result.log.read_text(errors="replace"))
    if found:
        result.passed, result.pytest_seconds = found[-1]
    return result


def order(revs: Sequence[str], repeat: int) -> list[str]:
    """Each commit ``repeat`` times, every other round reversed: A B B A for two, twice."""
    rounds = [list(revs) if number % 2 == 0 else list(reversed(revs)) for number in range(repeat)]
    return [rev for round_ in rounds for rev in round_]


def report(runs: Sequence[Run]) -> None:
    print("\n| run | commit | exit | tests passed | pytest | .ci/run wall | CPU (user + sys) |")
    print("|---|---|---|---|---|---|---|")
    for run in runs:
        print(
            f"| {run.label} | {run.rev} | {run.exit_code} | {run.passed} | "
            f"{run.pytest_seconds} s | {run.wall:.1f} s | {run.cpu:.1f} s |"
        )
    revs = list(dict.fromkeys(run.rev for run in runs))
    means = {rev: statistics.mean(run.cpu for run in runs if run.rev == rev) for rev in revs}
    for rev in revs[1:]:
        print(f"\nCPU of {rev}: {100 * means[rev] / means[revs[0]]:.1f} % of {revs[0]}'s")
    kinds = sorted(
        {kind for run in runs for kind in run.kinds}, key=lambda k: -runs[0].kinds.get(k, 0.0)
    )
    print("\nCPU by kind of process (s, sampled):\n")
    print("| kind | " + " | ".join(run.label for run in runs) + " |")
    print("|---|" + "---|" * len(runs))
    for kind in kinds:
        print(f"| {kind} | " + " | ".join(f"{run.kinds.get(kind, 0.0):.1f}" for run in runs) + " |")
    print(f"\nThe costliest processes of no kind ({runs[0].label}):")
    for cpu, command in runs[0].unnamed:
        print(f"  {cpu:6.1f} s  {' '.join(command.split())[:150]}")


def _figures(run: Run) -> dict[str, object]:
    """One run's line of the results file: its wall, CPU and the CPU of each kind."""
    return {"run": run.label, "commit": run.rev, "exit": run.exit_code, "passed": run.passed,
            "pytest_s": run.pytest_seconds, "wall_s": round(run.wall, 1),
            "cpu_s": round(run.cpu, 1),
            **{f"cpu {kind} (s)": round(cpu, 1)
               for kind, cpu in sorted(run.kinds.items())}}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rev", action="append", help="a commit (default: HEAD); two: A B B A")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each commit")
    parser.add_argument("--ids", type=Path, help="run only the test ids in this file")
    parser.add_argument("--durations", type=int, default=0, help="pytest's N slowest, in the logs")
    parser.add_argument("--keep", action="store_true", help="keep the clones and their logs")
    options = parser.parse_args()
    revs = options.rev or ["HEAD"]
    keep_logs = options.keep or bool(options.durations)  # the durations are in the logs
    workdir = Path(tempfile.mkdtemp(prefix="bench-suite-"))
    runs = []
    try:
        for number, rev in enumerate(order(revs, options.repeat), start=1):
            label = f"{number}-{_UNSAFE.sub('_', rev)}"
            print(f"{time.strftime('%H:%M:%S')} .ci/run of {rev} ({label})", flush=True)
            run = run_ci(label, rev, workdir, ids=options.ids, durations=options.durations)
            runs.append(run)
            print(f"  exit {run.exit_code}, {run.wall:.1f} s, CPU {run.cpu:.1f} s", flush=True)
            if run.exit_code != 0:
                print(f"  log: {run.log}")
                keep_logs = True
            if not options.keep:
                shutil.rmtree(workdir / label, ignore_errors=True)
        report(runs)
        write_results(
            "bench_suite",
            {"runs": [_figures(run) for run in runs]},
            parameters={"revs": revs, "repeat": options.repeat,
                        "ids": str(options.ids) if options.ids else None},
        )  # fmt: skip
    finally:
        if keep_logs:
            print(f"\n{'clones and logs' if options.keep else 'logs'}: {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()

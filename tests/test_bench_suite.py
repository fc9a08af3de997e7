"""``tests/benchmarks/bench_suite.py``: the order of its runs, the kinds it names, and its /proc
sampler on a real process tree (a grandchild in a session of its own, orphaned, found by the
run's variable in its environment)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from tests.benchmarks.bench_suite import RUN_VARIABLE, ProcessSampler, kind_of, order

BURN = "import time\nend = time.process_time() + {seconds}\nwhile time.process_time() < end: pass"


def test_two_commits_run_abba_and_one_runs_alone() -> None:
    assert order(["a", "b"], 2) == ["a", "b", "b", "a"]
    assert order(["a", "b"], 3) == ["a", "b", "b", "a", "a", "b"]
    assert order(["HEAD"], 2) == ["HEAD", "HEAD"]


def test_each_process_of_a_run_is_named_by_its_command_line() -> None:
    venv = "/tmp/x/.venv/bin"
    assert kind_of(f"{venv}/python -u -c import sys;exec(eval(sys.stdin.readline()))") == (
        "test workers"
    )
    assert kind_of(f"{venv}/python -m tests.cli_process") == "command line"
    # As a test ran it before the fork server: the file's path names pytest's folder.
    assert kind_of(f"{venv}/python {venv}/emissions-etl load /tmp/pytest-of-root/a.xlsx") == (
        "command line"
    )
    supervisor = f"{venv}/python -m prefect.runner._workspace_supervisor /tmp/w/supervisor.json"
    assert kind_of(supervisor) == "flow runs"
    assert kind_of(f"{venv}/python {venv}/prefect server start --port 1") == "Prefect servers"
    assert kind_of(f"{venv}/python {venv}/prefect --no-prompt deploy --all") == "Prefect CLI"
    assert kind_of(f"{venv}/python {venv}/emissions-sandbox serve --port 0") == "sandboxes"
    assert kind_of(f"{venv}/uv sync --frozen") == "install"
    assert kind_of(f"{venv}/python {venv}/pytest") == "pytest (controller)"
    assert kind_of("/bin/true") == "other"


def test_the_sampler_counts_a_child_and_an_orphaned_grandchild_of_the_run_only(
    tmp_path: Path,
) -> None:
    """The child starts the grandchild in a session of its own and ends at once: the sampler
    first sees the grandchild orphaned, and knows it by the run's token alone. A process started
    beside the run (the same burn) is not counted."""
    run_id = f"sampler-test-{os.getpid()}"
    done = tmp_path / "burnt"
    grandchild = (
        "import pathlib, time\n"
        "time.sleep(0.3)\n"
        + BURN.format(seconds=0.4)
        + f"\npathlib.Path({str(done)!r}).touch()\ntime.sleep(1)"  # alive for a last sample
    )
    child = (
        "import subprocess, sys\n"
        f"subprocess.Popen([sys.executable, '-c', {grandchild!r}], start_new_session=True)\n"
    )
    env = {**os.environ, RUN_VARIABLE: run_id}
    stranger = subprocess.Popen([sys.executable, "-c", BURN.format(seconds=0.6)])
    try:
        run = subprocess.Popen([sys.executable, "-c", child], env=env)
        with ProcessSampler(run.pid, run_id) as sampler:
            assert run.wait(30) == 0
            deadline = time.monotonic() + 60
            while not done.exists() and time.monotonic() < deadline:
                time.sleep(0.05)
    finally:
        stranger.wait(30)

    assert done.exists()
    counted = sum(sampler.by_kind().values())
    # The grandchild's 0.4 s and two interpreters' start; the stranger's 0.6 s would pass 1.0.
    assert 0.4 <= counted < 1.0

"""The progress a person sees: ``load`` and ``validate`` run as the real executable in a
pseudo-terminal draw a bar per file with its total (the rows the file's size promises) and the
time left; piped, a load says each stage in a line instead, and draws nothing."""

from __future__ import annotations

import csv
import os
import re
from pathlib import Path

from tests.cli_process import run_etl
from tests.terminal_process import run_in_terminal
from tests.test_cli import service_env

from .pipeline.tenancy import HEADER, Tenant, tenant, waste_row

__all__ = ["tenant"]
_ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
#: A frame of the bar: its rows so far of the total, and the time left (not "-:--:--").
_FRAME = re.compile(r"([\d,]+) of about ([\d,]+) rows · \S+ elapsed · (\d+:\d\d:\d\d) left")


def write_wastes_csv(path: Path, rows: int) -> Path:
    with path.open("w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(HEADER)
        for n in range(rows):
            writer.writerow(["" if cell is None else cell for cell in waste_row(n)])
    return path


def frames(output: str) -> list[str]:
    """Each state the terminal's line went through, its escape sequences taken out."""
    return [_ESCAPES.sub("", part) for part in re.split(r"[\r\n]", output) if part.strip()]


def written_over_a_bar(output: str) -> list[str]:
    """The frames where a line was printed over the bar's (after its ``left``) instead of above
    it, on a line of its own."""
    return [frame for frame in frames(output) if re.search(r" left\s*\S", frame)]


def unfinished_with_time_left(output: str) -> list[tuple[int, int, str]]:
    """The frames drawn before the end with a time left: (rows, total, time left)."""
    found = []
    for frame in frames(output):
        match = _FRAME.search(frame)
        if match:
            done, total = (int(group.replace(",", "")) for group in match.groups()[:2])
            if done < total:
                found.append((done, total, match.group(3)))
    return found


def test_validate_in_a_terminal_draws_the_files_total_and_the_time_left(tmp_path: Path) -> None:
    path = write_wastes_csv(tmp_path / "wastes.csv", 80_000)

    run = run_in_terminal(["validate", "--resource", "wastes", str(path)], env=dict(os.environ),
                          cwd=tmp_path)  # fmt: skip

    assert run.returncode == 0, run.output
    drawn = unfinished_with_time_left(run.output)
    assert drawn, frames(run.output)
    for done, total, _left in drawn:
        assert 79_000 <= total <= 81_000  # the csv's bytes over its first lines' length
        # a batch's rows once validated; the last (all 80,000) may be drawn before the bar
        # learns the file's true total and ends
        assert done in (25_000, 50_000, 75_000, 80_000)
    assert "wastes.csv (wastes): 80000 rows read, 80000 valid, 0 rejected" in run.output
    assert written_over_a_bar(run.output) == []
    assert "Traceback" not in run.output


def test_load_in_a_terminal_draws_the_files_total_and_the_time_left(tenant: Tenant) -> None:
    path = write_wastes_csv(tenant.workdir / "wastes.csv", 12_000)

    run = run_in_terminal(["load", "--resource", "wastes", str(path)], env=service_env(tenant),
                          cwd=tenant.workdir)  # fmt: skip

    assert run.returncode == 0, run.output
    drawn = unfinished_with_time_left(run.output)
    assert drawn, frames(run.output)
    assert {total for _done, total, _left in drawn} <= set(range(11_800, 12_201))
    assert any("wastes.csv: read" in frame and "sent" in frame for frame in frames(run.output))
    assert written_over_a_bar(run.output) == []
    assert "Traceback" not in run.output


def test_a_piped_load_says_each_stage_in_a_line_and_draws_no_bar(tenant: Tenant) -> None:
    path = write_wastes_csv(tenant.workdir / "wastes.csv", 30)

    done = run_etl(["load", "--resource", "wastes", str(path)], env=service_env(tenant),
                   timeout=180)  # fmt: skip

    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert "wastes.csv: reading (about 30 rows)" in lines
    assert "wastes.csv: sending rows to the service" in lines
    assert "wastes.csv: landing the calculated co2e" in lines
    assert "\x1b[" not in done.stderr
    assert " left" not in done.stderr


def test_rebuild_in_a_terminal_counts_each_resources_records_to_what_its_lists_say(
    tenant: Tenant,
) -> None:
    env = service_env(tenant)
    path = write_wastes_csv(tenant.workdir / "wastes.csv", 250)
    assert run_etl(["load", "--resource", "wastes", str(path)], env=env).returncode == 0

    run = run_in_terminal(["rebuild-warehouse"], env=env, cwd=tenant.workdir)

    assert run.returncode == 0, run.output
    drawn = [frame for frame in frames(run.output) if frame.startswith("wastes ")]
    assert any("250 of about 250 records" in frame for frame in drawn), drawn
    assert any(" left" in frame for frame in drawn)
    assert written_over_a_bar(run.output) == []


def test_a_piped_rebuild_says_each_resource_as_it_pages_it(tenant: Tenant) -> None:
    done = run_etl(["rebuild-warehouse"], env=service_env(tenant), timeout=180)

    assert done.returncode == 0, done.stderr
    assert "wastes: reading its records from the service" in done.stderr.splitlines()
    assert "\x1b[" not in done.stderr


def test_maintain_in_a_terminal_counts_its_steps_and_piped_says_each(tenant: Tenant) -> None:
    env = service_env(tenant)
    path = write_wastes_csv(tenant.workdir / "wastes.csv", 5)
    assert run_etl(["load", "--resource", "wastes", str(path)], env=env).returncode == 0

    run = run_in_terminal(["maintain-warehouse"], env=env, cwd=tenant.workdir)
    piped = run_etl(["maintain-warehouse"], env=env, timeout=180)

    assert run.returncode == 0, run.output
    assert any("of 1 steps" in frame and " left" in frame for frame in frames(run.output))
    assert written_over_a_bar(run.output) == []
    assert piped.returncode == 0, piped.stderr
    assert "step 1 of 1: merging the log and compacting row groups" in piped.stderr

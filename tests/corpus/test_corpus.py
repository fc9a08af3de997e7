"""Every file of the bad-file corpus gives its expected outcome from ``emissions-etl validate``:
one line and exit 2 for a file problem, a reject at the right row and column and exit 1 for a
row problem, never a traceback, within 2 s of work and 500 MB; and the same with ``--rejects
out.xlsx``, whose annotated workbook holds every reject with control characters escaped.

Each file is validated in a child process of ``run_case`` (forked from a process that has
imported the CLI once, so start-up is neither timed nor paid 30 times); the child's peak memory
is its own ``ru_maxrss`` and a generous RLIMIT_DATA guards the machine should a reader ever ask
for an absurd allocation.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import openpyxl
import pytest

from emissions_etl.sources.cells import CONTROL_CHARACTERS, escape_control_characters
from tests.corpus.make_corpus import CASES, Case, make_corpus

pytestmark = [
    pytest.mark.slow,  # benchmark-sized: left out of the fast run
    pytest.mark.xdist_group("corpus"),  # the corpus written and the runner started once
]

ROOT = Path(__file__).parents[2]
WORK_SECONDS = 2.0
PEAK_MB = 500


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("corpus")
    make_corpus(folder)
    return folder


@pytest.fixture(scope="module")
def runner() -> Iterator[subprocess.Popen[str]]:
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.corpus.run_case"],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**_environment(), "COLUMNS": "200", "NO_COLOR": "1"},
    )
    yield process
    assert process.stdin is not None
    process.stdin.close()
    process.wait(timeout=60)


def _environment() -> dict[str, str]:
    import os

    return {key: value for key, value in os.environ.items() if key != "FORCE_COLOR"}


def validate(
    runner: subprocess.Popen[str], path: Path, work: Path, rejects_name: str = "rejects.json"
) -> dict[str, object]:
    """``emissions-etl validate PATH --resource wastes --rejects`` in a fresh child."""
    rejects, stdout, stderr = work / rejects_name, work / "stdout.txt", work / "stderr.txt"
    args = ["validate", str(path), "--resource", "wastes", "--rejects", str(rejects)]
    assert runner.stdin is not None
    assert runner.stdout is not None
    runner.stdin.write(json.dumps({"args": args, "stdout": str(stdout), "stderr": str(stderr)}))
    runner.stdin.write("\n")
    runner.stdin.flush()
    result: dict[str, object] = json.loads(runner.stdout.readline())
    result["stdout"] = stdout.read_text("utf-8", "replace")
    result["stderr"] = stderr.read_text("utf-8", "replace")
    if rejects.suffix == ".json":
        result["rejects"] = json.loads(rejects.read_text()) if rejects.exists() else []
    else:
        result["workbook"] = rejects if rejects.exists() else None
    return result


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_corpus_file_gives_its_outcome_within_bounds(
    case: Case,
    corpus: Path,
    runner: subprocess.Popen[str],
    tmp_path: Path,
    request: pytest.FixtureRequest,
) -> None:
    if case.xfail:
        request.applymarker(pytest.mark.xfail(reason=case.xfail, strict=False))
    result = validate(runner, corpus / case.name, tmp_path)
    output = f"{result['stdout']}{result['stderr']}"
    print(
        f"\n{case.name}: exit {result['code']}, work {result['cpu']:.2f} s cpu "
        f"({result['wall']:.2f} s wall), peak {result['peak_mb']:.0f} MB"
    )
    assert "Traceback" not in output
    assert result["code"] == case.exit_code, output
    if case.exit_code == 2:
        lines = [line for line in str(result["stderr"]).splitlines() if line.strip()]
        assert len(lines) == 1, lines
        assert case.message in lines[0]
    rejects: list[dict[str, object]] = result["rejects"]  # type: ignore[assignment]
    found = {(reject["row"], reject["column"], reject["code"]) for reject in rejects}
    assert set(case.rejects) <= found, found
    if case.exit_code == 0:
        assert not found
    assert float(result["cpu"]) < WORK_SECONDS  # type: ignore[arg-type]
    assert float(result["peak_mb"]) < PEAK_MB  # type: ignore[arg-type]


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_corpus_file_gives_its_annotated_workbook_or_its_one_line(
    case: Case,
    corpus: Path,
    runner: subprocess.Popen[str],
    tmp_path: Path,
    request: pytest.FixtureRequest,
) -> None:
    if case.xfail:
        request.applymarker(pytest.mark.xfail(reason=case.xfail, strict=False))
    result = validate(runner, corpus / case.name, tmp_path, "annotated.xlsx")
    output = f"{result['stdout']}{result['stderr']}"

    assert "Traceback" not in output
    assert result["code"] == case.exit_code, output
    workbook_path = result["workbook"]
    assert (workbook_path is not None) == (case.exit_code == 1), output
    if workbook_path is None:
        return
    workbook = openpyxl.load_workbook(workbook_path)
    listed = list(workbook["Rejects"].iter_rows(min_row=2, values_only=True))
    found = {(row, column, code) for _, _, row, column, _, code, *_ in listed}
    expected = {(r, escape_control_characters(column), code) for r, column, code in case.rejects}
    assert expected <= found, found
    for sheet in workbook.worksheets:  # every value shown, none a raw control character
        for cells in sheet.iter_rows(values_only=True):
            for value in cells:
                assert not (isinstance(value, str) and re.search(CONTROL_CHARACTERS, value))
    assert float(result["cpu"]) < WORK_SECONDS  # type: ignore[arg-type]
    assert float(result["peak_mb"]) < PEAK_MB  # type: ignore[arg-type]

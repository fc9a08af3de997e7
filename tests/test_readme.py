"""The README is a doorway: short, its two commands exactly as scripts and CI call them, and its
links to files that exist."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
SET_UP = "python3 -m venv .venv && .venv/bin/pip install -q uv && .venv/bin/uv sync --frozen"
DEMO = f"{SET_UP} && .venv/bin/emissions-etl demo"
TESTS = f"{SET_UP} && .venv/bin/pytest"


def _shell_blocks(text: str) -> list[str]:
    return [block.strip() for block in re.findall(r"```sh\n(.*?)```", text, flags=re.S)]


def test_the_readme_is_at_most_200_lines() -> None:
    assert len(README.splitlines()) <= 200


def test_the_readme_gives_the_demo_command_as_a_block_of_its_own() -> None:
    assert DEMO in _shell_blocks(README)


def test_the_readme_gives_the_test_command_as_a_block_of_its_own() -> None:
    assert TESTS in _shell_blocks(README)


def test_ci_runs_the_readme_set_up_then_its_test_command() -> None:
    ci = [
        shlex.split(line)
        for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
        if line.startswith((".venv/bin/", "python3 "))
    ]
    steps = [shlex.split(step) for step in TESTS.split(" && ")]

    assert ci[0] == steps[0]  # python3 -m venv .venv
    assert ci[1][0] == steps[1][0]  # .venv/bin/pip install ... uv, quieter
    assert ci[1][-1] == "uv"
    assert ci[2] == steps[2]  # .venv/bin/uv sync --frozen
    assert ci[-1] == steps[-1]  # .venv/bin/pytest, the suite as the README runs it


def test_the_readme_names_no_date() -> None:
    assert re.findall(r"\b20\d\d-\d\d-\d\d\b", README) == []


def test_every_relative_link_of_the_readme_names_a_file_that_exists() -> None:
    targets = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README)
    relative = [target for target in targets if "://" not in target]

    assert relative, "the README links to CHANGELOG.md and CONTRIBUTING.md"
    assert [target for target in relative if not (ROOT / target).exists()] == []


def test_every_docs_page_the_readme_names_exists() -> None:
    named = re.findall(r"`(docs/[\w/.-]+)`", README)

    assert named
    assert [path for path in named if not (ROOT / path).exists()] == []

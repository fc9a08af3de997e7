"""``emissions-etl demo`` from any folder: its inbox is the sample one installed with the
package, and it writes to its own output folder, never into a folder of someone else's files.
(The demo itself, from an empty folder with the installed wheel, runs in .ci/run.)"""

from __future__ import annotations

import os
from pathlib import Path

from emissions_etl.cli.demo import running_sandbox, sample_inbox
from emissions_etl.resources import resource_spec
from tests.cli_process import run_etl

PROJECT = Path(__file__).resolve().parents[1]


def test_the_sample_inbox_is_installed_with_the_package() -> None:
    inbox = sample_inbox()

    assert inbox == PROJECT / "sample_data" / "inbox"  # installed editable: the repository's
    for folder in inbox.iterdir():
        assert resource_spec(folder.name).name == folder.name  # one folder per resource


def test_an_output_folder_holding_other_files_is_refused_and_kept(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")

    done = run_etl(["demo", "--out", str(tmp_path)], env=dict(os.environ), cwd=tmp_path)

    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.strip() == (
        f"error: {tmp_path} holds files of its own, not a demo's output: give --out a new or "
        "empty folder"
    )
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_the_output_folder_is_named_by_its_variable_too(tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "notes.txt").write_text("mine")
    env = {**os.environ, "EMISSIONS_DEMO_OUT": str(tmp_path / "out")}

    done = run_etl(["demo"], env=env, cwd=tmp_path)

    assert done.returncode == 2, done.stdout + done.stderr
    assert f"{tmp_path / 'out'} holds files of its own" in done.stderr


def test_an_inbox_that_is_not_a_folder_is_one_line_and_exit_2(tmp_path: Path) -> None:
    done = run_etl(["demo", "--inbox", str(tmp_path / "nowhere")], env=dict(os.environ),
                   cwd=tmp_path)  # fmt: skip

    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.strip() == (
        f"error: no inbox folder at {tmp_path / 'nowhere'}: give --inbox a folder"
    )
    assert not (tmp_path / "demo-output").exists()


def test_the_demos_sandbox_serves_the_organization_it_created(tmp_path: Path) -> None:
    with running_sandbox(tmp_path) as sandbox:
        assert sandbox.base_url.startswith("https://")
        assert sandbox.organization_id
        assert sandbox.api_key.startswith("sk_")

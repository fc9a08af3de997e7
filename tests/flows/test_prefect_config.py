"""Flows take their settings from Prefect blocks and variables when the environment has none,
and find their folders (project, inbox) when the run starts."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from emissions_etl.client import LocalTokenSource, PrefectTokenSource
from emissions_etl.connection import limits_source
from emissions_etl.errors import ConfigurationError
from emissions_etl.orchestration.config import (
    SECRET_BLOCK,
    VARIABLES,
    resolve_inbox,
    resolve_settings,
)
from emissions_etl.orchestration.setup import prefect_api_url
from emissions_etl.orchestration.steps import (
    MARKER,
    installed_from,
    project_directory,
    refuse_a_temporary_warehouse,
)
from tests.cli_process import run_etl

PROJECT = Path(__file__).resolve().parents[2]
SETTINGS = (
    "API_URL",
    "API_KEY",
    "ORGANIZATION_ID",
    "CA_FILE",
    "WAREHOUSE",
    "INBOX",
    "PROJECT_DIR",
    "SHARED_LIMITS",
)


pytestmark = pytest.mark.xdist_group("prefect-harness")  # one test server per worker


@pytest.fixture
def no_emissions_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in SETTINGS:
        monkeypatch.delenv(f"EMISSIONS_{name}", raising=False)


@pytest.mark.flow
def test_settings_come_from_a_secret_block_and_variables(
    prefect_server: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from prefect.blocks.system import Secret
    from prefect.variables import Variable

    for name in ("API_URL", "API_KEY", "ORGANIZATION_ID", "CA_FILE", "WAREHOUSE"):
        monkeypatch.delenv(f"EMISSIONS_{name}", raising=False)
    Secret(value="sk_live_from_block").save(SECRET_BLOCK, overwrite=True)
    Variable.set("emissions_api_url", "https://api.example.test", overwrite=True)
    Variable.set("emissions_organization_id", "org-1", overwrite=True)

    settings = resolve_settings()

    assert settings.api_key is not None
    assert settings.api_key.get_secret_value() == "sk_live_from_block"
    assert (settings.api_url, settings.organization_id) == ("https://api.example.test", "org-1")
    assert "sk_live_from_block" not in repr(settings)


@pytest.mark.flow
def test_every_setting_a_variable_holds_is_read_and_the_environment_wins_over_each(
    prefect_server: None, no_emissions_env: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from prefect.variables import Variable

    held = {
        "api_url": "https://api.example.test",
        "organization_id": "org-7",
        "ca_file": str(tmp_path / "ca.pem"),
        "warehouse": str(tmp_path / "warehouse.duckdb"),
        "warehouse_data": "s3://lake/data",
        "inbox": str(tmp_path / "inbox"),
        "inbox_queue": "https://sqs.eu-west-1.amazonaws.com/123456789012/inbox",
        "shared_limits": "prefect",
    }
    assert set(held) == set(VARIABLES)
    for field, value in held.items():
        Variable.set(VARIABLES[field], value, overwrite=True)
    try:
        from_prefect = resolve_settings(require_api=False)
        monkeypatch.setenv("EMISSIONS_WAREHOUSE", str(tmp_path / "env.duckdb"))
        monkeypatch.setenv("EMISSIONS_SHARED_LIMITS", "machine")
        with_environment = resolve_settings(require_api=False)
    finally:
        for variable in VARIABLES.values():
            Variable.unset(variable)

    assert {field: str(getattr(from_prefect, field)) for field in held} == held
    assert (with_environment.warehouse, with_environment.shared_limits) == (
        str(tmp_path / "env.duckdb"),
        "machine",
    )
    assert with_environment.inbox == held["inbox"]


@pytest.mark.flow
def test_deployments_share_the_limits_through_prefect_when_the_variable_says_so(
    prefect_server: None, no_emissions_env: None, tmp_path: Path
) -> None:
    from prefect.variables import Variable

    Variable.set(VARIABLES["shared_limits"], "prefect", overwrite=True)
    settings = resolve_settings(require_api=False).model_copy(
        update={"limits_file": tmp_path / "limits.sqlite3"}
    )
    source = limits_source(settings)
    source.close()

    assert settings.shared_limits == "prefect"
    assert isinstance(source, PrefectTokenSource)
    assert (tmp_path / "limits.sqlite3").exists()  # the machine's pool stays under Prefect's

    Variable.set(VARIABLES["shared_limits"], "machine", overwrite=True)
    machine = limits_source(resolve_settings(require_api=False))
    machine.close()
    assert isinstance(machine, LocalTokenSource)


@pytest.mark.flow
def test_an_unusable_variable_is_one_error_naming_it(
    prefect_server: None, no_emissions_env: None
) -> None:
    from prefect.variables import Variable

    Variable.set(VARIABLES["shared_limits"], "cluster", overwrite=True)
    try:
        with pytest.raises(ConfigurationError) as raised:
            resolve_settings(require_api=False)
    finally:
        Variable.unset(VARIABLES["shared_limits"])

    assert str(raised.value) == (
        "invalid setting(s): the Prefect variable emissions_shared_limits: Input should be "
        "'machine' or 'prefect' (got 'cluster')"
    )


@pytest.mark.flow
def test_the_environment_wins_over_prefect(
    prefect_server: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from prefect.variables import Variable

    Variable.set("emissions_api_url", "https://from-variable.test", overwrite=True)
    monkeypatch.setenv("EMISSIONS_API_URL", "https://from-env.test")

    assert resolve_settings(require_api=False).api_url == "https://from-env.test"


@pytest.mark.flow
def test_a_missing_setting_names_the_prefect_variable_or_block_and_the_environment_variable(
    prefect_server: None, no_emissions_env: None
) -> None:
    from prefect.blocks.system import Secret
    from prefect.variables import Variable

    Secret(value="sk_to_delete").save(SECRET_BLOCK, overwrite=True)
    Secret.delete(SECRET_BLOCK)
    Variable.unset(VARIABLES["api_url"])
    Variable.set(VARIABLES["organization_id"], "org-1", overwrite=True)

    with pytest.raises(ConfigurationError) as raised:
        resolve_settings()

    assert str(raised.value) == (
        "missing setting(s): the Prefect variable emissions_api_url (or EMISSIONS_API_URL on "
        "the worker); the Secret block emissions-api-key (or EMISSIONS_API_KEY on the worker)"
    )


def test_the_inbox_given_wins_and_a_relative_one_is_taken_from_the_run_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "inbox").mkdir()
    monkeypatch.setenv("EMISSIONS_INBOX", "/somewhere/else")
    monkeypatch.chdir(tmp_path)

    assert resolve_inbox("inbox") == tmp_path / "inbox"
    assert resolve_inbox(str(tmp_path / "inbox")) == tmp_path / "inbox"


def test_without_a_given_inbox_emissions_inbox_is_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EMISSIONS_INBOX", str(tmp_path))

    assert resolve_inbox(None) == tmp_path
    assert resolve_inbox("") == tmp_path  # the UI's form sends an empty string


def test_a_missing_inbox_folder_says_what_to_create_or_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)

    with pytest.raises(ConfigurationError) as raised:
        resolve_inbox("incoming")

    assert str(raised.value) == (
        f"inbox folder {tmp_path / 'incoming'} does not exist: create it, or set the Prefect "
        "variable emissions_inbox / EMISSIONS_INBOX"
    )


@pytest.mark.flow
def test_without_parameter_nor_environment_the_inbox_comes_from_the_prefect_variable(
    prefect_server: None, no_emissions_env: None, tmp_path: Path
) -> None:
    from prefect.variables import Variable

    Variable.set(VARIABLES["inbox"], str(tmp_path), overwrite=True)
    assert resolve_inbox(None) == tmp_path

    Variable.unset(VARIABLES["inbox"])
    with pytest.raises(ConfigurationError, match="no inbox folder given"):
        resolve_inbox(None)


def test_runs_start_in_the_checkout_emissions_etl_is_installed_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_emissions_env: None
) -> None:
    monkeypatch.chdir(tmp_path)  # a worker started anywhere, with the project's venv

    assert project_directory() == PROJECT
    assert (PROJECT / MARKER).is_file()


def test_emissions_project_dir_or_a_working_dir_holding_the_flows_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_emissions_env: None
) -> None:
    elsewhere, here = tmp_path / "elsewhere", tmp_path / "here"
    for project in (elsewhere, here):
        (project / MARKER).parent.mkdir(parents=True)
        (project / MARKER).write_text("deployments: []\n")
    monkeypatch.chdir(here)
    assert project_directory() == here

    monkeypatch.setenv("EMISSIONS_PROJECT_DIR", str(elsewhere))
    assert project_directory() == elsewhere


def test_emissions_project_dir_may_be_any_folder_of_a_worker_with_the_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EMISSIONS_PROJECT_DIR", str(tmp_path))  # no flows/ in it

    assert project_directory() == tmp_path


def test_emissions_project_dir_that_is_not_a_folder_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EMISSIONS_PROJECT_DIR", str(tmp_path / "nowhere"))

    with pytest.raises(ConfigurationError, match="nowhere is not a folder"):
        project_directory()


@pytest.mark.flow
def test_a_run_in_a_temporary_folder_refuses_a_relative_warehouse(
    prefect_server: None, no_emissions_env: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EMISSIONS_WAREHOUSE", "warehouse.duckdb")

    with pytest.raises(ConfigurationError) as raised:
        refuse_a_temporary_warehouse(tmp_path)  # pytest's folders are in the temporary one

    assert str(raised.value) == (
        f"the warehouse's warehouse.duckdb is a relative path and this run starts in a "
        f"temporary folder ({tmp_path}), deleted when it ends: set EMISSIONS_PROJECT_DIR on the "
        "worker to the folder to keep it in, or give prefect-setup --warehouse an absolute path"
    )


@pytest.mark.flow
def test_a_run_in_a_temporary_folder_takes_an_absolute_warehouse_or_a_server_catalog(
    prefect_server: None, no_emissions_env: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for warehouse in (str(tmp_path / "warehouse.duckdb"), "ducklake:postgres:dbname=lake"):
        monkeypatch.setenv("EMISSIONS_WAREHOUSE", warehouse)

        refuse_a_temporary_warehouse(tmp_path)


def test_a_run_says_which_install_it_runs_from() -> None:
    import emissions_etl

    assert installed_from() == (
        f"emissions-etl {emissions_etl.__version__} from {PROJECT / 'src'} "
        f"(flows: {PROJECT / 'flows'})"
    )


def test_prefect_setup_refuses_the_ephemeral_server() -> None:
    from prefect.settings import PREFECT_API_URL, temporary_settings

    with (
        temporary_settings(restore_defaults={PREFECT_API_URL}),
        pytest.raises(ConfigurationError, match="PREFECT_API_URL is not set"),
    ):
        prefect_api_url()


def test_prefect_setup_without_a_server_exits_2_with_one_line(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PREFECT_", "EMISSIONS_"))}
    done = run_etl(["prefect-setup"], timeout=120, env={**env, "PREFECT_HOME": str(tmp_path)})

    assert done.returncode == 2, done.stderr
    assert "PREFECT_API_URL is not set" in done.stderr
    assert done.stderr.strip().count("\n") == 0


def test_prefect_setup_shows_its_alerting_options_with_their_variables() -> None:
    done = run_etl(["prefect-setup", "--help"], env={**os.environ, "COLUMNS": "200"})

    assert done.returncode == 0, done.stderr
    for words in ("--notify", "EMISSIONS_NOTIFY", "--notify-partial", "EMISSIONS_NOTIFY_PARTIAL",
                  "--notify-overdue", "EMISSIONS_NOTIFY_OVERDUE"):  # fmt: skip
        assert words in done.stdout


def test_prefect_setup_shows_its_arrivals_option_with_its_variable() -> None:
    done = run_etl(["prefect-setup", "--help"], env={**os.environ, "COLUMNS": "200"})

    assert done.returncode == 0, done.stderr
    for words in ("--no-arrivals", "EMISSIONS_ARRIVALS"):
        assert words in done.stdout


def test_prefect_setup_refuses_notify_partial_without_a_block(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("EMISSIONS_")}
    done = run_etl(["prefect-setup", "--notify-partial"], env=env, cwd=tmp_path)

    assert done.returncode == 2
    assert "--notify-partial needs --notify BLOCK" in done.stderr


def test_prefect_setup_refuses_notify_overdue_without_a_block(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("EMISSIONS_")}
    done = run_etl(["prefect-setup", "--notify-overdue"], env=env, cwd=tmp_path)

    assert done.returncode == 2
    assert "--notify-overdue needs --notify BLOCK" in done.stderr


@pytest.mark.parametrize("run_id", ["0b1f6d2e-8c4a-4f7e-9d3b-2a5c6e7f8091", None])
def test_the_pull_steps_line_is_printed_whole_with_or_without_a_run(
    tmp_path: Path, run_id: str | None
) -> None:
    """Prefect's console format of a run's lines names the run: the step's line must carry
    what that format reads, or the worker prints a logging error instead of it."""
    import subprocess
    import sys

    script = (
        "from prefect.logging.configuration import setup_logging; setup_logging(); "
        "from emissions_etl.orchestration.steps import set_project_directory; "
        "set_project_directory()"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("EMISSIONS_", "PREFECT_"))}
    env |= {"EMISSIONS_PROJECT_DIR": str(tmp_path), "PREFECT_LOGGING_TO_API_ENABLED": "false",
            "PREFECT_LOGGING_LEVEL": "INFO", "PREFECT_HOME": str(tmp_path / "prefect")}  # fmt: skip
    if run_id:
        env["PREFECT__FLOW_RUN_ID"] = run_id
    done = subprocess.run([sys.executable, "-c", script], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=120, check=False)  # fmt: skip

    assert done.returncode == 0, done.stderr
    output = done.stdout + done.stderr
    assert "Logging error" not in output
    assert f"the run starts in {tmp_path.resolve()}" in output

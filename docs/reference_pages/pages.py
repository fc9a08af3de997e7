"""Every reference page, from the code: what the generator writes and its test compares."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from emissions_etl.cli import app as etl_app
from emissions_etl.cli.exit_codes import COMMAND_EXITS, EXIT_CODES
from emissions_etl.domain.rejects import REJECT_CODE_MEANINGS, RejectCode
from emissions_etl.resources import RESOURCES
from emissions_etl.settings import Settings
from emissions_etl.webhooks import WebhookSettings
from emissions_sandbox.cli import COMMAND_EXITS as SANDBOX_EXITS
from emissions_sandbox.cli import app as sandbox_app

from .cli_page import cli_page
from .codes_pages import exit_codes_page, reject_codes_page
from .command_line import CommandLine
from .prefect_page import deployment_holders, prefect_page
from .variables_page import variables_page
from .warehouse_page import warehouse_page

#: The project's root (``src/``, ``flows/``, ``schemas/``, ``docs/``).
PROJECT = Path(__file__).resolve().parents[2]
#: Where the pages go, by their name.
REFERENCE = PROJECT / "docs" / "reference"
#: The folders whose files may name a variable or a reject code.
SOURCE_FOLDERS = ("src", "flows", "schemas")
SOURCE_SUFFIXES = (".py", ".yaml", ".toml", ".md", ".sql", ".csv")
#: Every settings model: each reads EMISSIONS_* variables (their fields' descriptions are the
#: reference's). A new one goes here, or its variables fail the check as described nowhere.
SETTINGS_MODELS = (Settings, WebhookSettings)


@dataclass(frozen=True)
class Inputs:
    """What the pages are made from (the test gives its own command line)."""

    etl: CommandLine
    sandbox: CommandLine
    sources: tuple[Path, ...]


def default_inputs() -> Inputs:
    return Inputs(
        CommandLine.of(etl_app, "emissions-etl", COMMAND_EXITS, "cli.md"),
        CommandLine.of(sandbox_app, "emissions-sandbox", SANDBOX_EXITS, "sandbox-cli.md"),
        source_files(PROJECT),
    )


def source_files(project: Path) -> tuple[Path, ...]:
    """The project's source files, in a stable order (caches and build output left out)."""
    found = [
        path
        for folder in SOURCE_FOLDERS
        for path in (project / folder).rglob("*")
        if path.suffix in SOURCE_SUFFIXES and path.is_file()
        and not any(part == "__pycache__" or part.endswith(".egg-info") for part in path.parts)
    ]  # fmt: skip
    return tuple(sorted(found))


def reference_pages(inputs: Inputs | None = None) -> dict[str, str]:
    """Page name -> its Markdown."""
    given = inputs or default_inputs()
    lines = (given.etl, given.sandbox)
    return {
        "cli.md": cli_page(
            given.etl, "Command line",
            "Every command of `emissions-etl`, with its arguments and options (an option with a "
            "variable takes its value from the environment when it is not given), and what its "
            "exit codes mean. Generated from the command line itself (`emissions_etl.cli`): "
            "`emissions-etl COMMAND --help` says the same.",
        ),
        "sandbox-cli.md": cli_page(
            given.sandbox, "Sandbox command line",
            "`emissions-sandbox`: a local Emissions Accounting Service for tests, the demo and "
            "benchmarks, served over HTTPS on loopback. The create commands print one JSON "
            "object. Generated from `emissions_sandbox.cli`.",
        ),
        "variables.md": variables_page(
            SETTINGS_MODELS, lines, deployment_holders(), given.sources
        ),
        "warehouse.md": warehouse_page(list(RESOURCES.values())),
        "exit-codes.md": exit_codes_page(EXIT_CODES, lines),
        "reject-codes.md": reject_codes_page(
            [code.value for code in RejectCode],
            {code.value: meaning for code, meaning in REJECT_CODE_MEANINGS.items()},
            given.sources,
        ),
        "prefect.md": prefect_page(PROJECT),
    }  # fmt: skip


def differing(pages: Mapping[str, str], folder: Path = REFERENCE) -> list[str]:
    """The pages whose file in ``folder`` is missing or holds other text, and the files there
    no page is written to."""
    stale = [
        name
        for name, body in pages.items()
        if not (folder / name).is_file() or (folder / name).read_text("utf-8") != body
    ]
    extra = [path.name for path in folder.glob("*.md") if path.name not in pages]
    return sorted(stale) + sorted(extra)


def write(pages: Mapping[str, str], folder: Path = REFERENCE) -> list[str]:
    """Write the pages that changed; returns their names."""
    folder.mkdir(parents=True, exist_ok=True)
    changed = differing(pages, folder)
    for name in changed:
        if name in pages:
            (folder / name).write_text(pages[name], encoding="utf-8")
    return [name for name in changed if name in pages]


__all__ = ["Inputs", "default_inputs", "differing", "reference_pages", "write"]

"""The reference pages (``docs/reference/``) are what the code declares: the committed pages
equal what ``docs/generate_reference.py`` writes now, every option, variable, table, view and
column has its description, and something new without one is refused or shows as a change."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import pytest
import typer

from docs.reference_pages.codes_pages import reject_codes_page
from docs.reference_pages.command_line import CommandLine, Undeclared
from docs.reference_pages.pages import (
    PROJECT,
    SETTINGS_MODELS,
    Inputs,
    default_inputs,
    differing,
    reference_pages,
)
from docs.reference_pages.prefect_page import deployment_holders
from docs.reference_pages.variables_page import variables_page
from docs.reference_pages.warehouse_page import built_warehouse
from emissions_etl.cli import app
from emissions_etl.cli.exit_codes import COMMAND_EXITS
from emissions_etl.domain.rejects import REJECT_CODE_MEANINGS, RejectCode
from emissions_etl.resources import RESOURCES
from emissions_etl.warehouse import Warehouse
from emissions_etl.warehouse._descriptions import declared, described, resource_view
from tests.warehouse.conftest import comments

NAME = re.compile(r"EMISSIONS_[A-Z_]+")


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    return reference_pages()


def _command_name(info: typer.models.CommandInfo) -> str:
    assert info.callback is not None
    return info.name or typer.main.get_command_name(info.callback.__name__)


def _app_with(commands: dict[str, Callable[..., None]]) -> typer.Typer:
    """A copy of the ``emissions-etl`` app with ``commands`` (name -> function) in place of its
    own of those names, or after them (the real app is left as it is)."""
    copy = typer.Typer(name="emissions-etl", no_args_is_help=True, add_completion=False)
    assert app.registered_callback is not None
    assert app.registered_callback.callback is not None
    copy.callback()(app.registered_callback.callback)
    given = dict(commands)
    for info in app.registered_commands:
        name = _command_name(info)
        copy.command(name)(given.pop(name, info.callback))  # type: ignore[arg-type]
    for name, command in given.items():
        copy.command(name)(command)
    return copy


def _inputs_with(copy: typer.Typer) -> Inputs:
    default = default_inputs()
    etl = CommandLine.of(copy, "emissions-etl", COMMAND_EXITS, "cli.md")
    return Inputs(etl, default.sandbox, default.sources)


def test_the_committed_reference_pages_are_what_the_code_declares_now(
    pages: dict[str, str],
) -> None:
    assert differing(pages) == [], "run .venv/bin/python docs/generate_reference.py"


def test_a_new_option_with_a_variable_changes_the_command_line_and_variables_pages() -> None:
    def version(
        colour: Annotated[
            str | None,
            typer.Option(envvar="EMISSIONS_COLOUR", show_envvar=True, help="Print in colour."),
        ] = None,
    ) -> None:
        """Print the version (same as --version)."""

    pages = reference_pages(_inputs_with(_app_with({"version": version})))

    assert differing(pages) == ["cli.md", "variables.md"]
    assert (
        "| `--colour` | text |  | [`EMISSIONS_COLOUR`](variables.md#emissions_colour) |"
        in (pages["cli.md"])
    )
    assert "## EMISSIONS_COLOUR\n\nPrint in colour." in pages["variables.md"]


def test_an_option_without_help_stops_the_generator() -> None:
    def version(colour: Annotated[str | None, typer.Option()] = None) -> None:
        """Print the version (same as --version)."""

    with pytest.raises(Undeclared, match=r"emissions-etl version --colour: no help"):
        reference_pages(_inputs_with(_app_with({"version": version})))


def test_a_command_without_its_exit_codes_stops_the_generator() -> None:
    def shout() -> None:
        """Say it louder."""

    with pytest.raises(Undeclared, match=r"emissions-etl shout: no exit codes declared"):
        reference_pages(_inputs_with(_app_with({"shout": shout})))


def test_every_option_with_a_variable_has_its_line_and_its_variable_heading(
    pages: dict[str, str],
) -> None:
    inputs = default_inputs()
    for line in (inputs.etl, inputs.sandbox):
        page = pages[line.page]
        for command in line.commands():
            for parameter in command.parameters():
                if parameter.envvar is None:
                    continue
                anchor = parameter.envvar.lower()
                row = next(
                    row for row in page.split(f"## {command.name}\n", 1)[1].splitlines()
                    if row.startswith(f"| `{parameter.names}` |")
                )  # fmt: skip
                assert f"(variables.md#{anchor})" in row
                assert parameter.help
                assert f"\n## {parameter.envvar}\n" in pages["variables.md"]


def test_every_emissions_variable_the_source_names_has_its_heading(
    pages: dict[str, str],
) -> None:
    headings = set(re.findall(r"^## (EMISSIONS_[A-Z_]+)$", pages["variables.md"], re.M))
    named = {
        name
        for folder in ("src", "flows", "schemas")
        for path in (PROJECT / folder).rglob("*")
        if path.is_file() and path.suffix in (".py", ".yaml", ".toml", ".md", ".sql", ".csv")
        and "__pycache__" not in path.parts and not any(p.endswith(".egg-info") for p in path.parts)
        for name in NAME.findall(path.read_text(encoding="utf-8"))
    }  # fmt: skip

    assert len(named) > 25
    for name in named:
        if name.endswith("_"):  # a prefix: EMISSIONS_WEBHOOK_*
            assert any(heading.startswith(name) for heading in headings), name
        else:
            assert name in headings, name


def test_a_variable_the_source_names_that_nothing_reads_stops_the_generator(
    tmp_path: Path,
) -> None:
    inputs = default_inputs()
    stray = tmp_path / "stray.py"
    stray.write_text('TIMEOUT = os.environ.get("EMISSIONS_TIMEOUT")\n', encoding="utf-8")

    with pytest.raises(Undeclared, match=r"EMISSIONS_TIMEOUT \(.*stray\.py:1\)"):
        variables_page(
            SETTINGS_MODELS,
            (inputs.etl, inputs.sandbox),
            deployment_holders(),
            (*inputs.sources, stray),
        )


def test_a_reject_code_a_schema_names_but_rejects_do_not_declare_stops_the_generator(
    tmp_path: Path,
) -> None:
    check = tmp_path / "checks.py"
    check.write_text('"is_iban": CheckReject("INVALID_IBAN", "must be an IBAN"),\n', "utf-8")

    with pytest.raises(Undeclared, match=r"INVALID_IBAN \(.*checks\.py:1\)"):
        reject_codes_page(
            [code.value for code in RejectCode],
            {code.value: meaning for code, meaning in REJECT_CODE_MEANINGS.items()},
            (*default_inputs().sources, check),
        )


@pytest.fixture(scope="module")
def new_warehouse(tmp_path_factory: pytest.TempPathFactory) -> Warehouse:
    """A new warehouse file every resource described, as the generator builds it."""
    folder = tmp_path_factory.mktemp("reference")
    return Warehouse(built_warehouse(folder, list(RESOURCES.values())))


def test_every_table_view_macro_and_column_of_a_new_warehouse_has_its_description(
    new_warehouse: Warehouse,
) -> None:
    objects, columns = comments(new_warehouse)

    assert {"load_runs", "emissions", "wastes", "ghg_inventory_under"} <= set(objects)
    assert len(columns) > 400
    assert [name for name, comment in objects.items() if not comment] == []
    assert [f"{table}.{name}" for table, name, comment in columns if not comment] == []


def test_the_comments_of_a_warehouse_file_are_the_declaration(new_warehouse: Warehouse) -> None:
    objects, columns = comments(new_warehouse)

    expected = {item.name: item for item in declared()}
    for spec in RESOURCES.values():
        if spec.name in objects and spec.name not in expected:  # its view (not facilities)
            fields = [(column.name, column.meaning) for column in spec.view_columns]
            expected[spec.name] = resource_view(spec.name, spec.description, fields)
    assert objects == {name: expected[name].description for name in objects}
    for table, name, comment in columns:
        assert comment == expected[table].columns[name], f"{table}.{name}"


def test_a_ducklake_keeps_the_comments_of_its_tables_their_columns_and_its_views(
    tmp_path: Path,
) -> None:
    """DuckLake takes no comment on a view's columns (duckdb/ducklake#1239) nor on a macro:
    those are left out, and everything else is as declared."""
    lake = Warehouse(f"ducklake:{tmp_path / 'catalog.ducklake'}")
    with lake.writer():
        pass

    objects, columns = comments(lake)

    for name, comment in objects.items():
        kept = described(name).kind != "macro"
        assert comment == (described(name).description if kept else None), name
    for table, name, comment in columns:
        kept = described(table).kind == "table"
        assert comment == (described(table).columns[name] if kept else None), f"{table}.{name}"

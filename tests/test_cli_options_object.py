"""A command's options as one typed object (``cli.options_object``): a group of options (a
dataclass field of the object) is spliced into the command line where the object names it, in
its order, and the command receives the group made of what was given; the warehouse's and the
webhook's groups make their settings of what was given alone."""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import pytest
import typer
from typer.testing import CliRunner

from emissions_etl.cli.options_object import options_command
from emissions_etl.cli.warehouse_options import WarehouseOptions
from emissions_etl.cli.webhook_options import WebhookOptions


@dataclass(frozen=True)
class Place:
    city: Annotated[str, typer.Option(help="The city.")] = "Madrid"
    floor: Annotated[int | None, typer.Option(envvar="TEST_FLOOR", help="The floor.")] = None


@dataclass(frozen=True)
class Visit:
    who: Annotated[str, typer.Argument(help="Who visits.")]
    place: Place = Place()
    hours: Annotated[float, typer.Option(help="How long.")] = 1.0


def visit_app(seen: list[Visit]) -> typer.Typer:
    app = typer.Typer(add_completion=False, rich_markup_mode=None)

    @app.command()
    @options_command(Visit)
    def visit(command: Visit) -> None:
        seen.append(command)

    return app


def test_a_group_is_spliced_where_the_object_names_it_in_its_order() -> None:
    parameters = inspect.signature(options_command(Visit)(lambda command: None)).parameters

    assert list(parameters) == ["who", "city", "floor", "hours"]
    assert parameters["city"].default == "Madrid"
    assert parameters["who"].default is inspect.Parameter.empty


def test_the_command_receives_the_group_made_of_what_was_given(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[Visit] = []
    monkeypatch.setenv("TEST_FLOOR", "3")

    done = CliRunner().invoke(visit_app(seen), ["Ana", "--city", "Sevilla", "--hours", "2"])

    assert done.exit_code == 0, done.output
    assert seen == [Visit(who="Ana", place=Place(city="Sevilla", floor=3), hours=2.0)]


def test_a_group_not_given_is_its_defaults() -> None:
    seen: list[Visit] = []

    done = CliRunner().invoke(visit_app(seen), ["Ana"])

    assert done.exit_code == 0, done.output
    assert seen == [Visit(who="Ana")]


def test_the_help_lists_a_groups_options_where_the_object_names_it() -> None:
    done = CliRunner().invoke(visit_app([]), ["--help"], env={"COLUMNS": "200"})

    assert done.exit_code == 0, done.output
    options = [line.split()[0] for line in done.output.splitlines() if line.startswith("  --")]
    assert options == ["--city", "--floor", "--hours", "--help"]


@dataclass(frozen=True)
class Twice:
    city: Annotated[str, typer.Option()] = "Madrid"
    place: Place = Place()


def test_a_group_naming_a_parameter_again_is_refused_when_declared() -> None:
    with pytest.raises(TypeError, match="named twice: city"):
        options_command(Twice)


def test_the_warehouse_options_given_are_settings_fields_the_others_left_out() -> None:
    given = WarehouseOptions(warehouse="w.duckdb", warehouse_threads=2).given()

    assert given == {"warehouse": "w.duckdb", "warehouse_threads": 2}


def test_the_webhook_options_not_given_leave_their_variables_in_force(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("EMISSIONS_WEBHOOK_LISTEN", "127.0.0.1:9999")
    monkeypatch.setenv("EMISSIONS_WEBHOOK_FALLBACK_AFTER", "5")
    given = WebhookOptions(
        webhook_url="https://hooks.example/{port}", webhook_secret="whsec_x",
        webhook_fallback_after=2.5,
    )  # fmt: skip

    settings = given.settings(tmp_path / "w.duckdb")

    assert settings.url == "https://hooks.example/{port}"
    assert settings.secret is not None
    assert settings.secret.get_secret_value() == "whsec_x"
    assert settings.fallback_after == 2.5
    assert settings.listen == "127.0.0.1:9999"
    assert settings.secret_path() == tmp_path / "w.duckdb.webhook-secret.json"

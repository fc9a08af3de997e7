"""An expectations file: what a team expects beyond the defaults (``--expectations FILE.toml``,
``EMISSIONS_EXPECTATIONS``), per resource and entity.

    due_day = 15                      # data of a month is due on day 15 of the next (default 10)
    estimate = "neighbours"           # how gaps are estimated (neighbours, year_earlier, none)

    [wastes]                          # every facility's wastes
    cadence = "quarterly"             # monthly (default), quarterly or yearly

    [wastes.entities."Valencia Office"]
    expected = false                  # not expected at all

    [vehicle_consumptions.entities."1234 BCD"]
    until = "2026-05"                 # sold in May: expected up to May (a month or a date)

    [business_travels]
    from = "2026-01"                  # every month from January, not only between months with some

A resource and an entity take ``cadence``, ``expected``, ``from``, ``until`` and ``estimate``;
the file's top level takes them too (for every resource), and ``due_day``. An entity is named as
the coverage names it (a licence plate, a facility's name, an employee's e-mail or name), case
and spaces aside. Anything else is refused, with the key and the file, before anything is
stored.
"""

from __future__ import annotations

import datetime as dt
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import TypedDict

from emissions_etl.errors import InputError
from emissions_etl.warehouse import CADENCES, ESTIMATES, Expectation

#: What a resource, an entity or the whole file may say.
SAID = ("cadence", "expected", "from", "until", "estimate")
_MONTH = re.compile(r"^(\d{4})-(\d{2})(?:-(\d{2}))?$")


class _Said(TypedDict):
    """The fields of an ``Expectation`` a table says, checked."""

    cadence: str | None
    estimate: str | None
    expected: bool | None
    expected_from: dt.date | None
    expected_until: dt.date | None


def read_expectations(path: Path) -> tuple[Expectation, ...]:
    """The expectations ``path`` holds; InputError naming the file and what is wrong."""
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        reason = f"cannot read the expectations file: {error.strerror or error}"
        raise InputError(str(path), reason) from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise InputError(str(path), f"not a TOML file: {error}") from None
    try:
        return parse_expectations(document)
    except ValueError as error:
        raise InputError(str(path), str(error)) from None


def parse_expectations(document: Mapping[str, object]) -> tuple[Expectation, ...]:
    """The expectations of a parsed file; ValueError saying what is wrong."""
    from emissions_etl.resources import RESOURCES  # its schemas: only when a file is read

    covered = {name for name, spec in RESOURCES.items() if spec.coverage is not None}
    top = {key: value for key, value in document.items() if not isinstance(value, dict)}
    _only(top, (*SAID, "due_day"), "the file's top level")
    due_day = top.get("due_day")
    if due_day is not None and (type(due_day) is not int or not 1 <= due_day <= 31):
        raise ValueError(f"due_day = {due_day!r}: give a day of the month, 1 to 31")
    found = [Expectation(**_said(top, "the file's top level"), due_day=due_day)]
    for resource, table in document.items():
        if not isinstance(table, dict):
            continue
        if resource not in covered:
            raise ValueError(
                f"[{resource}]: no resource of that name has coverage; use one of "
                f"{', '.join(sorted(covered))}"
            )
        found += _resource(resource, table)
    return tuple(found)


def _resource(resource: str, table: Mapping[str, object]) -> list[Expectation]:
    """The resource's own expectation, then each of its entities'."""
    given = table.get("entities", {})
    _only(table, (*SAID, "entities"), f"[{resource}]")
    if not isinstance(given, dict):
        raise ValueError(f"[{resource}] entities: give a table of entities by name")
    entities: Mapping[str, object] = given  # a TOML table's keys are texts
    from emissions_etl.resources import RESOURCES

    spec = RESOURCES[resource].coverage
    if entities and spec is not None and spec.entity is None:
        raise ValueError(
            f"[{resource}.entities]: {resource} is expected of the organization as a whole, "
            "it has no entities; say what is expected in [" + resource + "] itself"
        )
    found = [Expectation(resource=resource, **_said(table, f"[{resource}]"))]
    seen: dict[str, str] = {}
    for name, said in entities.items():
        where = f"[{resource}.entities.{_quoted(name)}]"
        if not isinstance(said, dict):
            raise ValueError(f"{where}: give a table (expected, cadence, from, until, estimate)")
        _only(said, SAID, where)
        key = re.sub(r"\s+", "", name.strip().lower())
        if key in seen:
            raise ValueError(f"{where}: the same entity as {seen[key]} (case and spaces aside)")
        seen[key] = where
        found.append(Expectation(resource=resource, entity=name.strip(), **_said(said, where)))
    return found


def _said(table: Mapping[str, object], where: str) -> _Said:
    """The fields of an ``Expectation`` a table says (checked)."""
    cadence = _one_of(table.get("cadence"), CADENCES, f"{where} cadence")
    estimate = _one_of(table.get("estimate"), ESTIMATES, f"{where} estimate")
    expected = table.get("expected")
    if expected is not None and not isinstance(expected, bool):
        raise ValueError(f"{where} expected = {expected!r}: give true or false")
    first, last = (_month(table.get(key), f"{where} {key}") for key in ("from", "until"))
    if first is not None and last is not None and last < first:
        raise ValueError(f"{where}: until {last:%Y-%m} is before from {first:%Y-%m}")
    return {"cadence": cadence, "estimate": estimate, "expected": expected,
            "expected_from": first, "expected_until": last}  # fmt: skip


def _one_of(value: object, choices: tuple[str, ...], where: str) -> str | None:
    """``value``, one of ``choices`` (None: not said)."""
    if value is not None and (not isinstance(value, str) or value not in choices):
        raise ValueError(f"{where} = {value!r}: use one of {', '.join(choices)}")
    return value


def _month(value: object, where: str) -> dt.date | None:
    """The first day of the month ``value`` names (``2026-05``, ``2026-05-17`` or a date)."""
    if value is None:
        return None
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value.replace(day=1)
    found = _MONTH.match(str(value).strip()) if isinstance(value, str) else None
    if found is None:
        raise ValueError(f"{where} = {value!r}: give a month such as 2026-05")
    year, month = int(found[1]), int(found[2])
    if not 1 <= month <= 12:
        raise ValueError(f"{where} = {value!r}: no month {month}")
    return dt.date(year, month, 1)


def _only(table: Mapping[str, object], allowed: tuple[str, ...], where: str) -> None:
    unknown = [key for key in table if key not in allowed]
    if unknown:
        raise ValueError(f"{where}: unknown key {unknown[0]!r}; use {', '.join(allowed)}")


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '\\"') + '"'

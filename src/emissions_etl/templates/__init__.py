"""Workbooks a person can fill in, with a sheet per resource (one, or several in one workbook):
the accepted columns as the header (required ones bold, with a comment), dropdowns (Excel data
validation) for every choice, yes/no column and reference list, and an "About" sheet explaining
each column with an example value. Each sheet is named after its resource, so the workbook, filled
in, loads back as it is: every sheet to its resource, parents first; sheets left empty are skipped.

Every template has dropdowns without a service: the schema's choices and yes/no columns, the
countries of ISO 3166-1 (``iso3166_countries.csv``, shipped with its source) wherever a column
is checked as a country code, the interface's facility categories, and the names a reference
list documents (a logistics fleet's fuels). With a service configured, the organization's own
lists (facilities, fuels, units, vehicle types, TOCs...) replace those names. A dropdown the
loader reads more than (ESP as well as ES, several categories in one cell) lets a person keep
what they typed after a note; the others refuse it.

Floor: with ``report``, below the orchestration. May import the load engine and every floor below
it (resources, domain...); never the report beside it, the orchestration or the command line.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from pathlib import Path

from openpyxl import Workbook
from openpyxl.comments import Comment
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter, quote_sheetname
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.worksheet import Worksheet

from emissions_etl.loading.cell_kinds import column_rules
from emissions_etl.resources import ResourceSpec, in_dependency_order
from emissions_etl_schemas.checks import FACILITY_CATEGORIES

#: Rows of the data sheet that carry the dropdowns.
TEMPLATE_ROWS = 2000
_REQUIRED_FILL = PatternFill("solid", start_color="FFE699", end_color="FFE699")
_HEADER_FILL = PatternFill("solid", start_color="DDEBF7", end_color="DDEBF7")
_BOOLEAN_CHOICES = ("yes", "no")


@dataclass(frozen=True)
class Dropdown:
    """What a column's dropdown offers. ``closed``: Excel refuses any other value; else it
    notes it and lets the person keep it (the loader reads more than the list).
    ``accepted`` words the About sheet's "accepted values" when the list is long."""

    values: tuple[str, ...]
    closed: bool = True
    accepted: str = ""


@cache
def countries() -> tuple[str, ...]:
    """The ISO 3166-1 alpha-2 codes of ``iso3166_countries.csv``, in order."""
    text = files(__package__).joinpath("iso3166_countries.csv").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line and not line.startswith("# ")]
    return tuple(row["alpha2"] for row in csv.DictReader(lines))


#: Registered checks whose values a template offers without a service.
_CHECK_DROPDOWNS: Mapping[str, Callable[[], Dropdown]] = {
    "is_country_alpha2": lambda: Dropdown(
        countries(), closed=True, accepted="a two-letter ISO 3166-1 code: ES, PT, FR..."
    ),
    "is_country_code": lambda: Dropdown(
        countries(), closed=False, accepted="an ISO 3166-1 code: ES (ESP and GLO are read too)"
    ),
    "is_facility_categories": lambda: Dropdown(
        FACILITY_CATEGORIES,
        closed=False,
        accepted=f"{', '.join(FACILITY_CATEGORIES)}; several separated by commas",
    ),
}


def write_template(
    spec: ResourceSpec, out: Path, *, reference_values: Mapping[str, Sequence[str]] | None = None
) -> Path:
    """Write ``spec``'s template to ``out`` (.xlsx); ``reference_values`` maps input columns to
    the names the service knows (dropdowns)."""
    return write_templates([spec], out, reference_values={spec.name: reference_values or {}})


def write_templates(
    specs: Sequence[ResourceSpec],
    out: Path,
    *,
    reference_values: Mapping[str, Mapping[str, Sequence[str]]] | None = None,
) -> Path:
    """Write one workbook to ``out`` (.xlsx) with a sheet per resource of ``specs``, parents
    first, and one About sheet; ``reference_values`` maps a resource's input columns to the
    names the service knows (dropdowns), by resource."""
    out = out if out.suffix.lower() == ".xlsx" else out.with_suffix(".xlsx")
    out.parent.mkdir(parents=True, exist_ok=True)
    specs = in_dependency_order({spec.name: spec for spec in specs}.values())
    book = Workbook()
    first = book.active
    assert first is not None
    lists = book.create_sheet("Lists")
    book.remove(first)
    everything: dict[str, Mapping[str, Dropdown]] = {}
    for spec in specs:
        choices = _choices(spec, (reference_values or {}).get(spec.name, {}))
        _data_sheet(book.create_sheet(spec.name[:31], len(everything)), lists, spec, choices)
        everything[spec.name] = choices
    lists.sheet_state = "hidden"
    for spec in specs:
        _about(book, spec, everything[spec.name])
    book.save(out)
    return out


def _data_sheet(
    data: Worksheet, lists: Worksheet, spec: ResourceSpec, choices: Mapping[str, Dropdown]
) -> None:
    """The resource's header, with comments and dropdowns, on ``data``."""
    schema = spec.schema.to_schema()
    for index, name in enumerate(spec.columns, start=1):
        cell = data.cell(1, index, name)
        required = name in spec.required_columns
        cell.font = Font(bold=True)
        cell.fill = _REQUIRED_FILL if required else _HEADER_FILL
        description = schema.columns[name].description or ""
        cell.comment = Comment(
            ("Required. " if required else "Optional. ") + description, "emissions-etl"
        )
        data.column_dimensions[get_column_letter(index)].width = max(14, len(name) + 4)
        if name in choices:
            _add_dropdown(data, lists, index, name, choices[name])
    data.freeze_panes = "A2"


def _choices(spec: ResourceSpec, references: Mapping[str, Sequence[str]]) -> dict[str, Dropdown]:
    """Each column's dropdown: the schema's choices and booleans, the lists its checks name, a
    reference list's documented names; the service's names (``references``) over those."""
    found: dict[str, Dropdown] = {}
    schema = spec.schema.to_schema()
    for rule in column_rules(spec.schema):
        if rule.choices:
            found[rule.name] = Dropdown(tuple(str(choice) for choice in rule.choices))
        elif rule.kind == "boolean":
            found[rule.name] = Dropdown(_BOOLEAN_CHOICES)
        for check in schema.columns[rule.name].checks:
            if check.name in _CHECK_DROPDOWNS:
                found[rule.name] = _CHECK_DROPDOWNS[check.name]()
    for lookup in spec.lookups:
        if lookup.column in spec.columns and lookup.offline_names:
            found[lookup.column] = Dropdown(lookup.offline_names, closed=False)
    for column, names in references.items():
        if column in spec.columns and names:
            found[column] = Dropdown(tuple(sorted({str(name) for name in names})))
    return found


def _add_dropdown(
    data: Worksheet, lists: Worksheet, index: int, name: str, dropdown: Dropdown
) -> None:
    values = dropdown.values
    column = lists.max_column + 1 if lists.max_row > 1 or lists.cell(1, 1).value else 1
    lists.cell(1, column, name)
    for row, value in enumerate(values, start=2):
        lists.cell(row, column, value)
    letter = get_column_letter(column)
    source = f"={quote_sheetname(lists.title)}!${letter}$2:${letter}${len(values) + 1}"
    validation = DataValidation(type="list", formula1=source, allow_blank=True)
    if dropdown.closed:
        validation.error = f"Choose a value from the list for {name}."
    else:
        validation.errorStyle = "information"  # OK keeps the value typed
        validation.error = f"Not in the list for {name}: keep it if the About sheet accepts it."
    validation.errorTitle = name
    validation.showErrorMessage = True
    data.add_data_validation(validation)
    target = get_column_letter(index)
    validation.add(f"{target}2:{target}{TEMPLATE_ROWS}")


def _about(book: Workbook, spec: ResourceSpec, choices: Mapping[str, Dropdown]) -> None:
    schema = spec.schema.to_schema()
    # One About sheet, a section per resource of the workbook.
    about = book["About"] if "About" in book.sheetnames else book.create_sheet("About")
    if about.max_row > 1:
        about.append([])
    about.append([f"{spec.name}: {spec.description}"])
    about.cell(about.max_row, 1).font = Font(bold=True, size=13)
    about.append([f"Fill in the sheet {spec.name[:31]}, one row per record. Headers may be "
                  "renamed if they keep their words; title rows above them are fine."])  # fmt: skip
    if spec.depends_on:
        about.append(
            [f"Load after: {', '.join(spec.depends_on)} (their rows are this one's parents)."]
        )
    about.append([])
    about.append(["column", "required", "meaning", "accepted values", "example"])
    header_row = about.max_row
    for cell in about[about.max_row]:
        cell.font = Font(bold=True)
        cell.fill = _HEADER_FILL
    for rule in column_rules(spec.schema):
        column = schema.columns[rule.name]
        example = dict(column.metadata or {}).get("example", "")
        dropdown = choices.get(rule.name)
        accepted = (dropdown.accepted or ", ".join(dropdown.values[:12])) if dropdown else ""
        accepted = accepted or _kind_words(rule.kind)
        # "▸ name", never the bare name: no row here may read as a header of data to load.
        about.append([f"▸ {rule.name}", "yes" if rule.name in spec.required_columns else "",
                      column.description or "", accepted, example])  # fmt: skip
    # The example row is the "example" column above, not a row under the headers: a header row
    # here would make this sheet a second data sheet when the workbook is loaded.
    for letter, width in zip("ABCDE", (24, 10, 70, 40, 24), strict=True):
        about.column_dimensions[letter].width = width
    for row in about.iter_rows(min_row=header_row + 1):
        for cell in row:
            cell.alignment = Alignment(wrap_text=True, vertical="top")


def _kind_words(kind: str) -> str:
    return {
        "date": "a date: 2026-03-31, 31/03/2026 or an Excel date",
        "number": "a number: 12.5 or 12,5",
        "integer": "a whole number",
        "boolean": "yes / no",
        "weekdays": "Mon-Fri, 0,1,2,3,4 or Monday;Wednesday",
        "code": "a code (spaces ignored)",
    }.get(kind, "text")


def write_template_for(spec: ResourceSpec, out: Path, *, with_service: bool) -> Path:
    """The template, with the organization's reference lists when the service is configured."""
    return write_templates_for([spec], out, with_service=with_service)


def write_templates_for(specs: Sequence[ResourceSpec], out: Path, *, with_service: bool) -> Path:
    """One workbook with a sheet per resource, with the organization's reference lists when
    the service is configured."""
    values: dict[str, dict[str, list[str]]] = {spec.name: {} for spec in specs}
    if with_service:
        from emissions_etl.connection import open_client
        from emissions_etl.domain.references import fetch_references
        from emissions_etl.settings import Settings

        settings = Settings()
        if settings.api_url and settings.api_key and settings.organization_id:
            with open_client(settings) as client:
                for spec in specs:
                    lists = [ref for ref in spec.lookups if ref.column]
                    for table in fetch_references(client, lists).values():
                        values[spec.name][str(table.spec.column)] = table.known_names()
    return write_templates(specs, out, reference_values=values)


__all__ = [
    "TEMPLATE_ROWS",
    "write_template",
    "write_template_for",
    "write_templates",
    "write_templates_for",
]

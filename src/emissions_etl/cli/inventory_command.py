"""``emissions-etl inventory``: the GHG inventory as a file the sustainability team pastes into
its report, its years side by side; a filed inventory written again as it was filed; the
restatement against one; the records behind each line for an auditor (registered by
``cli/main.py``).

Imports nothing heavy at module level (the CLI imports this module on every start). Its exit
codes: ``exit_codes.COMMAND_EXITS``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from emissions_etl.cli.consolidation_option import ConsolidationOption
from emissions_etl.cli.coverage_options import WithEstimatesOption
from emissions_etl.cli.exit_codes import EXIT_FAILED, EXIT_UNUSABLE
from emissions_etl.cli.file_arguments import ANYWHERE
from emissions_etl.cli.options_object import options_command
from emissions_etl.cli.organization_options import InventoryOrganizationOption, OrganizationsOption
from emissions_etl.cli.quick_exit import fail_now, one_line
from emissions_etl.cli.warehouse_options import WarehouseOptions

if TYPE_CHECKING:
    from emissions_etl.inventory import Evidence, Inventory, Restatement
    from emissions_etl.storage import AnyPath
    from emissions_etl.warehouse import Warehouse

YearOption = Annotated[
    str | None,
    typer.Option(
        "--year", metavar="YEAR",
        help="Reporting year, by activity date; the table then shows the year before (and the "
        "base year) beside it, and the change (default: every year, one column).",
    ),
]  # fmt: skip
BaseYearOption = Annotated[
    str | None,
    typer.Option(
        "--base-year", metavar="YEAR", envvar="EMISSIONS_BASE_YEAR", show_envvar=True,
        help="The base year shown beside the reporting year (ESRS E1-6), with --year.",
    ),
]  # fmt: skip


OutOption = Annotated[
    str | None,
    typer.Option(
        "--out",
        help="File to write: .xlsx (sheets by scope and category, by month, by facility) or "
        f".csv (the ESRS E1-6 table by scope and category); replaced whole ({ANYWHERE}).",
    ),
]

FiledOption = Annotated[
    str | None,
    typer.Option(
        "--filed",
        metavar="ID",
        help="Write the inventory filed as ID (file-inventory) again, as it was filed: its "
        "year, base year, approach and organization, from what reproduces it.",
    ),
]

AgainstOption = Annotated[
    str | None,
    typer.Option(
        "--against",
        metavar="ID",
        help="Restate the inventory filed as ID: each line as filed and now, and the "
        "records added, removed or recalculated since (a sheet of the xlsx; beside a csv, "
        "NAME.changes.csv).",
    ),
]

EvidenceOption = Annotated[
    str | None,
    typer.Option(
        "--evidence",
        metavar="OUT.xlsx|OUT.csv",
        help="Also write, for each line, every record behind it with its row (file, sheet, "
        "row), the SHA-256 of the file it was loaded from and when it landed.",
    ),
]

SampleOption = Annotated[
    int | None,
    typer.Option("--sample", metavar="N", help="With --evidence: N records of each line."),
]

SeedOption = Annotated[
    int | None,
    typer.Option(
        "--seed",
        help="With --sample: the seed the records are drawn with (the same seed "
        "draws the same records; default: a new one, printed).",
    ),
]


@dataclass(frozen=True)
class InventoryCommand:
    """What ``emissions-etl inventory`` was given, in the order ``--help`` lists it (and its
    context: where ``--base-year`` came from)."""

    ctx: typer.Context
    out: OutOption = None
    year: YearOption = None
    base_year: BaseYearOption = None
    organization: InventoryOrganizationOption = None
    organizations: OrganizationsOption = None
    filed: FiledOption = None
    against: AgainstOption = None
    evidence: EvidenceOption = None
    sample: SampleOption = None
    seed: SeedOption = None
    warehouse: WarehouseOptions = WarehouseOptions()
    consolidation: ConsolidationOption = None
    with_estimates: WithEstimatesOption = False

    def targets(self) -> tuple[AnyPath | None, AnyPath | None]:
        """The inventory's file and the evidence's, each checked before anything is read;
        ValueError for options that do not go together."""
        from emissions_etl import storage
        from emissions_etl.inventory import check_target

        if self.out is None and self.evidence is None:
            raise ValueError("give --out FILE (the inventory), --evidence FILE, or both")
        out_at = storage.as_path(self.out) if self.out is not None else None
        evidence_at = storage.as_path(self.evidence) if self.evidence is not None else None
        for target, option in ((out_at, "--out"), (evidence_at, "--evidence")):
            if target is not None:
                check_target(target, option)
        if self.filed is not None and self.against is not None:
            raise ValueError("--filed writes a filed inventory, --against restates one: not both")
        if self.filed is not None and self.with_estimates:
            raise ValueError(
                "--filed writes a filed inventory as it was filed, with the "
                "estimates it was filed with: --with-estimates does not apply"
            )
        return out_at, evidence_at


@options_command(InventoryCommand)
def inventory_command(command: InventoryCommand) -> None:
    """Write the GHG inventory: Scope 1, Scope 2, Scope 3 by category and the total (ESRS E1-6)."""
    from pydantic import ValidationError

    from emissions_etl.errors import ConfigurationError, EmissionsEtlError, InputError

    said: list[str] = []
    try:
        said = _written(command)
    except (InputError, ConfigurationError, ValidationError, ValueError) as error:
        fail_now(one_line(error), EXIT_UNUSABLE)
    except OSError as error:
        fail_now(f"cannot write {error.filename or command.out}: {error.strerror or error}",
                 EXIT_UNUSABLE)  # fmt: skip
    except EmissionsEtlError as error:
        fail_now(one_line(error), EXIT_FAILED)
    for line in said:
        if line:
            typer.echo(line)


def _written(command: InventoryCommand) -> list[str]:
    """The inventory (and its restatement, and its evidence) written where ``command`` says;
    a line each of what was written."""
    from emissions_etl import storage
    from emissions_etl.cli.consolidation_option import consolidation_approach
    from emissions_etl.cli.inventory_summary import beside, evidence_written, written
    from emissions_etl.inventory import write_inventory_file

    out_at, evidence_at = command.targets()
    approach = consolidation_approach(command.consolidation)  # before the settings: names it
    source = command.warehouse.existing()
    inventory, restatement = _inventories(
        source, year=reading_year(command.year),
        base_year=base_year_of(command.ctx, command.base_year, command.year),
        organization=command.organization, organizations=command.organizations,
        filed=command.filed, against=command.against, approach=approach,
        with_estimates=command.with_estimates,
    )  # fmt: skip
    said: list[str] = []
    if out_at is not None:
        with storage.written(out_at) as local:
            write_inventory_file(inventory, local, warehouse=str(source.target),
                                 restatement=restatement)  # fmt: skip
        said += [written(out_at, inventory, str(source.target)), beside(inventory)]
    if restatement is not None:
        said += _restated(restatement, out_at)
    if evidence_at is not None:
        with storage.written(evidence_at) as local:
            found = _evidence(source, inventory, local, command.sample, command.seed)
        said += evidence_written(evidence_at, found)
    return said


def _restated(restatement: Restatement, out_at: AnyPath | None) -> list[str]:
    """The restatement's summary, and beside a csv the records changed and the estimates."""
    from emissions_etl import storage
    from emissions_etl.inventory import changes_path, write_changes_file

    said = [restatement.summary()]
    if out_at is not None and out_at.suffix.lower() == ".csv":
        with storage.written(changes_path(out_at)) as local:
            write_changes_file(restatement, local)
        said.append(f"{changes_path(out_at)}: the records changed since it was filed")
        said += _estimates_beside(restatement, out_at)
    return said


def _inventories(
    source: Warehouse,
    *,
    year: int | None,
    base_year: int | None,
    organization: str | None,
    organizations: Path | None,
    filed: str | None,
    against: str | None,
    approach: str,
    with_estimates: bool = False,
) -> tuple[Inventory, Restatement | None]:
    """The inventory to write (now, or as filed) and the restatement asked for."""
    from emissions_etl.cli.organization_options import organization_id
    from emissions_etl.inventory import (
        Estimates,
        filed_inventory,
        read_filed,
        read_inventory,
        restate_against,
    )

    if filed is not None:
        inventory = read_filed(source, filed)
        if year is not None and year != inventory.year:
            raise ValueError(f"--filed {filed} is the inventory of {inventory.year}, not {year}")
        return inventory, None
    named = organization_id(organization, organizations)
    if against is not None:
        was = filed_inventory(source, against)
        year = was.year if year is None else year
        named = was.organization if named is None else named
    inventory = read_inventory(
        source, approach=approach, year=year, organization=named, base_year=base_year,
        estimates=Estimates() if with_estimates else None,
    )  # fmt: skip
    restatement = restate_against(source, against, inventory) if against is not None else None
    return inventory, restatement


def _estimates_beside(restatement: Restatement, out: AnyPath) -> list[str]:
    """A csv restatement's estimates, beside it, when the filed inventory counted some."""
    from emissions_etl import storage
    from emissions_etl.inventory import estimates_path, write_estimates_file

    if restatement.filed.estimates_as_of is None:
        return []
    with storage.written(estimates_path(out)) as local:
        write_estimates_file(restatement, local)
    return [f"{estimates_path(out)}: the estimates it counted, and which real data replaced"]


def _evidence(
    source: Warehouse, inventory: Inventory, path: Path, sample: int | None, seed: int | None
) -> Evidence:
    """Write the records behind each line of ``inventory`` to ``path``; returns them."""
    import secrets

    from emissions_etl.cli.inventory_summary import scopes
    from emissions_etl.inventory import evidence, records_behind, write_evidence

    if seed is not None and sample is None:
        raise ValueError("--seed draws a sample: give --sample N too")
    drawn_with = seed if seed is not None else secrets.randbelow(1_000_000)
    found = evidence(inventory, records_behind(source, inventory), sample=sample, seed=drawn_with)
    when = str(inventory.year) if inventory.year is not None else "every year"
    facts = [
        ("warehouse", str(source.target)),
        ("inventory", f"{scopes(inventory)} ({inventory.approach}, {when})"),
        ("filed inventory", inventory.filed.described() if inventory.filed else ""),
        ("organization", inventory.organization or ""),
        ("landed_at", "when the row's version landed in the warehouse (UTC)"),
    ]
    write_evidence(found, path, facts=facts)
    return found


def base_year_of(ctx: typer.Context, base_year: str | None, year: str | None) -> int | None:
    """The base year given; None without a reporting year when it comes from
    EMISSIONS_BASE_YEAR (set for the reports of a year, it does not stop one of every year)."""
    source = ctx.get_parameter_source("base_year")
    # By name: typer's context and click's module may each have their own enum of sources.
    if year is None and getattr(source, "name", "") == "ENVIRONMENT":
        return None
    return reading_year(base_year, "--base-year")


def reading_year(text: str | None, option: str = "--year") -> int | None:
    """The year ``option`` gives (None when not given); ValueError for anything but a year."""
    if text is None or not str(text).strip():
        return None
    if not str(text).strip().isdigit() or not 1900 <= int(text) <= 2100:
        raise ValueError(f"{option} {text}: give a year such as 2026")
    return int(text)

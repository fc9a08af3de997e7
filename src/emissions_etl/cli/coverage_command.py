"""``emissions-etl coverage``: is the inventory complete? The matrix of what was expected (each
vehicle, facility with wastes and employee every month; travels, purchases and logistics at the
organization's level), what arrived and what is missing, and the gaps with their due dates and
estimates (registered by ``cli/main.py``).

Exit codes, for a scheduler to act on: 0 nothing overdue; 1 a gap is overdue; 2 an option, the
expectations file, the organization or the output name cannot be used; 3 the warehouse cannot
be read or written.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

import typer

from emissions_etl.cli.coverage_options import AsOfOption, DueDayOption, ExpectationsOption
from emissions_etl.cli.exit_codes import EXIT_FAILED, EXIT_REJECTS, EXIT_UNUSABLE
from emissions_etl.cli.file_arguments import ANYWHERE
from emissions_etl.cli.options_object import options_command
from emissions_etl.cli.organization_options import InventoryOrganizationOption, OrganizationsOption
from emissions_etl.cli.quick_exit import fail_now, one_line
from emissions_etl.cli.warehouse_options import WarehouseOptions

if TYPE_CHECKING:
    from emissions_etl.coverage import Coverage, CoverageRequest
    from emissions_etl.storage import AnyPath
    from emissions_etl.warehouse import Warehouse

#: Exit code of a run that finds a gap past its due date: done, with something to fix, as a
#: load with rejected rows ends.
EXIT_OVERDUE = EXIT_REJECTS


CoverageYearOption = Annotated[
    str | None,
    typer.Option("--year", metavar="YEAR", help="The reporting year (default: every year)."),
]
CoverageOutOption = Annotated[
    str | None,
    typer.Option(
        "--out",
        metavar="F.csv|F.xlsx",
        help="Also write every expected month: .csv (the view's columns) or .xlsx (those, "
        f"the matrix and what the marks mean); replaced whole ({ANYWHERE}).",
    ),
]


@dataclass(frozen=True)
class CoverageCommand:
    """What ``emissions-etl coverage`` was given, in the order ``--help`` lists it."""

    year: CoverageYearOption = None
    as_of: AsOfOption = None
    due_day: DueDayOption = None
    expectations: ExpectationsOption = None
    organization: InventoryOrganizationOption = None
    organizations: OrganizationsOption = None
    out: CoverageOutOption = None
    warehouse: WarehouseOptions = WarehouseOptions()

    def request(self) -> CoverageRequest:
        """What to read: the year, the day it is read as of, the due day, the organization
        and the expectations file."""
        from emissions_etl.cli.coverage_options import as_of_date
        from emissions_etl.cli.inventory_command import reading_year
        from emissions_etl.cli.organization_options import organization_id
        from emissions_etl.coverage import CoverageRequest

        return CoverageRequest(
            year=reading_year(self.year), as_of=as_of_date(self.as_of), due_day=self.due_day,
            organization=organization_id(self.organization, self.organizations),
            expectations=self.expectations,
        )  # fmt: skip

    def source(self) -> Warehouse:
        """The warehouse the options or the EMISSIONS_* settings name."""
        return self.warehouse.existing()


@options_command(CoverageCommand)
def coverage_command(command: CoverageCommand) -> None:
    """Check the inventory is complete: the months expected by entity, what is missing and
    overdue, and each gap's estimate. Exit 1 when a gap is overdue."""
    from pydantic import ValidationError

    from emissions_etl.cli.coverage_summary import print_coverage
    from emissions_etl.errors import ConfigurationError, EmissionsEtlError, InputError

    try:
        coverage, target = _read(command)
    except (InputError, ConfigurationError, ValidationError, ValueError) as error:
        fail_now(one_line(error), EXIT_UNUSABLE)
    except OSError as error:
        where = error.filename or command.out
        fail_now(f"cannot write {where}: {error.strerror or error}", EXIT_UNUSABLE)
    except EmissionsEtlError as error:
        fail_now(one_line(error), EXIT_FAILED)
    print_coverage(coverage, written=target)
    if not coverage.overdue.empty:
        raise typer.Exit(EXIT_OVERDUE)


def _read(command: CoverageCommand) -> tuple[Coverage, AnyPath | None]:
    """The coverage ``command`` asks for, written to its ``--out`` file if it names one; and
    where it was written."""
    from emissions_etl import storage
    from emissions_etl.coverage import read_coverage

    target = storage.as_path(command.out) if command.out is not None else None
    if target is not None:
        from emissions_etl.coverage.files import check_coverage_target

        check_coverage_target(target)
    request = command.request()
    coverage = read_coverage(command.source(), request)
    if target is not None:
        from emissions_etl.coverage.files import write_coverage_file

        with storage.written(target) as local:
            write_coverage_file(coverage, local)
    return coverage, target

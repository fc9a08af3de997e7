"""``emissions-etl validate``: files (or table sources) checked offline, their options made
into one typed object at the edge (``ValidateCommand``), each file's lines, the first rejects
and the rejects file (registered by ``cli.main``). Its exit codes: 0 every row valid, 1 rows
rejected, 2 a file, a sheet or an option cannot be used."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

import typer

from emissions_etl.cli.exit_codes import EXIT_REJECTS, EXIT_UNUSABLE
from emissions_etl.cli.file_arguments import ANYWHERE, output_path, plan_inputs
from emissions_etl.cli.file_options import (
    DefaultCountryOption,
    ProfileOption,
    RejectsOption,
    ResourceOption,
    SectorMapOption,
    SheetOption,
    SourceOption,
    warn_sheet_on_csv,
)
from emissions_etl.cli.options_object import options_command
from emissions_etl.cli.table_options import (
    AttachOption,
    FromSqlOption,
    KeyOption,
    SourcesOption,
    planned_tables,
)
from emissions_etl.cli.terminal import fail

if TYPE_CHECKING:
    import pandas as pd

    from emissions_etl.loading.file_plan import PlannedFile
    from emissions_etl.loading.options import LoadOptions
    from emissions_etl.loading.pipeline import ValidationSummary
    from emissions_etl.loading.table_loads import PlannedTable
    from emissions_etl.storage import AnyPath

FileArgument = Annotated[
    str | None,
    typer.Argument(help=f"xlsx or csv file to check, or a folder of them ({ANYWHERE})."),
]


@dataclass(frozen=True)
class ValidateCommand:
    """What ``emissions-etl validate`` was given, in the order ``--help`` lists it."""

    file: FileArgument = None
    resource: ResourceOption = None
    sheet: SheetOption = None
    rejects: RejectsOption = None
    profile: ProfileOption = None
    sector_map: SectorMapOption = None
    default_country: DefaultCountryOption = None
    source: SourceOption = None
    from_sql: FromSqlOption = None
    key: KeyOption = None
    attach: AttachOption = None
    sources: SourcesOption = None

    def tables(self) -> list[PlannedTable]:
        """The table sources the options name (none: the command checks files)."""
        from emissions_etl.cli.profiles_command import profile_resource

        return planned_tables(
            [self.file] if self.file else None, from_sql=self.from_sql,
            resource=self.resource or profile_resource(self.profile), key=self.key,
            attach=self.attach, source=self.source, sources=self.sources,
        )  # fmt: skip

    def load_options(self) -> LoadOptions:
        """How each file (or table source) is read and validated."""
        from emissions_etl.cli.profiles_command import profile_options
        from emissions_etl.loading.options import LoadOptions

        return LoadOptions(source=self.source, **profile_options(self.profile, self.sector_map,
                                                                 self.default_country))  # fmt: skip

    def planned(self) -> list[PlannedFile]:
        """The file (or the folder's files), and their sheets, to check."""
        from emissions_etl.cli.profiles_command import profile_resource

        if not self.file:
            raise ValueError("give a file or folder to check, or --from-sql QUERY")
        resource = self.resource or profile_resource(self.profile)
        planned = plan_inputs([self.file], resource, self.sheet, self.profile)
        warn_sheet_on_csv(planned, self.sheet)
        return planned


@options_command(ValidateCommand)
def validate_command(command: ValidateCommand) -> None:
    """Check a file offline: exit 0 when every row is valid, 1 when some are rejected, 2 when
    the file, or a sheet of it, cannot be used. A workbook is reported sheet by sheet; a folder
    file by file, as the nightly reads its inbox. With --from-sql (or --sources), the rows of
    a query, each named by its key."""
    from emissions_etl.cli.terminal import check_rejects_target, validate_tables
    from emissions_etl.errors import ConfigurationError, InputError

    try:
        target = output_path(command.rejects)
        check_rejects_target(target)
        tables = command.tables()
        options = command.load_options()
        if tables:
            validate_tables(tables, options, target)
            return
        planned = command.planned()
    except (InputError, ConfigurationError, ValueError) as error:
        raise fail(str(error), EXIT_UNUSABLE) from None
    unusable, rejects_by_file = _validate_planned(planned, options)
    _end_validation(unusable, rejects_by_file, target)


def _end_validation(
    unusable: list[str], rejects_by_file: dict[AnyPath | str, pd.DataFrame], target: AnyPath | None
) -> None:
    """The rejects file, the first rejects, a line for each file or sheet that could not be
    used, and the exit code: 2 for those, else 1 when a row was rejected."""
    import pandas as pd

    from emissions_etl.cli.terminal import print_rejects, write_rejects

    found = list(rejects_by_file.values())
    all_rejects = pd.concat(found, ignore_index=True) if found else None
    if target is not None and all_rejects is not None:
        write_rejects(rejects_by_file, target)
    if all_rejects is not None and not all_rejects.empty:
        print_rejects(all_rejects)
    for problem in unusable:
        fail(problem, EXIT_UNUSABLE)
    if unusable:
        raise typer.Exit(EXIT_UNUSABLE)
    if all_rejects is not None and not all_rejects.empty:
        raise typer.Exit(EXIT_REJECTS)


def _validate_planned(
    planned: Sequence[PlannedFile], options: LoadOptions
) -> tuple[list[str], dict[AnyPath | str, pd.DataFrame]]:
    """Each planned file validated (its progress drawn), its lines printed, file by file:
    the problems of what could not be used, one line each, and each file's rejects."""
    import pandas as pd

    from emissions_etl.cli.progress_display import shown_progress
    from emissions_etl.cli.terminal import err, print_validation, say
    from emissions_etl.errors import InputError
    from emissions_etl.loading.pipeline import validate_file
    from emissions_etl.loading.progress import PlannedTotals

    unusable: list[str] = []
    rejects_by_file: dict[AnyPath | str, pd.DataFrame] = {}
    with shown_progress(PlannedTotals(planned), err, say, sends=False) as progress:
        for path in dict.fromkeys(entry.path for entry in planned):
            entries = [entry for entry in planned if entry.path == path]
            results: dict[int, ValidationSummary] = {}
            problems = []
            for index, entry in enumerate(entries):
                if entry.spec is None:
                    continue
                try:
                    result = validate_file(path, spec=entry.spec, progress=progress(entry.label),
                                           options=options.for_sheets(entry.sheets))  # fmt: skip
                except (InputError, ValueError) as error:
                    problems.append(f"{entry.label}: {error}" if entry.shown_sheets else str(error))
                    continue
                if result.rows_read == 0:
                    problems.append(f"{entry.where}: no data rows under the header")
                else:
                    results[index] = result
            unusable += print_validation(entries, results) + problems
            if results:
                found = [result.rejects for result in results.values()]
                rejects_by_file[path] = pd.concat(found, ignore_index=True)
    return unusable, rejects_by_file

"""Which files of an inbox folder are loadable, which resource each holds, and in what order.

``inbox/<resource>/`` holds files of that resource; a file directly in the inbox is recognised
from its header, and a workbook there sheet by sheet (``file_plan``: "Centros", "Flota" and
"Viajes" of one workbook load as facilities, vehicles and business travels; its notes and
summary sheets are named as not loaded). A folder in a resource folder names a source:
``inbox/business_travels/agency/*.xlsx`` are versions of the data set ``agency`` (rows without
a key are identified by their content within it, whatever the file is called); a file directly
in a resource folder is a source of its own, named by the file. Parents load before children
(facilities before hubs and wastes, vehicles before consumptions, employees before commuting
periods), whatever order the files arrive in; versions of one source load in the order of their
names.
"""

from __future__ import annotations

from pathlib import Path

from emissions_etl.errors import InputError
from emissions_etl.loading.file_plan import PlannedFile, plan_file
from emissions_etl.resources import RESOURCES, ResourceSpec
from emissions_etl.sources import READ_SUFFIXES

#: The files picked up: workbooks (.xlsx, .xlsm, .xlsb, .xls, .ods), HTML tables (.htm, .html)
#: and csv (.csv, .txt, .tsv); each is then read as what its content is.
LOADABLE_SUFFIXES = READ_SUFFIXES

#: A file (or sheets of a workbook) of the inbox and the resource it holds; None with
#: ``problem`` when it is not loaded (the name it had before workbooks were read by sheet).
InboxFile = PlannedFile


def inbox_files(inbox: Path) -> list[Path]:
    """Loadable files directly in ``inbox``, by name; Excel lock files (``~$``) skipped."""
    return sorted(
        path
        for path in inbox.iterdir()
        if path.is_file()
        and path.suffix.lower() in LOADABLE_SUFFIXES
        and not path.name.startswith(("~$", "."))
    )


def resource_of_folder(path: Path) -> ResourceSpec | None:
    """The resource named by the file's folder (``inbox/vehicles/fleet.xlsx``) or by the folder
    above a source's (``inbox/vehicles/fleet-list/2026.xlsx``), if any."""
    return RESOURCES.get(path.parent.name) or RESOURCES.get(path.parent.parent.name)


def source_of_folder(path: Path) -> str | None:
    """The source a file's folder names (``inbox/business_travels/agency/v2.xlsx``: ``agency``),
    when the folder sits in a resource folder."""
    return path.parent.name if path.parent.parent.name in RESOURCES else None


def _visible(folder: Path) -> bool:
    return not folder.name.startswith((".", "_", "~"))


def plan_inbox(inbox: Path) -> list[PlannedFile]:
    """Every loadable file of ``inbox`` and of its resource folders, and every sheet of its
    workbooks, parents first (what is not loaded first of all, with why)."""
    found: list[PlannedFile] = []
    for path in inbox_files(inbox):
        found += _planned(path, None)
    for name, spec in RESOURCES.items():
        folder = inbox / name
        if folder.is_dir():
            for path in inbox_files(folder):
                found += _planned(path, spec)
            for source in sorted(p for p in folder.iterdir() if p.is_dir() and _visible(p)):
                for path in inbox_files(source):
                    found += _planned(path, spec)
    order = {name: index for index, name in enumerate(RESOURCES)}
    # Stable: a workbook's entries keep its order, a source's versions the order of their names.
    return sorted(
        found,
        key=lambda f: (order.get(f.spec.name, -1) if f.spec else -1, str(f.path)),
    )


def _planned(path: Path, spec: ResourceSpec | None) -> list[PlannedFile]:
    """The file's plan; a file that cannot be planned is one entry saying why (or, its
    resource named by its folder, given whole to its load, whose run records why)."""
    try:
        return plan_file(path, spec=spec)
    except InputError as error:
        if spec is not None:
            return [PlannedFile(path, spec)]
        return [PlannedFile(path, None, error.reason, error=type(error))]

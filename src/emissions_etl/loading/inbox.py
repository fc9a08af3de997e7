"""Which files of an inbox folder are loadable, which resource each holds, and in what order.

``inbox/<resource>/`` holds files of that resource; a file directly in the inbox is recognised
from its header. A folder in a resource folder names a source: ``inbox/business_travels/
agency/*.xlsx`` are versions of the data set ``agency`` (rows without a key are identified by
their content within it, whatever the file is called); a file directly in a resource folder is
a source of its own, named by the file. Parents load before children (facilities before hubs
and wastes, vehicles before consumptions, employees before commuting periods), whatever order
the files arrive in; versions of one source load in the order of their names.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from emissions_etl.errors import InputError
from emissions_etl.loading.detection import detect_resource
from emissions_etl.resources import RESOURCES, ResourceSpec

LOADABLE_SUFFIXES = (".xlsx", ".xlsm", ".csv", ".txt", ".tsv")


@dataclass(frozen=True)
class InboxFile:
    """A file to load and the resource it holds (None with ``problem`` when it fits none)."""

    path: Path
    spec: ResourceSpec | None
    problem: str = ""


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


def plan_inbox(inbox: Path) -> list[InboxFile]:
    """Every loadable file of ``inbox`` and of its resource folders, parents first."""
    found: list[InboxFile] = []
    for path in inbox_files(inbox):
        try:
            found.append(InboxFile(path, detect_resource(path)))
        except InputError as error:
            found.append(InboxFile(path, None, error.reason))
    for name, spec in RESOURCES.items():
        folder = inbox / name
        if folder.is_dir():
            found += [InboxFile(path, spec) for path in inbox_files(folder)]
            for source in sorted(p for p in folder.iterdir() if p.is_dir() and _visible(p)):
                found += [InboxFile(path, spec) for path in inbox_files(source)]
    order = {name: index for index, name in enumerate(RESOURCES)}
    return sorted(
        found,
        key=lambda f: (order.get(f.spec.name, -1) if f.spec else -1, str(f.path)),
    )

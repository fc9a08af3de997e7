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
names. The inbox may be a folder of an object store (``s3://bucket/inbox/``): its objects
are listed, planned and read as files are (``emissions_etl.storage``), their sources named by
their folders and names alike.
"""

from __future__ import annotations

from dataclasses import dataclass

from emissions_etl.errors import InputError
from emissions_etl.loading.file_plan import PlannedFile, plan_file
from emissions_etl.resources import RESOURCES, ResourceSpec
from emissions_etl.sources import READ_SUFFIXES
from emissions_etl.storage import AnyPath, folder_entries, stamped_entries

#: The files picked up: workbooks (.xlsx, .xlsm, .xlsb, .xls, .ods), HTML tables (.htm, .html)
#: and csv (.csv, .txt, .tsv); each is then read as what its content is.
LOADABLE_SUFFIXES = READ_SUFFIXES

#: A file (or sheets of a workbook) of the inbox and the resource it holds; None with
#: ``problem`` when it is not loaded (the name it had before workbooks were read by sheet).
InboxFile = PlannedFile


def inbox_files(inbox: AnyPath) -> list[AnyPath]:
    """Loadable files directly in ``inbox``, by name; Excel lock files (``~$``) skipped."""
    return _loadable(folder_entries(inbox)[0])


def _loadable(files: list[AnyPath]) -> list[AnyPath]:
    return sorted((path for path in files if _is_loadable(path)), key=str)


def _is_loadable(path: AnyPath) -> bool:
    return path.suffix.lower() in LOADABLE_SUFFIXES and not path.name.startswith(("~$", "."))


@dataclass(frozen=True)
class InboxEntry:
    """A loadable file of an inbox, as one listing shows it (nothing of it read)."""

    path: AnyPath
    #: Its size and modification (``storage.stamped_entries``): changes whenever its bytes do.
    stamp: str
    #: The resource its folder names, if any.
    spec: ResourceSpec | None


def inbox_entries(inbox: AnyPath) -> list[InboxEntry]:
    """Every loadable file of ``inbox``, of its resource folders and of their sources' folders,
    by name, with its stamp: what the nightly plans, from one listing per folder."""
    files, folders = stamped_entries(inbox)
    found = [InboxEntry(path, stamp, None) for path, stamp in files if _is_loadable(path)]
    for folder in folders:
        spec = RESOURCES.get(folder.name)
        if spec is not None:
            found += _resource_entries(folder, spec)
    return found


def inbox_entry(inbox: AnyPath, location: AnyPath, stamp: str) -> InboxEntry | None:
    """The file at ``location`` as ``inbox_entries`` would list it, or None when the nightly
    would not plan it (outside the inbox, deeper than a source's folder, hidden, of a
    suffix not read)."""
    prefix = str(inbox).rstrip("/") + "/"
    if not str(location).startswith(prefix) or not _is_loadable(location):
        return None
    folders = str(location)[len(prefix) :].split("/")[:-1]
    if not folders:
        return InboxEntry(location, stamp, None)
    spec = RESOURCES.get(folders[0])
    if spec is None or len(folders) > 2 or not all(map(_visible_name, folders[1:])):
        return None
    return InboxEntry(location, stamp, spec)


def _resource_entries(folder: AnyPath, spec: ResourceSpec) -> list[InboxEntry]:
    """The files of a resource folder and of its sources' folders, as ``spec``."""
    files, sources = stamped_entries(folder)
    found = [InboxEntry(path, stamp, spec) for path, stamp in files if _is_loadable(path)]
    for source in sorted((p for p in sources if _visible(p)), key=str):
        found += [InboxEntry(path, stamp, spec) for path, stamp in stamped_entries(source)[0]
                  if _is_loadable(path)]  # fmt: skip
    return found


def resource_of_folder(path: AnyPath) -> ResourceSpec | None:
    """The resource named by the file's folder (``inbox/vehicles/fleet.xlsx``) or by the folder
    above a source's (``inbox/vehicles/fleet-list/2026.xlsx``), if any."""
    return RESOURCES.get(path.parent.name) or RESOURCES.get(path.parent.parent.name)


def source_of_folder(path: AnyPath) -> str | None:
    """The source a file's folder names (``inbox/business_travels/agency/v2.xlsx``: ``agency``),
    when the folder sits in a resource folder."""
    return path.parent.name if path.parent.parent.name in RESOURCES else None


def _visible(folder: AnyPath) -> bool:
    return _visible_name(folder.name)


def _visible_name(name: str) -> bool:
    return not name.startswith((".", "_", "~"))


def plan_inbox(inbox: AnyPath) -> list[PlannedFile]:
    """Every loadable file of ``inbox`` and of its resource folders, and every sheet of its
    workbooks, parents first (what is not loaded first of all, with why)."""
    return _parents_first([p for e in inbox_entries(inbox) for p in _planned(e.path, e.spec)])


def plan_arrival(path: AnyPath, spec: ResourceSpec | None) -> list[PlannedFile]:
    """One file of an inbox planned as the nightly plans it: as ``spec``, the resource its
    folder names (``InboxEntry.spec``), or recognised from its header, sheet by sheet."""
    return _parents_first(_planned(path, spec))


def plan_folder(folder: AnyPath) -> list[PlannedFile]:
    """A folder given to ``load`` or ``validate``, planned as the nightly plans its inbox: an
    inbox, or one of its resource folders (``inbox/wastes``), or a source's folder in one
    (``inbox/business_travels/agency``)."""
    spec = RESOURCES.get(folder.name)
    if spec is not None:
        return _parents_first(_resource_folder(folder, spec))
    spec = RESOURCES.get(folder.parent.name)
    if spec is not None and _visible(folder):
        return _parents_first([p for path in inbox_files(folder) for p in _planned(path, spec)])
    return plan_inbox(folder)


def _resource_folder(folder: AnyPath, spec: ResourceSpec) -> list[PlannedFile]:
    """The files of a resource folder and of its sources' folders, as ``spec``."""
    return [p for entry in _resource_entries(folder, spec) for p in _planned(entry.path, spec)]


def _parents_first(found: list[PlannedFile]) -> list[PlannedFile]:
    order = {name: index for index, name in enumerate(RESOURCES)}
    # Stable: a workbook's entries keep its order, a source's versions the order of their names.
    return sorted(
        found,
        key=lambda f: (order.get(f.spec.name, -1) if f.spec else -1, str(f.path)),
    )


def _planned(path: AnyPath, spec: ResourceSpec | None) -> list[PlannedFile]:
    """The file's plan; a file that cannot be planned is one entry saying why (or, its
    resource named by its folder, given whole to its load, whose run records why)."""
    try:
        return plan_file(path, spec=spec)
    except InputError as error:
        if spec is not None:
            return [PlannedFile(path, spec)]
        return [PlannedFile(path, None, error.reason, error=type(error))]

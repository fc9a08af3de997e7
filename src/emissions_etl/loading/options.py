"""How one file is loaded: the options the CLI and the flows expose, the data set a file is a
version of, and the parameters its run records."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, is_dataclass, replace

from emissions_etl.json_values import JsonObject, JsonValue
from emissions_etl.loading.file_plan import SheetFate
from emissions_etl.loading.inbox import source_of_folder
from emissions_etl.profiles.inputs import ProfileInputs
from emissions_etl.storage import AnyPath

#: Called as work advances: (stage, rows just processed); stages "read", "sent", "calculated".
ProgressCallback = Callable[[str, int], None]


@dataclass(frozen=True)
class LoadOptions:
    """How to load one file; the same knobs the CLI and the flows expose."""

    sheet: str | None = None
    #: The sheets of a workbook to read, in this order, as one load (a workbook's plan gives
    #: each resource its sheets); empty: ``sheet``, else every sheet whose header fits.
    sheets: tuple[str, ...] = ()
    strict: bool = False
    dry_run: bool = False
    encoding: str | None = None
    delimiter: str | None = None
    #: Rows read, validated and sent together. Batches overlap (one is read while the jobs of
    #: the one before calculate), so small ones start sending sooner and hold less memory.
    batch_rows: int = 25_000
    #: Seconds to wait for records the service calculates later (the next run reads the rest).
    settle_seconds: float = 60.0
    #: Export profile the file is read through (``emissions-etl profiles``); None: the
    #: resource's own columns, else its profile whose required headers the file has.
    profile: str | None = None
    #: The user's tables and defaults profiles use; None: the EMISSIONS_* settings.
    profile_inputs: ProfileInputs | None = None
    #: The data set the file is a version of: rows without a key are identified by their
    #: content within it, and ``mirror`` deletes what it no longer has. None: the file's name.
    source: str | None = None
    #: The file is the whole truth for its source: the records of rows it no longer has are
    #: deleted (guarded: see ``loading.mirror``).
    mirror: bool = False
    #: Let a mirror delete more than ``MASS_DELETE_SHARE`` of the source's records.
    allow_mass_delete: bool = False
    #: Skip the file when its content is what its source last loaded (a file that arrived:
    #: ``loading.run_keys``); content loaded under another source is skipped either way.
    content_once: bool = False

    def for_sheets(self, sheets: tuple[str, ...]) -> LoadOptions:
        """These options reading ``sheets`` (the same options when none are given)."""
        return replace(self, sheets=sheets) if sheets else self


def source_name(path: AnyPath, options: LoadOptions) -> str:
    """The data set ``path`` is a version of: ``options.source``, else the source its folder
    names (``inbox/<resource>/<source>/``), else the file's name."""
    return options.source or source_of_folder(path) or path.name


def run_parameters(
    path: AnyPath, options: LoadOptions, workbook: Sequence[SheetFate]
) -> JsonObject:
    """The run's parameters: the options, and where each sheet of the workbook went."""
    parameters: JsonObject = {"path": str(path), **_option_values(options)}
    if workbook:
        parameters["workbook"] = [_json_value(fate.record()) for fate in workbook]
    return parameters


def _option_values(options: LoadOptions) -> JsonObject:
    """Every option as JSON, by name: a tuple as a list, the profile inputs as an object, a
    path as its text."""
    return {field.name: _json_value(getattr(options, field.name)) for field in fields(options)}


def _json_value(value: object) -> JsonValue:
    """``value`` as JSON: what ``json.dumps(asdict(...), default=str)`` writes of it."""
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, tuple | list):
        return [_json_value(item) for item in value]
    if isinstance(value, dict):
        return {str(name): _json_value(item) for name, item in value.items()}
    if is_dataclass(value) and not isinstance(value, type):
        return {field.name: _json_value(getattr(value, field.name)) for field in fields(value)}
    return str(value)

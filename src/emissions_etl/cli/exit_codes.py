"""How every ``emissions-etl`` command ends: the four exit codes, what each means, and what
each command means by it. Scripts depend on these (a public contract); the reference page
``docs/reference/exit-codes.md`` and each command's section of ``cli.md`` are generated from
here, and a command missing from ``COMMAND_EXITS`` fails the docs' check.

Imports nothing: the commands that start fast (``quick_exit``) read it too.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

EXIT_OK, EXIT_REJECTS, EXIT_UNUSABLE, EXIT_FAILED = 0, 1, 2, 3

#: What each code says, whichever command ends with it.
EXIT_CODES: Mapping[int, str] = MappingProxyType(
    {
        EXIT_OK: "Done.",
        EXIT_REJECTS: "Done, but some rows were rejected: the rejects say which cell and why.",
        EXIT_UNUSABLE: "A file, a sheet, an option or a setting cannot be used: nothing was "
        "done with it (the error line names it). Also a usage error: an unknown option, a "
        "missing argument.",
        EXIT_FAILED: "The service, the warehouse or Prefect failed: try again once it is back "
        "(the error line says what failed).",
    }
)

#: Command -> code -> when that command ends with it.
COMMAND_EXITS: Mapping[str, Mapping[int, str]] = MappingProxyType(
    {
        "validate": {
            EXIT_OK: "Every row of every file is valid.",
            EXIT_REJECTS: "Some rows are rejected (listed; --rejects writes them all).",
            EXIT_UNUSABLE: "A file, a sheet of it or an option cannot be used.",
        },
        "load": {
            EXIT_OK: "Every row loaded, or found unchanged in the service.",
            EXIT_REJECTS: "Some rows were rejected; the others loaded (with --strict, none).",
            EXIT_UNUSABLE: "A file, a sheet or a setting cannot be used, or a workbook's "
            "sheets cannot be told apart.",
            EXIT_FAILED: "The service or the warehouse failed.",
        },
        "resources": {EXIT_OK: "The resources were listed."},
        "template": {
            EXIT_OK: "The workbook was written.",
            EXIT_UNUSABLE: "A resource name is unknown, or the workbook cannot be written.",
            EXIT_FAILED: "The service failed while its lists were read for the dropdowns.",
        },
        "demo": {
            EXIT_OK: "The demo ran and printed what landed.",
            EXIT_UNUSABLE: "The inbox, the work folder or the approach cannot be used.",
            EXIT_FAILED: "The sandbox, the flow or the warehouse failed.",
        },
        "version": {EXIT_OK: "The version was printed."},
        "prefect-setup": {
            EXIT_OK: "The Prefect server is ready (and the deployments deployed).",
            EXIT_UNUSABLE: "A setting or the organizations file cannot be used, or no Prefect "
            "server answers at PREFECT_API_URL.",
            EXIT_FAILED: "The Prefect server or `prefect deploy` failed.",
        },
        "report": {
            EXIT_OK: "The page was written (also for a warehouse nothing is loaded in).",
            EXIT_UNUSABLE: "No warehouse is there, a setting cannot be used, the warehouse "
            "holds no inventory filed under --against, or the page cannot be written.",
            EXIT_FAILED: "The warehouse cannot be read (a load holds it, or it is not a "
            "DuckDB file).",
        },
        "inventory": {
            EXIT_OK: "The inventory was written (also for a warehouse nothing is loaded in).",
            EXIT_UNUSABLE: "An output name, the year, the approach or the organization (none "
            "named when the warehouse holds several, or one it holds no record of) cannot be "
            "used, the warehouse holds no inventory filed under that id, or the warehouse "
            "file cannot be used.",
            EXIT_FAILED: "The warehouse cannot be read (a load holds it, or it is not a DuckDB "
            "file), or a filed inventory can no longer be reproduced.",
        },
        "file-inventory": {
            EXIT_OK: "The inventory was filed; its id is the last line printed.",
            EXIT_UNUSABLE: "The year, the approach, the organization or the warehouse cannot be "
            "used, or the year has no record.",
            EXIT_FAILED: "The warehouse cannot be read or written.",
        },
        "coverage": {
            EXIT_OK: "Nothing expected is overdue (the matrix and the gaps were printed).",
            EXIT_REJECTS: "A gap is overdue: expected data past its due date is missing.",
            EXIT_UNUSABLE: "An option, the expectations file, the organization, the output name "
            "or the warehouse file cannot be used.",
            EXIT_FAILED: "The warehouse cannot be read or written.",
        },
        "profiles": {
            EXIT_OK: "The profiles, or the one named, were shown.",
            EXIT_UNUSABLE: "No profile has that name.",
        },
        "rebuild-warehouse": {
            EXIT_OK: "The warehouse was rebuilt from the service.",
            EXIT_UNUSABLE: "A setting cannot be used.",
            EXIT_FAILED: "The service or the warehouse failed.",
        },
        "maintain-warehouse": {
            EXIT_OK: "The upkeep was done (also when there was nothing to do).",
            EXIT_UNUSABLE: "No warehouse is there yet, or a setting cannot be used.",
            EXIT_FAILED: "The warehouse failed.",
        },
        "sql": {
            EXIT_OK: "The rows were printed.",
            EXIT_UNUSABLE: "The query or the warehouse cannot be used.",
            EXIT_FAILED: "DuckDB ran out of memory (the line names the setting to raise).",
        },
    }
)

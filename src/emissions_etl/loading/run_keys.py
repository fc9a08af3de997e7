"""A file's content is its run key (as a Dagster sensor's ``run_key``): the same content sent
twice is loaded once.

Rows without a key of their own are identified by their content within their source, the data
set a file is a version of (``domain.row_keys``): the same file under another name would be
another source, and every such row a second record. So, before a file is read, the runs its
content had (``load_runs.file_sha256``) decide:

- content loaded and settled under another source (every row loaded or rejected, none failed
  for the service) is **skipped**, saying where and when it was loaded;
- content whose runs under another source did not settle (the service failed some rows) loads
  **as that source**, so the rows it already landed are found again, never doubled;
- with ``LoadOptions.content_once`` (a file that arrived), content that is what its own source
  last loaded, and settled, is skipped too: a file copied again, an event delivered twice. The
  nightly loads its own files again each night (a reject may load once a reference exists).

A source given by the person (``--source``) is theirs: none of this applies.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePosixPath

from emissions_etl.errors import AlreadyLoadedError
from emissions_etl.warehouse import ContentRun

#: Outcomes after which a file's rows all stand loaded or rejected (``partial`` too, when no
#: row failed for the service).
SETTLED = ("succeeded", "rejected")


def settled(run: ContentRun) -> bool:
    """Every row of the run ended loaded or rejected: nothing is left to try again."""
    return run.outcome in SETTLED or (run.outcome == "partial" and run.rows_failed == 0)


def source_for_content(
    runs: Sequence[ContentRun], *, digest: str, name: str, once: bool = False
) -> str:
    """The data set a file of content ``digest`` loads as: ``name`` (its own), or the one its
    content was first loaded as; AlreadyLoadedError when it is not to be loaded again.
    ``runs``: those of its content or of ``name`` (``RunLog.content_runs``), oldest first."""
    of_content = [run for run in runs if run.file_sha256 == digest]
    if once:
        own = [run for run in runs if run.source_name == name]
        if own and own[-1].file_sha256 == digest and settled(own[-1]):
            raise _loaded(own[-1])
    if any(run.source_name == name for run in of_content):
        return name  # loaded as itself before: its rows are keyed as its own
    elsewhere = [run for run in of_content if settled(run)]
    if elsewhere:
        raise _loaded(elsewhere[-1])
    return of_content[0].source_name if of_content else name


def _loaded(run: ContentRun) -> AlreadyLoadedError:
    return AlreadyLoadedError(shown(run.source), run.started_at.date().isoformat())


def shown(source: str) -> str:
    """A file as the skip names it: its folder and its name (``wastes/residuos_enero.csv``)."""
    return "/".join(PurePosixPath(source.replace("\\", "/")).parts[-2:])

"""Flow ``load_wastes``: one waste spreadsheet or ERP export into the service and the warehouse."""

from __future__ import annotations

from prefect import flow

from emissions_etl.pipeline import LoadOptions
from flows._tasks import load_one_file, publish_artifacts


@flow(name="load_wastes")
def load_wastes(
    path: str,
    sheet: str | None = None,
    strict: bool = False,
    dry_run: bool = False,
) -> dict[str, int]:
    """Load the waste records of ``path`` (xlsx or csv); returns the run's row counts."""
    options = LoadOptions(sheet=sheet, strict=strict, dry_run=dry_run)
    summary = load_one_file(path, options)
    publish_artifacts([summary])
    return summary.counts()


if __name__ == "__main__":  # python -m flows.<name> ... from the project root
    import sys

    load_wastes(sys.argv[1])

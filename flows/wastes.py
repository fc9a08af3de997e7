"""Flow ``load_wastes``: one waste spreadsheet or ERP export, its deployment's own flow (name,
parameters and form), run as ``load_resource`` runs a file of wastes (``load_file_run``)."""

from __future__ import annotations

from prefect import flow
from prefect.states import State

from emissions_etl.loading.pipeline import LoadOptions
from emissions_etl.orchestration.run_names import file_run_name
from emissions_etl.orchestration.run_states import OUTAGE_RETRIES, OUTAGE_RETRY_SECONDS
from emissions_etl.orchestration.tasks import load_file_run


@flow(
    name="load_wastes",
    flow_run_name=file_run_name,
    retries=OUTAGE_RETRIES,  # only when the service was down
    retry_delay_seconds=OUTAGE_RETRY_SECONDS,
)
def load_wastes(
    path: str,
    sheet: str | None = None,
    strict: bool = False,
    dry_run: bool = False,
    source: str | None = None,
    mirror: bool = False,
    allow_mass_delete: bool = False,
    organization: str | None = None,
) -> State[None]:
    """Load the waste records of one file.

    Args:
        path: The xlsx or csv file, as the worker sees it (relative to the project folder).
        sheet: Only this sheet of a workbook (default: every sheet with a header).
        strict: Load nothing when any row is rejected.
        dry_run: Ask the service to validate only; write nothing.
        source: The data set the file is a version of (default: the file's name): rows
            without a key are identified by their content within it.
        mirror: The file is the whole truth for its source: delete the records of rows it no
            longer has (refused when rows are rejected or more than 20 % would go).
        allow_mass_delete: Let the mirror delete more than 20 % of the source's records.
        organization: Load for this organization (its key and id, from the variable
            emissions_organizations or EMISSIONS_ORGANIZATIONS). Default: the settings' one.
    """
    options = LoadOptions(sheet=sheet, strict=strict, dry_run=dry_run, source=source,
                          mirror=mirror, allow_mass_delete=allow_mass_delete)  # fmt: skip
    return load_file_run("wastes", path, options, organization)


if __name__ == "__main__":  # python -m emissions_etl_flows.wastes FILE, from any folder
    import sys

    load_wastes(sys.argv[1])

"""Flow ``nightly_load``: every file of the inbox, parents first, then each table source (the
worker's EMISSIONS_SOURCES file, else the variable emissions_sources), then one summary, what its
coverage is (what arrived, what is missing and overdue: a run that finds overdue data is tagged
``overdue``) and a true end state (Failed when a file failed or nothing loaded, Completed with
rejected or failed rows tagged ``partial``), in its turn on the warehouse. With organizations
configured, one run per organization (``organization_runs``)."""

from __future__ import annotations

from prefect import flow
from prefect.states import State

from emissions_etl.orchestration.flow_runs import (
    NightlyParameters,
    anything_loaded,
    organizations_of_the_night,
)
from emissions_etl.orchestration.organization_runs import run_each
from emissions_etl.orchestration.run_names import nightly_run_name
from emissions_etl.orchestration.run_states import (
    OUTAGE_RETRIES,
    OUTAGE_RETRY_SECONDS,
    retried_only_on_outage,
)
from emissions_etl.orchestration.table_sources import planned_sources
from emissions_etl.orchestration.tasks import (
    load_planned_file,
    plan,
    publish,
    publish_organizations,
    refresh_sums,
    sync_planned_source,
    warehouse_turn,
)


@flow(
    name="nightly_load",
    flow_run_name=nightly_run_name,
    retries=OUTAGE_RETRIES,  # only when the service was down for every file
    retry_delay_seconds=OUTAGE_RETRY_SECONDS,
)
def nightly_load(
    inbox: str | None = None,
    strict: bool = False,
    mirror: bool = False,
    allow_mass_delete: bool = False,
    organization: str | None = None,
) -> State[None]:
    """Load each file of the inbox; a file that fails does not stop the others.

    Args:
        inbox: Folder of files to load; `inbox/<resource>/` folders name their resource, and a
            folder inside one names a source (`inbox/business_travels/agency/`: versions of one
            data set); other files are recognised from their header, and workbooks sheet by
            sheet ("Centros", "Flota", "Viajes"...: each sheet to its resource, the sheets that
            fit none named). Default: EMISSIONS_INBOX on the worker, else the Prefect variable
            emissions_inbox.
        strict: Load nothing of a file when any of its rows is rejected.
        mirror: Each file is the whole truth for its source: delete the records of rows it no
            longer has (refused when rows are rejected or more than 20 % would go).
        allow_mass_delete: Let a mirror delete more than 20 % of a source's records.
        organization: Load this organization alone (its key, its inbox: `<inbox>/<name>/`
            unless it has its own). Default: when organizations are configured (the variable
            emissions_organizations, or EMISSIONS_ORGANIZATIONS on the worker), one run for each
            of them, at once on the pool; else the one organization of the settings.
    """
    parameters = NightlyParameters(inbox, strict, mirror, allow_mass_delete)
    with retried_only_on_outage():
        organizations = organizations_of_the_night(organization)
    if organizations:
        runs = run_each(organizations, parameters.as_flow_parameters(), nightly_load)
        return publish_organizations(runs)
    with retried_only_on_outage(), warehouse_turn(organization):
        night = plan(inbox, organization)
        outcomes = [load_planned_file(file, parameters, organization) for file in night]
        outcomes += [sync_planned_source(source, parameters, organization)
                     for source in planned_sources(organization)]  # fmt: skip
        if anything_loaded(outcomes):
            refresh_sums(organization, return_state=True)
        return publish(outcomes, organization, coverage=True)


if __name__ == "__main__":  # python -m emissions_etl_flows.nightly [INBOX], from any folder
    import sys

    final = nightly_load(sys.argv[1] if len(sys.argv) > 1 else None, return_state=True)
    sys.exit(0 if final.is_completed() else 1)

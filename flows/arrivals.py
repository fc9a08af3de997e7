"""Flows of arrivals: ``watch_inbox`` looks at the inbox (each organization's, when there are
some) and sends one event per file that arrived complete; the trigger of the deployment
``load-arrival`` (``prefect.yaml``) starts one ``load_arrival`` run per event, which loads that
file, in its turn on the warehouse, once per content."""

from __future__ import annotations

from prefect import flow, get_run_logger
from prefect.states import Completed, Failed, State

from emissions_etl.errors import EmissionsEtlError
from emissions_etl.loading.inbox import plan_arrival
from emissions_etl.orchestration.arrivals import look_at
from emissions_etl.orchestration.flow_runs import ArrivalParameters, anything_loaded
from emissions_etl.orchestration.organizations import (
    inbox_for,
    organization_names,
    settings_for,
)
from emissions_etl.orchestration.run_names import arrival_run_name
from emissions_etl.orchestration.run_states import (
    OUTAGE_RETRIES,
    OUTAGE_RETRY_SECONDS,
    retried_only_on_outage,
)
from emissions_etl.orchestration.tasks import (
    load_planned_file,
    publish,
    refresh_sums,
    warehouse_turn,
)
from emissions_etl.resources import resource_spec
from emissions_etl.scrubbing import scrub
from emissions_etl.storage import as_path


@flow(name="watch_inbox", flow_run_name="watch inbox", log_prints=False)
def watch_inbox(inbox: str | None = None) -> State[None]:
    """Look at the inbox and send a load for each file that arrived complete.

    A look lists the inbox (sizes and modification times, or an object store's ETags), reading
    no file; a file first seen is looked at again a few seconds later, and one still being
    written waits for the next look. With an SQS queue the inbox's bucket notifies
    (EMISSIONS_INBOX_QUEUE, or the variable emissions_inbox_queue), a look reads the queue
    instead of listing the inbox.

    Args:
        inbox: Folder to watch, as the nightly's (`<inbox>/<name>/` for each organization
            unless it has its own). Default: EMISSIONS_INBOX on the worker, else the Prefect
            variable emissions_inbox.
    """
    logger = get_run_logger()
    queue = settings_for(None, require=False).inbox_queue
    sent, failed = 0, []
    organizations: list[str | None] = [*organization_names()] or [None]
    for organization in organizations:  # an inbox that cannot be read leaves the others looked at
        try:
            where = inbox_for(inbox, organization)
            sent += len(look_at(where, organization, queue, say=logger.info).arrived)
        except EmissionsEtlError as error:
            logger.error("%s", error)
            failed.append(error)
    if failed:  # one line, as the other runs end: no traceback
        return Failed(message=scrub(f"{len(failed)} inbox(es) not looked at: {failed[0]}"))
    return Completed(message=f"{sent} file(s) arrived")


@flow(
    name="load_arrival",
    flow_run_name=arrival_run_name,
    retries=OUTAGE_RETRIES,  # only when the service was down
    retry_delay_seconds=OUTAGE_RETRY_SECONDS,
)
def load_arrival(path: str, resource: str = "", organization: str = "") -> State[None]:
    """Load one file that arrived in the inbox, as the nightly loads it; nothing when its
    content was loaded before (the run's log says as what, and when).

    Args:
        path: The file, as the watcher listed it.
        resource: The resource its folder names (empty: recognised from its header).
        organization: The organization whose inbox it is in (empty: the settings' one).
    """
    of = organization or None
    with retried_only_on_outage(), warehouse_turn(of):
        planned = plan_arrival(as_path(path), resource_spec(resource) if resource else None)
        outcomes = [load_planned_file(file, ArrivalParameters(), of) for file in planned]
        if anything_loaded(outcomes):
            refresh_sums(of, return_state=True)
        return publish(outcomes, of)


if __name__ == "__main__":  # python -m emissions_etl_flows.arrivals [INBOX]: one look
    import sys

    watch_inbox(sys.argv[1] if len(sys.argv) > 1 else None)

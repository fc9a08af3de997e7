"""How a flow run ends, in Prefect's own state names, so the UI's filters (which list only
those) find every run:

- **Completed**, its message the run's figures; a run with rejected or failed rows says
  ``partial: `` first and gets the tag ``partial`` (the UI filters runs by tag; an automation
  matches the message, since the server's events carry the tags a run had when it started);
- **Failed**, its message the figures and the first failed file's reason; not retried, since
  trying the same files again fails the same way;
- a nightly that finds **overdue** data (a gap of its coverage past its due date) gets the tag
  ``overdue`` and emits the event ``OVERDUE_EVENT``, whatever its state: an automation matches
  the event (``alerts``), whose payload says what is overdue;
- a **service outage** (every file failed on an error that passes: 5xx, 429, no connection)
  raises ``ServiceOutageError``: the flows' retries try the whole run again
  ``OUTAGE_RETRY_SECONDS`` later, ``OUTAGE_RETRIES`` times, and then it ends Failed; any
  other error raised out of a flow's body fails it at once (``retried_only_on_outage``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from emissions_etl.errors import EmissionsEtlError, ServiceOutageError
from emissions_etl.orchestration.run_report import RunVerdict
from emissions_etl.scrubbing import scrub

if TYPE_CHECKING:
    from prefect.client.schemas.objects import State

#: Tag of a run that completed with rejected or failed rows, and how its message begins.
PARTIAL_TAG = "partial"
PARTIAL_PREFIX = "partial: "
#: Tag of a run that found overdue gaps in the coverage, and the event it emits.
OVERDUE_TAG = "overdue"
OVERDUE_EVENT = "emissions-etl.coverage.overdue"
#: A run that found the service down is tried again this many times, this long apart.
OUTAGE_RETRIES = 2
OUTAGE_RETRY_SECONDS = 300


def end_state(run: RunVerdict) -> State[None]:
    """The Prefect state a flow returns for ``run`` (raises ServiceOutageError on an outage,
    for the flow's retries)."""
    from prefect.states import Completed, Failed

    message = scrub(run.message)  # kept by the server: no credential a library quoted
    if run.overdue:
        _tag_run(OVERDUE_TAG)
        _emit_overdue(run)
    if run.state == "failed":
        if run.outage:
            raise ServiceOutageError(f"the service looks down: {message}")
        _no_retry()
        return Failed(message=message)
    if run.state == "partial":
        _tag_run(PARTIAL_TAG)
        return Completed(message=PARTIAL_PREFIX + message)
    return Completed(message=message)


@contextmanager
def retried_only_on_outage() -> Iterator[None]:
    """Around a flow's body: an error raised out of it (no inbox, an unusable setting, a bug)
    fails the run at once, without the retries an outage gets."""
    try:
        yield
    except BaseException as error:
        if not (isinstance(error, EmissionsEtlError) and error.transient):
            _no_retry()
        raise


def _tag_run(tag: str) -> None:
    """Add ``tag`` to the current flow run before its end state (events carry the tags the run
    has when its state changes)."""
    from prefect.client.orchestration import get_client
    from prefect.runtime import flow_run

    if not flow_run.id:
        return
    with get_client(sync_client=True) as client:
        run = client.read_flow_run(flow_run.id)
        if tag not in run.tags:
            client.update_flow_run(run.id, tags=[*run.tags, tag])


def _emit_overdue(run: RunVerdict) -> None:
    """``OVERDUE_EVENT`` about this run's coverage (the run, its flow and deployment related,
    as Prefect relates an event emitted inside a run)."""
    from prefect.events import emit_event
    from prefect.runtime import flow_run

    emit_event(
        event=OVERDUE_EVENT,
        resource={
            "prefect.resource.id": f"emissions-etl.coverage.{flow_run.id or 'run'}",
            "prefect.resource.name": "coverage",
        },
        payload={"overdue": run.overdue, "message": scrub(run.late)},
    )


def _no_retry() -> None:
    """Spend the current run's remaining retries: Prefect retries any Failed end state of a
    flow with ``retries``, and only an outage is worth it."""
    from prefect.client.orchestration import get_client
    from prefect.runtime import flow_run

    if not flow_run.id:
        return
    with get_client(sync_client=True) as client:
        run = client.read_flow_run(flow_run.id)
        if run.empirical_policy.retries:
            policy = run.empirical_policy.model_copy(update={"retries": 0})
            client.update_flow_run(run.id, empirical_policy=policy)

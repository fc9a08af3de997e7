"""Names that say what runs: flow runs named after what they load, task runs after their file,
artifact keys after the deployment that made them (each keeps its own history in the UI).

Prefect calls the naming functions when a run starts and hands them nothing: they read the
run's parameters from ``prefect.runtime``. A name is a label, never an error: whatever cannot be
resolved yet (an inbox taken from a variable that is not set) is named as such.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sized
from pathlib import Path

from emissions_etl.errors import EmissionsEtlError


def nightly_run_name() -> str:
    """``nightly data/inbox`` (the inbox's folder and its parent, or its bucket in a store:
    ``nightly acme-emissions/inbox``), ``nightly acme-es inbox/acme-es`` for one organization's
    run, with ``strict`` and ``mirror`` when the run has them."""
    from prefect.runtime import flow_run

    from emissions_etl.orchestration.organizations import inbox_for

    parameters: Mapping[str, object] = dict(flow_run.parameters or {})
    try:
        inbox = inbox_for(_given(parameters, "inbox"), _given(parameters, "organization"))
        label = "/".join(part.strip("/") for part in inbox.parts[-2:] if part.strip("/"))
    except EmissionsEtlError:
        label = str(parameters.get("inbox") or "(no inbox set)")
    words = _organization(parameters, each=True)
    return " ".join(["nightly", *words, label, *_flags(parameters)])


def _organization(parameters: Mapping[str, object], *, each: bool = False) -> list[str]:
    """The organization a run loads for, or with ``each`` (a nightly, which starts one run per
    organization when there are some) how many they are."""
    if parameters.get("organization"):
        return [str(parameters["organization"])]
    if not each:
        return []
    from emissions_etl.orchestration.organizations import organization_names

    try:
        organizations = organization_names()
    except EmissionsEtlError:
        return []
    return [f"{len(organizations)} organizations"] if organizations else []


def file_run_name() -> str:
    """``wastes wastes_2026.xlsx`` (the resource and the file's name), with the sheet,
    ``strict``, ``mirror`` or ``dry run`` when the run has them."""
    from prefect.runtime import flow_run

    parameters: Mapping[str, object] = dict(flow_run.parameters or {})
    resource = str(parameters.get("resource") or "wastes")
    words = [resource, *_organization(parameters), Path(str(parameters.get("path") or "?")).name]
    if parameters.get("sheet"):
        words.append(f"[{parameters['sheet']}]")
    return " ".join([*words, *_flags(parameters)])


def arrival_run_name() -> str:
    """``arrival wastes/residuos_enero.csv`` (the file's folder and name), with the organization
    when the run loads for one: a run the watcher of arrivals sent, found by its file."""
    from prefect.runtime import flow_run

    from emissions_etl.loading.run_keys import shown

    parameters: Mapping[str, object] = dict(flow_run.parameters or {})
    return " ".join(["arrival", *_organization(parameters), shown(str(parameters.get("path")))])


def load_task_name() -> str:
    """``load wastes_2026.xlsx (wastes)``, ``load datos.xlsx sheet Flota (vehicles)``: a file's
    task run, found by its file (and its sheets, for a workbook's) in the UI."""
    from prefect.runtime import task_run

    from emissions_etl.loading.file_plan import file_label

    parameters: Mapping[str, object] = dict(task_run.parameters or {})
    sheets = tuple(getattr(parameters.get("options"), "sheets", ()) or ())
    workbook = parameters.get("workbook")
    whole = len(workbook if isinstance(workbook, Sized) else ()) <= len(sheets)  # every sheet
    label = file_label(Path(str(parameters.get("path") or "?")), () if whole else sheets)
    return f"load {label} ({parameters.get('resource')})"


def table_task_name() -> str:
    """``sync fuel_card (vehicle_consumptions)``: a table source's task run."""
    from prefect.runtime import task_run

    parameters: Mapping[str, object] = dict(task_run.parameters or {})
    return f"sync {parameters.get('name')} ({parameters.get('resource')})"


def artifact_key(kind: str, organization: str | None = None) -> str:
    """``emissions-<deployment>-<kind>`` (``emissions-nightly-summary``), with the organization
    a run loads for before the kind (``emissions-nightly-acme-es-summary``: each keeps its own
    history); a run made outside any deployment uses its flow's name
    (``emissions-nightly-load-summary``)."""
    from prefect.runtime import deployment, flow_run

    owner = deployment.name or flow_run.flow_name or "run"
    middle = f"{_slug(organization)}-" if organization else ""
    return f"emissions-{_slug(str(owner))}-{middle}{_slug(kind)}"


def _given(parameters: Mapping[str, object], name: str) -> str | None:
    """The parameter ``name`` as text (a folder, an organization), None when not given."""
    value = parameters.get(name)
    return None if value is None else str(value)


def _flags(parameters: Mapping[str, object]) -> list[str]:
    names = {"strict": "strict", "mirror": "mirror", "dry_run": "dry run"}
    return [f"({word})" for name, word in names.items() if parameters.get(name)]


def _slug(text: str) -> str:
    """Lower-case letters, digits and dashes: what an artifact key may hold."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "run"

"""Logistic hubs: one POST per hub, PUT (partial, interface: Logistic hubs) when its row changes.

A hub is keyed by its name, unique per organization in the service too (a taken name is 409
``HUB_NAME_TAKEN``, a reject at the name). An owned hub names its facility, resolved to
``facility_id`` among the organization's facilities; its co2e is that facility's
(``is_aggregate``).
"""

from __future__ import annotations

import pandas as pd

from emissions_etl.domain.references import References, unknown_rejects
from emissions_etl.domain.rejects import RejectCode, empty_rejects
from emissions_etl.resources._records import keep_origin, named
from emissions_etl.resources._references import FACILITIES
from emissions_etl.resources._spec import (
    Finding,
    Readback,
    ResourceSpec,
    SingleCreate,
    ViewColumn,
)
from emissions_etl_schemas.logistic_hubs import (
    INPUT_ALIASES,
    REQUIRED_INPUT_COLUMNS,
    LogisticHubInput,
)


def to_records(valid: pd.DataFrame, refs: References) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The facility of owned hubs as ``facility_id``; a facility the service does not know
    rejects its row."""
    headers: dict[str, str] = dict(valid.attrs.get("headers", {}))
    facility_ids = refs["facilities"].resolve(valid["facility"])
    unknown = (valid["facility"].notna() & facility_ids.isna()).to_numpy()
    rows = valid[~unknown]
    records = pd.DataFrame(
        {
            "name": rows["name"].str.strip(),
            "type": rows["type"],
            "category": rows["category"],
            "address": rows["address"],
            "country": rows["country"],
            "supercharger": rows["supercharger"],
            "facility_id": facility_ids[~unknown],
        }
    )
    rejects = unknown_rejects(
        valid[unknown],
        column="facility",
        headers=headers,
        table=refs["facilities"],
        code=RejectCode.UNKNOWN_FACILITY,
        hint=" If it is in a facilities file, that row did not load: fix it there first.",
    )
    return keep_origin(records, rows), pd.concat([empty_rejects(), rejects], ignore_index=True)


SPEC = ResourceSpec(
    name="logistic_hubs",
    description="Logistic hubs; co2e is their facility's (an aggregate of its wastes).",
    schema=LogisticHubInput,
    aliases=INPUT_ALIASES,
    required_columns=REQUIRED_INPUT_COLUMNS,
    natural_key=("name",),
    to_records=to_records,
    lookups=(FACILITIES,),
    write=SingleCreate(
        create_path="/v1/logistic-hubs", item_path="/v1/logistic-hubs/{id}", update_method="PUT"
    ),
    readback=Readback(
        facility_field="facility_id", get_path="/v1/logistic-hubs/{id}", is_aggregate=True
    ),
    # Found by name among every hub of the organization (one list a run).
    finding=Finding(
        list_path="/v1/logistic-hubs",
        query=lambda payload: {},
        match_fields=("name",),
        identity=named,
        key_of=named,
        # Left empty, a hub has no supercharger.
        compared_when_sent=("supercharger",),
    ),
    record_fields=(
        "name",
        "type",
        "category",
        "address",
        "country",
        "supercharger",
        "facility_id",
    ),  # fmt: skip
    depends_on=("facilities",),
    view_columns=(
        ViewColumn("name", meaning="The hub's name, unique in the organization."),
        ViewColumn(
            "type",
            meaning="owned (run by the organization, linked to a facility) or subcontracted.",
        ),
        ViewColumn(
            "category", meaning="Hub category (ISO 14083 hub types), e.g. warehouse_ambient."
        ),
        ViewColumn("address", meaning="Street address."),
        ViewColumn("country", meaning="ISO 3166-1 country code."),
        ViewColumn(
            "supercharger",
            "BOOLEAN",
            meaning="True when the hub has electric vehicle fast chargers.",
        ),
    ),
    input_column_of_field={
        "facility_id": "facility",
        "HUB_NAME_TAKEN": "name",
        "FACILITY_REQUIRED": "facility",
    },
)

__all__ = ["SPEC"]

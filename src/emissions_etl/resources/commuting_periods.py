"""Commuting periods: one POST per period (``/v1/employee-historic``), calculated in the request.

The employee is found by e-mail or name among the organization's employees (one not there is
``PARENT_NOT_LOADED``: its row of the employees file did not load). The interface has no update:
a changed row's period is deleted (``DELETE /v1/employee-historic/{id}``) and created again.
A killed run's periods are found among the employee's periods with the same dates, transport
and commuting type.
"""

from __future__ import annotations

import pandas as pd

from emissions_etl.domain.references import ReferenceList, References, unknown_rejects
from emissions_etl.domain.rejects import RejectCode, empty_rejects
from emissions_etl.resources._records import keep_origin, query_value
from emissions_etl.resources._spec import (
    Finding,
    Readback,
    ResourceSpec,
    SingleCreate,
    ViewColumn,
)
from emissions_etl.warehouse import CoverageEntity, CoverageRule, InventoryRule
from emissions_etl_schemas.commuting_periods import (
    INPUT_ALIASES,
    REQUIRED_INPUT_COLUMNS,
    CommutingPeriodInput,
)

EMPLOYEES = ReferenceList(
    "employees", "/v1/employees", keys=("email", "name"), label="employee", column="employee"
)
_PARENT_HINT = " If it is in an employees file, that row did not load: fix it there first."
#: Fields sent as the survey has them (the rest are resolved or converted).
_AS_READ = ("start_date", "end_date", "commuting_type", "transport_type", "total_km",
            "daily_trips", "vehicle_size", "fuel_type", "renewable_energy", "carpool",
            "situation", "response_medium", "origin", "destination")  # fmt: skip
#: GHG Protocol Scope 3 Standard, category 7 "Employee commuting": travel between home and work
#: (``in_itinere``; teleworking may be reported here too). Travel during work (``in_labore``, facts
#: §9.1) in vehicles the company neither owns nor operates is category 6 "Business travel".
COMMUTING_CATEGORY = (
    "CASE WHEN json_extract_string(record, '$.commuting_type') = 'in_labore' THEN 6 ELSE 7 END"
)


def prepare(typed: pd.DataFrame) -> pd.DataFrame:
    """A commute (``in_itinere``) when the commuting type is empty."""
    typed["commuting_type"] = typed["commuting_type"].fillna("in_itinere")
    typed["employee"] = typed["employee"].str.strip()
    return typed


def to_records(valid: pd.DataFrame, refs: References) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The employee's id; weekdays as a list of indices (0 is Monday)."""
    headers: dict[str, str] = dict(valid.attrs.get("headers", {}))
    employee_ids = refs["employees"].resolve(valid["employee"])
    unknown = employee_ids.isna().to_numpy()
    rows = valid[~unknown]
    records = pd.DataFrame({"employee_id": employee_ids[~unknown]})
    for name in _AS_READ:
        records[name] = rows[name]
    records["weekly_travels"] = rows["weekly_travels"].map(
        lambda days: [int(day) for day in days.split(",")], na_action="ignore"
    )
    rejects = unknown_rejects(valid[unknown], column="employee", headers=headers,
                              table=refs["employees"], code=RejectCode.PARENT_NOT_LOADED,
                              hint=_PARENT_HINT)  # fmt: skip
    return keep_origin(records, rows), pd.concat([empty_rejects(), rejects], ignore_index=True)


SPEC = ResourceSpec(
    name="commuting_periods",
    description="How an employee commutes over a period (scope 3 category 7).",
    schema=CommutingPeriodInput,
    aliases=INPUT_ALIASES,
    required_columns=REQUIRED_INPUT_COLUMNS,
    natural_key=(),
    prepare=prepare,
    to_records=to_records,
    lookups=(EMPLOYEES,),
    write=SingleCreate(
        create_path="/v1/employee-historic", delete_path="/v1/employee-historic/{id}"
    ),
    readback=Readback(
        activity_date_field="end_date",
        status_field=None,
        list_path="/v1/employee-historic",
        list_query=lambda record: {"employee_id": query_value(record["employee_id"])},
    ),
    finding=Finding(
        list_path="/v1/employee-historic",
        query=lambda payload: {"employee_id": query_value(payload["employee_id"])},
        match_fields=("start_date", "end_date", "transport_type", "commuting_type"),
        parent=("employees", "employee_id"),
        # Left empty, the service takes one trip a day and no carpool.
        compared_when_sent=("daily_trips", "carpool"),
    ),
    record_fields=(
        "employee_id",
        "start_date",
        "end_date",
        "commuting_type",
        "transport_type",
        "total_km",
        "weekly_travels",
        "daily_trips",
        "vehicle_size",
        "fuel_type",
        "renewable_energy",
        "carpool",
        "situation",
        "response_medium",
        "origin",
        "destination",
    ),  # fmt: skip
    date_fields=("start_date", "end_date"),
    depends_on=("employees",),
    view_columns=(
        ViewColumn(
            "employee_id", meaning="The service's id of the employee who commutes (employees)."
        ),
        ViewColumn("start_date", "DATE", meaning="First day of the period."),
        ViewColumn("end_date", "DATE", meaning="Last day of the period."),
        ViewColumn(
            "commuting_type", meaning="in_itinere (home to work) or in_labore (travel during work)."
        ),
        ViewColumn(
            "transport_type",
            meaning="car, bus, train, metro, tram, motorbike, bicycle, walking, telecommuting, "
            "electric_kick_scooter or trolleybus.",
        ),
        ViewColumn("total_km", "DOUBLE", meaning="Km of one trip."),
        ViewColumn(
            "weekly_travels",
            "JSON",
            meaning="The weekdays travelled, as a JSON list (0 is Monday).",
        ),
        ViewColumn("daily_trips", "INTEGER", meaning="Trips a day (2 for there and back)."),
        ViewColumn(
            "vehicle_size", meaning="Car or motorbike size: small, medium, large or average."
        ),
        ViewColumn(
            "fuel_type",
            meaning="Car or motorbike fuel: petrol, diesel, cng, lpg, unknown, "
            "plug_in_hybrid_electric or battery_electric.",
        ),
        ViewColumn("carpool", "BOOLEAN", meaning="True when the car is shared."),
    ),
    inventory=InventoryRule(scope="3", category=COMMUTING_CATEGORY),
    # Each employee not terminated (facts §9.1: situation) has periods covering every month; a
    # period covers its months, start to end. An employee is named by e-mail, else by name.
    coverage=CoverageRule(
        first_day="json_extract_string(record, '$.start_date')",
        entity=CoverageEntity(
            "employees",
            key="json_extract_string(record, '$.employee_id')",
            label="coalesce(json_extract_string(entity, '$.email'), "
            "json_extract_string(entity, '$.name'))",
            ended="json_extract_string(entity, '$.situation') = 'terminated'",
        ),
    ),
    input_column_of_field={"employee_id": "employee", "EMPLOYEE_NOT_FOUND": "employee"},
)

__all__ = ["SPEC"]

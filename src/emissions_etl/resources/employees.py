"""Employees: one POST per person, PATCH when the row changes.

A person is keyed by the e-mail when the row has one, else by the name (``employee``, the same
words commuting files use to name them; a person whose e-mail is added later gets a new key).
The employee record carries its commuting periods; its co2e is read as their sum
(``periods.co2e``, 0 without periods) and marked as an aggregate.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from emissions_etl.domain.references import References
from emissions_etl.domain.rejects import empty_rejects
from emissions_etl.domain.row_keys import key_text
from emissions_etl.json_values import JsonValue
from emissions_etl.resources._records import keep_origin
from emissions_etl.resources._spec import (
    Finding,
    Readback,
    ResourceSpec,
    SingleCreate,
    ViewColumn,
)
from emissions_etl_schemas.employees import INPUT_ALIASES, REQUIRED_INPUT_COLUMNS, EmployeeInput

#: The column ``prepare`` adds as the natural key: the e-mail, else the name.
KEY_COLUMN = "employee"


def prepare(typed: pd.DataFrame) -> pd.DataFrame:
    """``uploaded`` when the status is empty; the person's key (e-mail, else name)."""
    typed["status"] = typed["status"].fillna("uploaded")
    typed["email"] = typed["email"].str.strip()
    typed[KEY_COLUMN] = typed["email"].where(typed["email"].notna(), typed["name"])
    return typed


def person(record: Mapping[str, JsonValue]) -> tuple[str, str] | None:
    """Who an employee record or row is: its e-mail, else its name (``KEY_COLUMN``)."""
    if record.get("email"):
        return ("email", key_text(record["email"]))
    if record.get("name"):
        return ("name", key_text(record["name"]))
    return None


def to_records(valid: pd.DataFrame, refs: References) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Employees name nothing else: every valid row is a record."""
    records = pd.DataFrame(
        {
            "name": valid["name"].str.strip(),
            "email": valid["email"],
            "situation": valid["situation"],
            "status": valid["status"],
        }
    )
    return keep_origin(records, valid), empty_rejects()


SPEC = ResourceSpec(
    name="employees",
    description="Employees; co2e is the sum of their commuting periods' (an aggregate).",
    schema=EmployeeInput,
    aliases=INPUT_ALIASES,
    required_columns=REQUIRED_INPUT_COLUMNS,
    natural_key=(KEY_COLUMN,),
    prepare=prepare,
    to_records=to_records,
    write=SingleCreate(
        create_path="/v1/employees",
        item_path="/v1/employees/{id}",
        update_method="PATCH",
        delete_path="/v1/employees/{id}",
    ),
    # ``status`` (uploaded, loading) is the upload's, not a calculation's: nothing to settle.
    readback=Readback(
        co2e_field="periods.co2e",
        get_path="/v1/employees/{id}",
        unsettled=frozenset(),
        is_aggregate=True,
    ),
    # Found by e-mail, else by name, among every employee of the organization (one list a
    # run), as rows are keyed.
    finding=Finding(
        list_path="/v1/employees",
        query=lambda payload: {},
        match_fields=("email", "name"),
        identity=person,
        key_of=lambda record: key_text(record.get("email") or record.get("name") or "") or None,
    ),
    record_fields=("name", "email", "situation", "status"),
    view_columns=(
        ViewColumn("name", meaning="The employee's full name."),
        ViewColumn("email", meaning="The employee's work e-mail."),
        ViewColumn("situation", meaning="active, inactive or terminated."),
    ),
    input_column_of_field={"EMPLOYEE_NOT_FOUND": "email"},
)

__all__ = ["KEY_COLUMN", "SPEC"]

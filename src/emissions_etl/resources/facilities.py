"""Facilities: one POST per site, PUT (a partial update, facts §9.2) when its row changes.

A facility is keyed by its name, the name every other file (wastes, hubs) uses for it. Its co2e
is the sum of its wastes' (``is_aggregate``), read back from ``GET /v1/facilities/{id}``; every
load also refreshes the warehouse's ``facilities`` table, whose names label the reports.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import pandas as pd

from emissions_etl.domain.references import References
from emissions_etl.domain.rejects import empty_rejects
from emissions_etl.resources._records import keep_origin, named
from emissions_etl.resources._references import FACILITIES
from emissions_etl.resources._spec import (
    Finding,
    Readback,
    ResourceSpec,
    SingleCreate,
    ViewColumn,
)
from emissions_etl_schemas.facilities import (
    CATEGORY_WORDS,
    DEFAULT_LOGISTIC_FACTOR,
    INPUT_ALIASES,
    REQUIRED_INPUT_COLUMNS,
    FacilityInput,
)

_LIST_SEPARATORS = re.compile(r"\s*[,;/]\s*")


def prepare(typed: pd.DataFrame) -> pd.DataFrame:
    """Type in lower case, 0.8 for an empty logistic factor, categories in the service's words
    (``Electricidad; agua`` -> ``electricity,water``), CUPS codes separated by commas."""
    typed["type"] = typed["type"].str.strip().str.lower()
    typed["logistic_factor"] = typed["logistic_factor"].fillna(DEFAULT_LOGISTIC_FACTOR)
    typed["categories"] = listed(typed["categories"], CATEGORY_WORDS, lower=True)
    typed["cups_list"] = listed(typed["cups_list"], {})
    return typed


def listed(cells: pd.Series, words: Mapping[str, str], *, lower: bool = False) -> pd.Series:
    """Cells listing values separated by ``,`` ``;`` or ``/`` as ``a,b`` (synonyms replaced,
    repeats dropped, order kept); each distinct cell is read once."""

    def one(text: str) -> str:
        parts = [p.lower() if lower else p for p in _LIST_SEPARATORS.split(text.strip()) if p]
        return ",".join(dict.fromkeys(words.get(part, part) for part in parts))

    return cells.map({text: one(text) for text in cells.dropna().unique()}, na_action="ignore")


def _as_lists(cells: pd.Series) -> pd.Series:
    return cells.map(lambda text: text.split(","), na_action="ignore").astype(object)


def to_records(valid: pd.DataFrame, refs: References) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Facilities name nothing else: every valid row is a record."""
    records = pd.DataFrame(
        {
            "name": valid["name"].str.strip(),
            "type": valid["type"],
            "country": valid["country"],
            "address": valid["address"],
            "logistic_factor": valid["logistic_factor"].astype("float64"),
            "categories": _as_lists(valid["categories"]),
            "cups_list": _as_lists(valid["cups_list"]),
            "facility_purpose_type": valid["facility_purpose_type"],
        }
    )
    return keep_origin(records, valid), empty_rejects()


SPEC = ResourceSpec(
    name="facilities",
    description="Sites of the organization; co2e is the sum of their wastes' (an aggregate).",
    schema=FacilityInput,
    aliases=INPUT_ALIASES,
    required_columns=REQUIRED_INPUT_COLUMNS,
    natural_key=("name",),
    prepare=prepare,
    to_records=to_records,
    lookups=(FACILITIES,),
    # The organization's facilities, landed in the warehouse's ``facilities`` table at each load.
    directory=FACILITIES.directory,
    write=SingleCreate(
        create_path="/v1/facilities", item_path="/v1/facilities/{id}", update_method="PUT"
    ),
    readback=Readback(facility_field="id", get_path="/v1/facilities/{id}", is_aggregate=True),
    # Found by name among every facility of the organization (one list a run).
    finding=Finding(
        list_path="/v1/facilities",
        query=lambda payload: {},
        match_fields=("name",),
        identity=named,
        key_of=named,
    ),
    record_fields=(
        "name",
        "type",
        "country",
        "address",
        "logistic_factor",
        "categories",
        "cups_list",
        "facility_purpose_type",
    ),  # fmt: skip
    view_columns=(
        ViewColumn("name", meaning="The facility's name."),
        ViewColumn("type", meaning="The facility's type (office, warehouse, factory, ...)."),
        ViewColumn("country", meaning="ISO 3166-1 country code."),
        ViewColumn("address", meaning="Street address."),
        ViewColumn(
            "logistic_factor",
            "DOUBLE",
            meaning="Share of the facility's scope 2 that logistics reports count, 0 to 1.",
        ),
        ViewColumn(
            "categories",
            "JSON",
            meaning="Consumption categories enabled (JSON list: heat, electricity, water, "
            "recharge).",
        ),
        ViewColumn(
            "cups_list", "JSON", meaning="Electricity supply point (CUPS) codes (JSON list)."
        ),
        ViewColumn(
            "co2e_biomass_kg",
            "DOUBLE",
            "$.co2e_biomass",
            meaning="co2e of biomass in kg, reported apart.",
        ),
    ),
)

__all__ = ["SPEC", "listed"]

"""A record's fields as the resources' list queries and keys read them: JSON values narrowed to a
query's value or a key's text, a record that lacks them giving no key."""

from __future__ import annotations

from emissions_etl.resources._records import query_value, text_of
from emissions_etl.resources.logistics_recharges import recharge_key, same_plate_and_day
from emissions_etl.resources.vehicle_consumptions import custom_id


def test_a_scalar_field_is_its_own_query_value_and_anything_else_its_text() -> None:
    assert [query_value(v) for v in ("2026-01-05", 7, 2.5, True, None)] == [
        "2026-01-05", 7, 2.5, True, None
    ]  # fmt: skip
    assert query_value(["a", "b"]) == "['a', 'b']"


def test_a_missing_plate_is_left_for_the_client_to_leave_out() -> None:
    query = same_plate_and_day({"date": "2026-01-05"})

    assert query == {"vehicle_license_plate": None, "date_from": "2026-01-05",
                     "date_until": "2026-01-05"}  # fmt: skip


def test_a_key_is_text_or_none() -> None:
    assert (text_of("R-1"), text_of(12), text_of(None)) == ("R-1", "12", None)
    assert custom_id({"data": {"custom_id": "fleet#abc#1"}}) == "fleet#abc#1"
    assert custom_id({"data": None}) is None
    assert custom_id({}) is None


def test_a_recharge_without_a_number_for_its_quantity_has_no_key() -> None:
    record = {"country": "ES", "date": "2026-01-05", "vehicle_license_plate": "1234 ABC"}

    assert recharge_key({**record, "quantity": 40}) == "es|2026-01-05|40|1234 abc"
    assert recharge_key({**record, "quantity": "40.5"}) == "es|2026-01-05|40.5|1234 abc"
    assert recharge_key({**record, "quantity": None}) is None
    assert recharge_key({**record, "quantity": [40]}) is None


def test_every_time_column_a_record_sends_is_sent_as_a_day() -> None:
    """A payload holds JSON values: a time column the schema types as a datetime and the
    record sends must be one of its ``date_fields`` (written as ``YYYY-MM-DD``), or the payload
    would carry pandas' Timestamp, which the client's JSON encoder refuses."""
    from emissions_etl.resources import RESOURCES

    sent_as_timestamps = {
        (name, column)
        for name, spec in RESOURCES.items()
        for column, declared in spec.schema.to_schema().columns.items()
        if "datetime" in str(declared.dtype).lower()
        and column in spec.record_fields
        and column not in spec.date_fields
    }
    assert sent_as_timestamps == set()

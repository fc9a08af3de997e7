from __future__ import annotations

from emissions_etl.loading.idempotency import canonical_json, idempotency_key


def test_same_content_in_any_key_order_gives_the_same_key() -> None:
    first = idempotency_key("wastes", "create", [{"a": 1, "b": "x"}])
    second = idempotency_key("wastes", "create", [{"b": "x", "a": 1}])
    assert first == second


def test_different_content_gives_a_different_key() -> None:
    first = idempotency_key("wastes", "create", [{"a": 1}])
    second = idempotency_key("wastes", "create", [{"a": 2}])
    assert first != second


def test_operation_and_resource_are_part_of_the_key() -> None:
    payload = [{"id": "x"}]
    assert idempotency_key("wastes", "create", payload) != idempotency_key(
        "wastes", "delete", payload
    )
    assert idempotency_key("wastes", "create", payload).startswith("wastes-create-")


def test_canonical_json_has_no_whitespace() -> None:
    assert canonical_json({"b": 1, "a": [1, 2]}) == b'{"a":[1,2],"b":1}'

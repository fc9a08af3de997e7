"""The `/bulk` endpoints' loop (facts §4.3, §4.4): each record is validated and saved on its
own; a bad one is listed in `errors` and, unless `continue_on_error` is false, the rest go on."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from emissions_sandbox.errors import ServiceError
from emissions_sandbox.logistics.leg_calculation import LegError
from emissions_sandbox.logistics.models import BulkBody

Record = TypeVar("Record", bound=BaseModel)


def run_bulk(
    conn: sqlite3.Connection,
    body: BulkBody,
    model: type[Record],
    save: Callable[[Record], dict[str, Any]],
    key_of: Callable[[Record], str | None] = lambda record: None,
) -> dict[str, Any]:
    """`save` returns the record's essential fields; a record whose `key_of` repeats an earlier
    one of the same batch fails `DUPLICATE_IN_BATCH` (facts §4.3: in-batch duplicates)."""
    results: list[dict[str, Any]] = []
    errors: list[dict[str, Any]] = []
    seen: set[str] = set()
    processed = 0
    for index, raw in enumerate(body.records):
        processed += 1
        error: dict[str, Any] | None = None
        try:
            record = model.model_validate(raw)
            key = key_of(record)
            if key is not None and key in seen:
                error = {
                    "code": "DUPLICATE_IN_BATCH",
                    "detail": f"duplicate of an earlier record: {key}",
                }
            else:
                results.append({"index": index, **save(record)})
                if key is not None:
                    seen.add(key)
        except ValidationError as exc:
            details = exc.errors(include_url=False, include_context=False, include_input=False)
            error = {"code": "VALIDATION_ERROR", "detail": "invalid record", "errors": details}
        except LegError as exc:
            error = {"code": exc.code, "detail": exc.detail}
        except ServiceError as exc:
            error = {"code": exc.code or "ERROR", "detail": exc.detail}
        if error is not None:
            errors.append({"index": index, **error})
            if not body.options.continue_on_error:
                break
    return {
        "total_received": len(body.records),
        "total_processed": processed,
        "success": len(results),
        "failed": len(errors),
        "results": results,
        "errors": errors,
    }

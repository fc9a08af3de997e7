"""Find what a killed run created through v1 (which has no Idempotency-Key) and adopt it.

Before each chunk of v1 writes the payloads are marked pending. The next run lists candidate
records with each resource's narrowest query (by name, plate, e-mail, date, parent...) and adopts
a candidate whose declared fields equal the payload's and that no row maps to yet. Pending
updates need nothing: re-sending an update is harmless, and the old hash makes the next plan
send it again.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pandas as pd

from emissions_etl.loading.readback import (
    distinct_queries,
    fetch_concurrently,
    fill_path,
    remote_frame,
)
from emissions_etl.loading.writing._context import WriteContext


def recover_by_listing(context: WriteContext) -> int:
    """Adopt the records of pending creates found in the service; clears every pending mark.
    Returns how many were adopted."""
    spec, writer = context.spec, context.writer
    pending = writer.marks.pending(spec.name)
    if pending.empty:
        return 0
    creates = pending[pending["remote_id"].isna() & pending["payload"].notna()]
    creates = creates.drop_duplicates("source_key", keep="last")
    adopted = 0
    if spec.finding is not None and not creates.empty:
        recovery = spec.finding
        payloads = [json.loads(text) for text in creates["payload"]]
        lists = distinct_queries(  # the list path may name a parent: /v1/vehicles/{vehicle_id}/...
            {"path": fill_path(recovery.list_path, p), "params": dict(recovery.query(p))}
            for p in payloads
        )
        items = fetch_concurrently(
            lambda query: list(context.api.iter_items(query["path"], query["params"])), lists
        )
        claimed = set(
            writer.mappings.claimed_by_source(spec.name, [str(i.get("id")) for i in items])
        )
        matches: dict[str, tuple[str, str]] = {}  # remote_id -> (source_key, source_hash)
        for payload, key, source_hash in zip(
            payloads, creates["source_key"], creates["source_hash"], strict=True
        ):
            for item in items:
                remote_id = str(item.get("id"))
                if remote_id in claimed or remote_id in matches:
                    continue
                if all(
                    _same(payload.get(name), _lookup(item, recovery.item_paths.get(name, name)))
                    for name in recovery.match_fields
                    if name in payload or name not in recovery.compared_when_sent
                ):
                    matches[remote_id] = (str(key), str(source_hash))
                    break
        if matches:
            found = [item for item in items if str(item.get("id")) in matches]
            keys = {remote_id: key for remote_id, (key, _) in matches.items()}
            remote = remote_frame(found, spec, keys)
            mapping = pd.DataFrame(
                [(key, remote_id, h, None) for remote_id, (key, h) in matches.items()],
                columns=["source_key", "remote_id", "source_hash", "ingest_job_id"],
            )
            writer.mappings.upsert_mapping(spec.name, mapping, source_name=context.source_name)
            writer.records.land_remote_records(spec.name, remote)
            adopted = len(mapping)
    writer.marks.clear_pending(spec.name, pending["idempotency_key"].unique().tolist())
    return adopted


def _lookup(item: Mapping[str, Any], path: str) -> Any:
    value: Any = item
    for part in path.split("."):
        value = value.get(part) if isinstance(value, Mapping) else None
    return value


def _same(sent: Any, stored: Any) -> bool:
    """Equal as the service would store them: numbers by value, text trimmed, case-blind."""
    if sent is None or stored is None:
        return sent is None and stored in (None, "")
    if isinstance(sent, bool) or isinstance(stored, bool):
        return bool(sent) == bool(stored)
    if isinstance(sent, int | float) or isinstance(stored, int | float):
        try:
            return abs(float(sent) - float(stored)) <= 1e-9 * max(1.0, abs(float(sent)))
        except (TypeError, ValueError):
            return False
    if isinstance(sent, list) or isinstance(stored, list):
        return list(sent or []) == list(stored or [])
    return str(sent).strip().lower() == str(stored).strip().lower()

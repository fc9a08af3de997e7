"""Before writing, look for a new row's record among the records the service already holds.

The warehouse is a cache of what the service holds: a row it has no mapping for (a second
worker's empty warehouse, a lost file, records made in the service's own screens) is first
looked for in the service, by the resource's ``Finding``: by key (a name, a plate, an e-mail,
``client_row_id``), or by content for resources the service keeps no key of (a trip, a
purchase, a commuting period). A record found is adopted (mapped to the row), and updated
where it differs from the row; only rows with no record are created.

Candidates are read by list pages (a batch's date range, a parent's list, 100 keys a request),
never one GET per row. A record already mapped to a row is never adopted again, so the n-th
identical row takes the n-th identical record and two genuinely identical trips stay two.
A load into a service that held no record of the resource when it began looks for nothing.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import pandas as pd

from emissions_etl.client.json_types import QueryParams
from emissions_etl.json_values import JsonObject, JsonValue
from emissions_etl.loading.identity import pair_by_identity, same_record
from emissions_etl.loading.readback import (
    ListQuery,
    distinct_queries,
    fetch_concurrently,
    fill_path,
    remote_frame,
)
from emissions_etl.loading.writing._context import ChangePlan, WriteContext
from emissions_etl.loading.writing.payloads import to_payload
from emissions_etl.resources import Finding

#: Key values per list request when the list filters by many (query string well under 8 KB).
KEYS_PER_REQUEST = 100


@dataclass
class Reconciled:
    """A batch's plan once the service was asked, and what was found."""

    plan: ChangePlan
    #: Rows whose record the service held, now mapped to it (those that differed are updated).
    adopted: int = 0
    #: New rows whose content matches records mapped to rows of other sources only: created as
    #: records of their own, as two sources may hold the same activity; named to the user,
    #: since a file loaded under a new source name that is a version of another is the usual
    #: cause (``--source``).
    like_other_sources: dict[str, int] | None = None

    @property
    def notes(self) -> list[str]:
        """What the person loading should know (one line each)."""
        return [
            f"{rows} new row(s) are like records of source {other!r}: created as records of "
            f"their own; if this file is a version of {other!r}, load it with --source {other!r}"
            for other, rows in (self.like_other_sources or {}).items()
        ]


class Reconciler:
    """Finds the records of one resource's new rows in the service, for one load run."""

    def __init__(self, context: WriteContext, *, dry_run: bool = False) -> None:
        self.context = context
        self.dry_run = dry_run
        self._service_was_empty: bool | None = None
        self._listed: dict[str, list[JsonObject]] = {}

    @property
    def finding(self) -> Finding | None:
        finding = self.context.spec.finding
        if finding is None or finding.upserted_by_service:
            return None
        return finding

    def reconcile(self, plan: ChangePlan, unverified: Iterable[str] = ()) -> Reconciled:
        """``plan`` with its new rows that the service already holds taken out: mapped and
        counted unchanged when the record equals the row, moved to ``changed`` (with the
        record's id) when it differs. ``unverified``: records mapped with no row's hash (a
        rebuilt warehouse), compared with their rows as the warehouse holds them."""
        finding = self.finding
        plan = self._verify(plan, set(unverified))
        if finding is None or plan.new.empty or self._nothing_to_find(finding):
            return Reconciled(plan)
        ctx, new = self.context, plan.new
        payloads = to_payload(new, ctx.spec)
        items = self._candidates(finding, payloads)
        owners = ctx.writer.mappings.claimed_by_source(
            ctx.spec.name, [str(i.get("id")) for i in items]
        )
        free = [item for item in items if str(item.get("id")) not in owners]
        pairs = pair_by_identity(finding, payloads, free)
        others = _like_other_sources(finding, payloads, pairs, items, owners)
        if not pairs:
            return Reconciled(plan, like_other_sources=others)
        matched = sorted(pairs)
        differs = [
            position
            for position in matched
            if not same_record(ctx.spec.record_fields, finding, new.iloc[position], pairs[position])
        ]
        equal = [position for position in matched if position not in set(differs)]
        self._adopt(new.iloc[equal], [pairs[p] for p in equal])
        changed = new.iloc[differs].assign(remote_id=[str(pairs[p]["id"]) for p in differs])
        rest = new.drop(index=new.index[matched]).reset_index(drop=True)
        rest.attrs = new.attrs
        changed_all = pd.concat([plan.changed, changed], ignore_index=True)
        changed_all.attrs = new.attrs
        return Reconciled(
            ChangePlan(new=rest, changed=changed_all, unchanged=plan.unchanged + len(equal)),
            adopted=len(matched),
            like_other_sources=others,
        )

    def _verify(self, plan: ChangePlan, unverified: set[str]) -> ChangePlan:
        """Changed rows whose record was mapped without a hash: unchanged when the record
        the warehouse holds says what the row says (then mapped with the row's hash)."""
        finding = self.context.spec.finding
        if not unverified or plan.changed.empty or finding is None:
            return plan
        ctx, changed, fields = self.context, plan.changed, self.context.spec.record_fields
        held = ctx.writer.records.remote_payloads(ctx.spec.name, sorted(unverified))
        same = [
            position
            for position, remote_id in enumerate(changed["remote_id"].astype(str))
            if remote_id in held
            and same_record(fields, finding, changed.iloc[position], held[remote_id])
        ]
        if not same:
            return plan
        equal = changed.iloc[same]
        if not self.dry_run:
            mapping = equal[["source_key", "remote_id", "source_hash"]].assign(ingest_job_id=None)
            ctx.writer.mappings.upsert_mapping(ctx.spec.name, mapping, source_name=ctx.source_name)
        rest = changed.drop(index=changed.index[same]).reset_index(drop=True)
        rest.attrs = changed.attrs
        return ChangePlan(new=plan.new, changed=rest, unchanged=plan.unchanged + len(same))

    def _nothing_to_find(self, finding: Finding) -> bool:
        """True when the service held no record of the resource as the load began (one
        request, once a run): then no new row can have one but those this run creates."""
        if finding.parent is not None:
            return False  # listed per parent: no count for the whole resource
        if self._service_was_empty is None:
            answer = self.context.api.get_json(finding.list_path, {"page": 1, "size": 1})
            total = answer.get("total") if isinstance(answer, Mapping) else None
            self._service_was_empty = total == 0
        return self._service_was_empty

    def _candidates(
        self, finding: Finding, payloads: Sequence[Mapping[str, JsonValue]]
    ) -> list[JsonObject]:
        """The service's records that may be these rows', read by list pages."""
        api = self.context.api
        if finding.keys_param is not None:
            field = finding.match_fields[0]
            keys = sorted({str(p[field]) for p in payloads if p.get(field)})
            batches = [
                {finding.keys_param: keys[start : start + KEYS_PER_REQUEST]}
                for start in range(0, len(keys), KEYS_PER_REQUEST)
            ]
            return fetch_concurrently(
                lambda query: list(api.iter_items(finding.list_path, query)), batches
            )
        queries: list[tuple[str, QueryParams]]
        if finding.range_query is not None:
            queries = [
                (path, dict(finding.range_query(group)))
                for path, group in _by_path(finding.list_path, payloads).items()
            ]
        else:
            queries = [
                (query["path"], query["params"])
                for query in distinct_queries(
                    ListQuery(path=fill_path(finding.list_path, p), params=dict(finding.query(p)))
                    for p in payloads
                )
            ]
        return _unique(item for path, params in queries for item in self._listing(path, params))

    def _listing(self, path: str, params: QueryParams) -> list[JsonObject]:
        """Every item of one list, read once a run (a fleet's vehicles serve every batch)."""
        key = json.dumps([path, params], sort_keys=True, default=str)
        if key not in self._listed:
            self._listed[key] = list(self.context.api.iter_items(path, params))
        return self._listed[key]

    def _adopt(self, rows: pd.DataFrame, items: list[JsonObject]) -> None:
        """Map equal rows to their records and land the records (nothing on a dry run)."""
        if rows.empty or self.dry_run:
            return
        ctx = self.context
        keys = {
            str(item["id"]): str(key) for item, key in zip(items, rows["source_key"], strict=True)
        }
        mapping = pd.DataFrame(
            {
                "source_key": rows["source_key"].astype(str).to_numpy(),
                "remote_id": [str(item["id"]) for item in items],
                "source_hash": rows["source_hash"].astype(str).to_numpy(),
                "ingest_job_id": None,
            }
        )
        ctx.writer.mappings.upsert_mapping(ctx.spec.name, mapping, source_name=ctx.source_name)
        ctx.writer.records.land_remote_records(ctx.spec.name, remote_frame(items, ctx.spec, keys))


def _like_other_sources(
    finding: Finding,
    payloads: Sequence[Mapping[str, JsonValue]],
    pairs: Mapping[int, JsonObject],
    items: Sequence[JsonObject],
    owners: Mapping[str, str],
) -> dict[str, int] | None:
    """Unpaired rows whose identity a record of another source has, counted by that source."""
    claimed = [item for item in items if str(item.get("id")) in owners]
    unpaired = [p for position, p in enumerate(payloads) if position not in pairs]
    if not claimed or not unpaired:
        return None
    found = pair_by_identity(finding, unpaired, claimed)
    counts: dict[str, int] = defaultdict(int)
    for item in found.values():
        counts[owners[str(item.get("id"))] or "(unknown)"] += 1
    return dict(counts) or None


def _by_path(
    template: str, payloads: Sequence[Mapping[str, JsonValue]]
) -> dict[str, list[Mapping[str, JsonValue]]]:
    groups: dict[str, list[Mapping[str, JsonValue]]] = defaultdict(list)
    for payload in payloads:
        groups[fill_path(template, payload)].append(payload)
    return groups


def _unique(items: Iterable[JsonObject]) -> list[JsonObject]:
    seen: dict[str, JsonObject] = {}
    for item in items:
        seen.setdefault(str(item.get("id")), item)
    return list(seen.values())


__all__ = ["Reconciled", "Reconciler"]

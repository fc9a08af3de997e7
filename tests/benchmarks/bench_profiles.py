"""Benchmark of reading through an export profile: an SAP ME2N export (tab text, German labels,
decimal commas, material group -> sector table, plant -> country table) validated through the
``sap_purchases`` profile, against the same purchases written in the resource's own columns;
prints rows per second for both and the profile's share of the time (offline, no service).

    .venv/bin/python -m tests.benchmarks.bench_profiles             # 200,000 rows
    .venv/bin/python -m tests.benchmarks.bench_profiles --rows 50000
"""

from __future__ import annotations

import argparse
import csv
import random
import tempfile
import time
from pathlib import Path

from emissions_etl.loading.pipeline import LoadOptions, validate_file
from emissions_etl.profiles.apply import ProfileMapper
from emissions_etl.profiles.catalog import profile_named
from emissions_etl.profiles.inputs import ProfileInputs
from emissions_etl.resources import resource_spec
from emissions_etl.sources import read_source
from tests.benchmarks.results import write_results

GROUPS = {"ZIT01": "334111", "ZBUE01": "339940", "ZBER01": "541611", "ZFRA01": "484121",
          "ZTEL01": "517311", "ZREI01": "561720"}  # fmt: skip
PLANTS = ["1000", "1100", "1200", "1300"]
ME2N = ["Einkaufsbeleg", "Position", "Belegdatum", "Material", "Kurztext", "Warengruppe",
        "Werk", "Bestellmenge", "BME", "Nettopreis", "Nettobestellwert", "Währg",
        "Lieferant"]  # fmt: skip
OWN = ["product_name", "sector", "country", "quantity", "unit", "purchase_date", "expense_type",
       "description", "supplier_id", "client_row_id"]  # fmt: skip


def write_files(folder: Path, rows: int) -> tuple[Path, Path]:
    rng = random.Random(7)
    sap, own = folder / "ME2N.txt", folder / "purchases.csv"
    with (
        sap.open("w", encoding="cp1252", newline="") as sap_file,
        own.open("w", encoding="utf-8", newline="") as own_file,
    ):
        sap_out = csv.writer(sap_file, delimiter="\t", lineterminator="\r\n")
        own_out = csv.writer(own_file, lineterminator="\n")
        sap_out.writerow(ME2N)
        own_out.writerow(OWN)
        for n in range(rows):
            group = rng.choice(list(GROUPS))
            value = round(rng.uniform(20, 20_000), 2)
            day, month = rng.randint(1, 28), rng.randint(1, 12)
            text = f"Artikel {n % 977}"
            german = f"{value:,.2f}".replace(",", "_").replace(".", ",").replace("_", ".")
            sap_out.writerow([4500000000 + n // 3, (n % 3 + 1) * 10, f"{day:02d}.{month:02d}.2026",
                              "", text, group, rng.choice(PLANTS), "1,000", "LE", german, german,
                              "EUR", "0000104711"])  # fmt: skip
            key = f"{4500000000 + n // 3}-{(n % 3 + 1) * 10}"
            date = f"2026-{month:02d}-{day:02d}"
            own_out.writerow([text, GROUPS[group], "ES", value, "EUR", date, "opex", "",
                              "0000104711", key])  # fmt: skip
    return sap, own


def timed(path: Path, options: LoadOptions) -> tuple[float, int]:
    started = time.perf_counter()
    result = validate_file(path, spec=resource_spec("purchases"), options=options)
    return time.perf_counter() - started, result.rows_valid


def mapping_seconds(path: Path) -> float:
    """Seconds spent turning the ME2N batches into purchases' columns (read excluded)."""
    profile = profile_named("sap_purchases")
    mapper = ProfileMapper(profile, resource_spec("purchases"), ProfileInputs())
    batches = list(
        read_source(path, expected_columns=profile.source_keys, aliases=profile.aliases,
                    required_columns=profile.required)
    )  # fmt: skip
    started = time.perf_counter()
    for batch in batches:
        mapper.apply(batch)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=200_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        sap, own = write_files(Path(folder), args.rows)
        inputs = ProfileInputs()
        direct_seconds, direct_valid = timed(own, LoadOptions(profile_inputs=inputs))
        profile_seconds, profile_valid = timed(sap, LoadOptions(profile_inputs=inputs))
        mapping = mapping_seconds(sap)
    assert direct_valid == profile_valid == args.rows, (direct_valid, profile_valid)
    print(f"rows: {args.rows:,}")
    print(f"resource's own columns (csv): {direct_seconds:6.2f} s, "
          f"{args.rows / direct_seconds:10,.0f} rows/s")  # fmt: skip
    print(f"sap_purchases profile (ME2N): {profile_seconds:6.2f} s, "
          f"{args.rows / profile_seconds:10,.0f} rows/s")  # fmt: skip
    print(f"of which the profile's mapping: {mapping:6.2f} s "
          f"({mapping / profile_seconds:.0%} of the profile run)")  # fmt: skip
    print(f"profile overhead: {profile_seconds / direct_seconds - 1:+.0%}")
    write_results(
        "bench_profiles",
        {"own_columns_s": round(direct_seconds, 2),
         "own_columns_rows_per_s": round(args.rows / direct_seconds),
         "profile_s": round(profile_seconds, 2),
         "profile_rows_per_s": round(args.rows / profile_seconds),
         "profile_mapping_s": round(mapping, 2),
         "profile_overhead": round(profile_seconds / direct_seconds - 1, 3)},
        parameters={"rows": args.rows, "profile": "sap_purchases"},
    )  # fmt: skip


if __name__ == "__main__":
    main()

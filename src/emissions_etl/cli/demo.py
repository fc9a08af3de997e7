"""The demo: a sandbox on loopback, the nightly flow over the sample inbox, then a summary.

The sandbox runs as its own process (the pipeline never imports it) and the flow runs as a
separate process too, exactly as a scheduled deployment would: configured only through the
``EMISSIONS_*`` environment variables. Everything it needs is installed with the package (the
flows as ``emissions_etl_flows``, the sample inbox as ``emissions_etl_sample_inbox``), so it
runs from any folder and writes only to its output folder.
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.table import Table
from rich.text import Text

from emissions_etl.client import ApiKeyAuth, EmissionsClient
from emissions_etl.errors import ConfigurationError, EmissionsEtlError
from emissions_etl.json_values import JsonObject, JsonValue
from emissions_etl.warehouse import DEFAULT_APPROACH, Warehouse

DEMO_FACILITIES = (
    ("Madrid Warehouse", "warehouse"),
    ("Barcelona Plant", "factory"),
    ("Valencia Office", "office"),
    ("Sevilla Logistics Hub", "warehouse"),
)
#: The installed package whose data is the sample inbox (sample_data/inbox in a checkout).
SAMPLE_INBOX_PACKAGE = "emissions_etl_sample_inbox"
#: The file that says a folder is a demo's output, which the next demo may empty.
DEMO_MARKER = "sandbox.sqlite3"
#: The sample inbox is the first half of 2026: its coverage is read as of the day after, when
#: June has ended but is not due yet (10 July), whatever day the demo runs.
DEMO_AS_OF = dt.date(2026, 7, 1)
SANDBOX_START_TIMEOUT = 60.0
FLOW_TIMEOUT = 900.0
MAX_REJECTS_SHOWN = 10


@dataclass(frozen=True)
class DemoSandbox:
    """A running sandbox and the organization the demo loads into."""

    base_url: str
    ca_file: Path
    organization_id: str
    api_key: str


def _sandbox_command() -> str:
    local = Path(sys.executable).with_name("emissions-sandbox")
    return str(local) if local.exists() else "emissions-sandbox"


def _run_json(*args: str) -> JsonObject:
    """The JSON object an ``emissions-sandbox`` command prints (``create-org``: the
    organization's id and its admin's API key, among others)."""
    completed = subprocess.run(
        [_sandbox_command(), *args], check=True, capture_output=True, text=True
    )
    answer: JsonValue = json.loads(completed.stdout)
    if not isinstance(answer, dict):
        raise ConfigurationError(f"emissions-sandbox {args[0]} printed no JSON object")
    return answer


def _text(answer: JsonObject, key: str) -> str:
    """The text ``answer`` holds under ``key``; ConfigurationError when it holds none."""
    value = answer.get(key)
    if not isinstance(value, str):
        raise ConfigurationError(f"the sandbox's answer has no {key}")
    return value


@contextmanager
def running_sandbox(workdir: Path) -> Iterator[DemoSandbox]:
    """A fresh sandbox database with one organization, served over TLS until the block ends."""
    db = workdir / "sandbox.sqlite3"
    ca_file = workdir / "sandbox-ca.pem"
    subprocess.run([_sandbox_command(), "init", "--db", str(db)], check=True, capture_output=True)
    org = _run_json("create-org", "--db", str(db), "--name", "Demo Organization")
    organization_id, api_key = _text(org, "organization_id"), _text(org, "api_key")
    log = (workdir / "sandbox.log").open("w")
    process = subprocess.Popen(
        [_sandbox_command(), "serve", "--db", str(db), "--port", "0", "--ca-file", str(ca_file)],
        stdout=subprocess.PIPE,
        stderr=log,
        text=True,
    )
    try:
        assert process.stdout is not None
        base_url = process.stdout.readline().strip()
        if not base_url.startswith("https://"):
            raise ConfigurationError(f"the sandbox did not start; see {workdir / 'sandbox.log'}")
        yield DemoSandbox(base_url, ca_file, organization_id, api_key)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


def create_facilities(sandbox: DemoSandbox) -> None:
    """The facilities the sample spreadsheets name, created through the API."""
    auth = ApiKeyAuth(sandbox.api_key, sandbox.organization_id)
    with EmissionsClient(sandbox.base_url, auth, ca_file=sandbox.ca_file) as client:
        for name, kind in DEMO_FACILITIES:
            client.create_facility(name=name, type=kind, country="ES")


def sample_inbox() -> Path:
    """The sample inbox installed with the package (in a checkout, ``sample_data/inbox``)."""
    spec = importlib.util.find_spec(SAMPLE_INBOX_PACKAGE)
    # A folder of data, not of modules: a namespace package, whose locations the editable
    # install of a checkout adds a hook of its own to.
    folders = [Path(f) for f in (spec.submodule_search_locations or [])] if spec else []
    for folder in folders:
        if folder.is_dir():
            return folder
    raise ConfigurationError(
        f"the sample inbox is not installed ({SAMPLE_INBOX_PACKAGE}): reinstall emissions-etl, "
        "or give --inbox a folder"
    )


def run_nightly_flow(sandbox: DemoSandbox, inbox: Path, warehouse: Path, log_path: Path) -> None:
    """``python -m emissions_etl_flows.nightly INBOX`` (the installed flows) with the sandbox's
    settings in its environment."""
    env = {
        **os.environ,
        "EMISSIONS_API_URL": sandbox.base_url,
        "EMISSIONS_API_KEY": sandbox.api_key,
        "EMISSIONS_ORGANIZATION_ID": sandbox.organization_id,
        "EMISSIONS_CA_FILE": str(sandbox.ca_file),
        "EMISSIONS_WAREHOUSE": str(warehouse),
        "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": os.environ.get(
            "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "180"
        ),
    }
    with log_path.open("w") as log:
        subprocess.run(
            [sys.executable, "-m", "emissions_etl_flows.nightly", str(inbox)],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            timeout=FLOW_TIMEOUT,
            check=False,
        )
    # The flow ends Failed or Partial when files or rows are refused on purpose (the samples
    # hold mistakes): the summary below says what happened, whatever the exit code.


def run_demo(
    *,
    workdir: Path,
    inbox: Path | None = None,
    console: Console,
    consolidation: str = DEFAULT_APPROACH,
) -> None:
    """Everything the README's first command does, step by step, with a summary at the end (the
    GHG inventory under the ``consolidation`` approach): the files of ``inbox`` (default: the
    sample inbox) loaded, and everything written to ``workdir``, emptied first."""
    inbox = sample_inbox() if inbox is None else inbox
    if not inbox.is_dir():
        raise ConfigurationError(f"no inbox folder at {inbox}: give --inbox a folder")
    empty_output_folder(workdir)
    warehouse_path = workdir / "warehouse.duckdb"
    with (
        console.status("starting the sandbox (TLS on loopback)"),
        running_sandbox(workdir) as sandbox,
    ):
        console.print(f"sandbox at {sandbox.base_url}")
        if not (inbox / "facilities").is_dir():  # an inbox without a facilities file
            create_facilities(sandbox)
            console.print(f"created {len(DEMO_FACILITIES)} facilities")
        with console.status("running the nightly_load flow (Prefect) over " + str(inbox)):
            run_nightly_flow(sandbox, inbox, warehouse_path, workdir / "flow.log")
    if not warehouse_path.exists():
        tail = (workdir / "flow.log").read_text(errors="replace").strip().splitlines()[-5:]
        raise EmissionsEtlError(
            f"the nightly flow wrote no warehouse; last lines of {workdir / 'flow.log'}:\n"
            + "\n".join(tail)
        )
    print_warehouse_summary(Warehouse(warehouse_path), console, consolidation=consolidation)
    console.print(Text.assemble("\nwarehouse: ", (str(warehouse_path), "bold"),
                                f"  (flow log: {workdir / 'flow.log'})"))  # fmt: skip
    from emissions_etl.report import write_report  # plotly loads only here

    report = write_report(
        Warehouse(warehouse_path), workdir / "report.html", consolidation=consolidation,
        as_of=DEMO_AS_OF,
    )  # fmt: skip
    console.print(Text.assemble("report: ", (str(report.path), "bold"),
                                "  (open it in a browser; it needs no network)"))  # fmt: skip


def empty_output_folder(workdir: Path) -> None:
    """``workdir`` made, or emptied when it is empty or a previous demo's output (it holds the
    demo's sandbox); ConfigurationError when it holds other files (``--out .`` deletes none)."""
    if workdir.is_dir() and any(workdir.iterdir()) and not (workdir / DEMO_MARKER).is_file():
        raise ConfigurationError(
            f"{workdir} holds files of its own, not a demo's output: give --out a new or empty "
            "folder"
        )
    if workdir.is_dir():
        shutil.rmtree(workdir)
    elif workdir.exists():
        raise ConfigurationError(f"{workdir} is a file: give --out a folder")
    workdir.mkdir(parents=True)


def print_warehouse_summary(
    warehouse: Warehouse, console: Console, *, consolidation: str = DEFAULT_APPROACH
) -> None:
    """Runs, rejects, co2e by month and facility, and the GHG inventory, from the warehouse."""
    import pandas as pd

    from emissions_etl.loading.figures import CO2E_COLUMNS, ROW_COLUMNS, count, kg

    runs = warehouse.query(
        "SELECT r.source, r.outcome, r.rows_read, r.rows_rejected, r.rows_unchanged, "
        "r.rows_loaded, r.rows_failed, "
        "CASE WHEN r.resource IN (SELECT resource FROM resource_catalog WHERE is_aggregate) "
        "THEN NULL ELSE r.co2e_kg END AS co2e_kg FROM load_runs AS r "
        "ORDER BY r.started_at"
    )
    table = Table("file", "outcome", *ROW_COLUMNS, CO2E_COLUMNS[0], title="Load runs")
    for run in runs.to_dict("records"):
        co2e = None if pd.isna(run["co2e_kg"]) else float(run["co2e_kg"])
        table.add_row(
            Path(str(run["source"])).name,
            str(run["outcome"]),
            *(count(int(run[name])) for name in ("rows_read", "rows_rejected", "rows_unchanged",
                                                 "rows_loaded", "rows_failed")),
            kg(co2e),
        )  # fmt: skip
    console.print(table)
    rejects = warehouse.query(
        'SELECT file, sheet, "row", "column", value, code, message FROM rejects_latest'
    )
    console.print(Text.assemble("\n", ("Rejected cells", "bold"),
                                f": {len(rejects)} (all in the view rejects_latest)"))  # fmt: skip
    for reject in rejects.head(MAX_REJECTS_SHOWN).to_dict("records"):
        sheet = f" sheet {reject['sheet']}" if reject["sheet"] else ""
        console.print(
            f"  {reject['file']}{sheet} row {reject['row']}, {reject['column']} "
            f"= {reject['value']!r} [{reject['code']}] {reject['message']}",
            soft_wrap=True,
            highlight=False,
            markup=False,
        )
    if len(rejects) > MAX_REJECTS_SHOWN:
        console.print(f"  ... and {len(rejects) - MAX_REJECTS_SHOWN} more\n")
    rows = warehouse.query(CO2E_BY_RESOURCE_MONTH_FACILITY)
    note = "kg co2e of activity records; sums such as a vehicle's total are left out"
    for by, title in (("month", "by resource and month"), ("facility", "by resource and facility")):
        pivot = rows.pivot_table(
            index="resource", columns=by, values="co2e_kg", aggfunc="sum", fill_value=0.0
        )
        every = "every month" if by == "month" else "every facility"
        table = Table("resource", *map(str, pivot.columns), every, title=f"co2e {title} ({note})")
        for resource, values in pivot.iterrows():
            table.add_row(str(resource), *(f"{v:,.1f}" for v in values), f"{values.sum():,.1f}")
        console.print(table)
    activity = float(rows["co2e_kg"].sum()) if not rows.empty else 0.0
    console.print(
        f"all activity co2e in the service now: {activity:,.1f} kg (in the GHG inventory or "
        "not: its total is below)"
    )
    print_inventory_totals(warehouse, console, consolidation=consolidation)
    print_coverage(warehouse, console)


def print_coverage(warehouse: Warehouse, console: Console, *, as_of: dt.date = DEMO_AS_OF) -> None:
    """The coverage of the sample's year as of ``as_of``: by resource, and the first gaps."""
    from emissions_etl.cli.coverage_summary import print_by_resource
    from emissions_etl.coverage import CoverageRequest, last_ended_year, read_coverage

    year = last_ended_year(as_of)
    coverage = read_coverage(warehouse, CoverageRequest(year=year, as_of=as_of))
    console.print()
    print_by_resource(coverage, console)


def print_inventory_totals(
    warehouse: Warehouse, console: Console, *, consolidation: str = DEFAULT_APPROACH
) -> None:
    """The GHG inventory's totals by scope (ESRS E1-6 lines), in tonnes with one decimal."""
    from emissions_etl.inventory import read_inventory

    inventory = read_inventory(warehouse, approach=consolidation)
    table = Table(
        "line", "t co2e", "records",
        title=f"GHG inventory by scope ({consolidation.replace('_', ' ')}; view ghg_inventory)",
    )  # fmt: skip
    for line in inventory.lines.to_dict("records"):
        if line["kind"] in ("scope_2_market", "total_market"):
            continue  # the service's electricity factors are location-based: nothing to print
        indent = "  " if line["kind"] == "scope_3_category" else ""
        table.add_row(
            f"{indent}{line['line']}", f"{line['co2e_t']:,.1f}", f"{int(line['records']):,}"
        )
    console.print(table)
    console.print(
        Text.assemble(
            f"total GHG emissions ({consolidation.replace('_', ' ')}, location-based): ",
            (f"{inventory.total_kg / 1000:,.1f} t co2e", "bold"),
            f"; all activity co2e {inventory.activity_kg / 1000:,.1f} t (the lines after the "
            "total are not in it)",
        )
    )


CO2E_BY_RESOURCE_MONTH_FACILITY = """
    SELECT resource,
           coalesce(strftime(activity_date, '%Y-%m'), '-') AS month,
           coalesce(facility_name, facility_id, '-') AS facility,
           count(*) AS records,
           round(sum(coalesce(co2e_kg, 0)), 3) AS co2e_kg
    FROM emissions
    WHERE NOT is_aggregate
    GROUP BY ALL
    ORDER BY resource, month, facility
"""

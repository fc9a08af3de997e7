"""The page of what the project keeps on a Prefect server: the work pool, the deployments of
``flows/prefect.yaml`` (their flows' parameters read from the flow functions, without importing
Prefect), the Secret blocks, the variables, the global concurrency limits and the automations
``emissions-etl prefect-setup`` writes."""

from __future__ import annotations

import ast
import inspect
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from emissions_etl.client import prefect_limits
from emissions_etl.connection import resource_limits
from emissions_etl.orchestration import alerts, warehouse_turns
from emissions_etl.orchestration.arrivals import LEDGER_BLOCK, InboxArrivals
from emissions_etl.orchestration.config import SECRET_BLOCK, VARIABLES
from emissions_etl.orchestration.organizations import KEY_BLOCK_PREFIX, ORGANIZATIONS_VARIABLE
from emissions_etl.orchestration.run_states import (
    OVERDUE_EVENT,
    OVERDUE_TAG,
    PARTIAL_PREFIX,
    PARTIAL_TAG,
)
from emissions_etl.orchestration.setup import POOL, WORKER_COMMAND
from emissions_etl.orchestration.steps import FLOWS_PACKAGE, MARKER
from emissions_etl.orchestration.table_sources import PASSWORD_BLOCK_PREFIX, SOURCES_VARIABLE
from emissions_etl.settings import Settings

from .command_line import Undeclared
from .markdown import code, link, page, paragraphs, table, text

VARIABLES_PAGE = "variables.md"
_ON_DEMAND = "none (run it from the UI, or with `prefect deployment run`)"


@dataclass(frozen=True)
class FlowParameter:
    name: str
    annotation: str
    default: str | None
    description: str


@dataclass(frozen=True)
class Flow:
    """A flow function as its source declares it."""

    name: str
    description: str
    parameters: tuple[FlowParameter, ...]


def deployment_holders() -> dict[str, str]:
    """Variable -> what holds it on the Prefect server for deployments, in Markdown."""
    held = {
        f"EMISSIONS_{field.upper()}": "the Prefect variable "
        + link(code(name), "prefect.md", "Variables")
        for field, name in VARIABLES.items()
    }
    held["EMISSIONS_API_KEY"] = (
        f"the Secret block {link(code(SECRET_BLOCK), 'prefect.md', 'Secret blocks')}"
    )
    held["EMISSIONS_ORGANIZATIONS"] = (
        f"the Prefect variable {link(code(ORGANIZATIONS_VARIABLE), 'prefect.md', 'Variables')} "
        "(the organizations, without their keys) and their Secret blocks"
    )
    held["EMISSIONS_SOURCES"] = (
        f"the Prefect variable {link(code(SOURCES_VARIABLE), 'prefect.md', 'Variables')} "
        "(the table sources, without passwords) and their Secret blocks"
    )
    return held


def prefect_page(project: Path) -> str:
    """The page, from ``project``'s ``flows/prefect.yaml`` and the constants prefect-setup uses."""
    declaration = yaml.safe_load((project / MARKER).read_text(encoding="utf-8"))
    return page(
        "Prefect deployments, blocks and variables",
        "What `emissions-etl prefect-setup` writes on the Prefect server in `PREFECT_API_URL` "
        "(it may be run again at will: a value not given leaves the server's as it is), and "
        "what the deployments read there when a run starts. The worker's `EMISSIONS_*` "
        f"variables win over the server's. Generated from `{MARKER}`, the flow functions and "
        "`emissions_etl.orchestration`.",
        [
            _pool(),
            _deployments(project, declaration),
            _blocks(),
            _variables(),
            _limits(),
            _automations(),
        ],
    )


def _pool() -> str:
    return (
        f"## Work pool\n\nThe process work pool {code(POOL)}, which every deployment runs on. "
        f"Start a worker from any folder of a machine where emissions-etl is installed: "
        f"{code(WORKER_COMMAND)}. The deployments name their flows by module path, so a worker "
        "needs no checkout. Each run first decides the folder it starts in and takes relative "
        "paths from (the pull step `emissions_etl.orchestration.steps.set_project_directory`): "
        "`EMISSIONS_PROJECT_DIR` (any folder), else the run's working directory when it holds "
        "the flows, else the checkout emissions-etl is installed from, else the folder the work "
        "pool gives the run (refused when that is a temporary folder and the warehouse a "
        "relative path); it logs the version and the folders the run imports emissions-etl "
        "from."
    )


def _deployments(project: Path, declaration: Mapping[str, Any]) -> str:
    parts = ["## Deployments"]
    for deployment in declaration.get("deployments", []):
        entrypoint = str(deployment["entrypoint"])
        flow = read_flow(*flow_source(project, entrypoint))
        schedules = [_schedule(s) for s in deployment.get("schedules") or []]
        given = deployment.get("parameters") or {}
        rows = [
            [code(p.name), code(p.annotation), code(p.default) if p.default is not None else "",
             code(_yaml_value(given[p.name])) if p.name in given else "", text(p.description)]
            for p in flow.parameters
        ]  # fmt: skip
        unknown = set(given) - {p.name for p in flow.parameters}
        if unknown:
            raise Undeclared(f"{MARKER}: {deployment['name']} sets parameters its flow does "
                             f"not take: {sorted(unknown)}")  # fmt: skip
        pool = str((deployment.get("work_pool") or {}).get("name", POOL))
        facts = [
            f"- **Flow**: {code(flow.name)} ({code(entrypoint)})",
            f"- **Schedule**: {'; '.join(schedules) if schedules else _ON_DEMAND}",
            *[f"- **Trigger**: {_trigger(trigger)}" for trigger in deployment.get("triggers", [])],
            f"- **Work pool**: {code(pool)}",
        ]
        parts += [
            f"### {deployment['name']}",
            text(" ".join(str(deployment.get("description", "")).split())),
            "\n".join(facts),
            paragraphs(flow.description),
            table(["Parameter", "Type", "Default", "Set by the deployment", "What it does"], rows),
        ]
    return "\n\n".join(parts)


def flow_source(project: Path, entrypoint: str) -> tuple[Path, str]:
    """The file of ``project`` and the function a deployment's entrypoint names: a module path
    of the installed flows (``emissions_etl_flows.nightly.nightly_load``, installed from
    ``flows/``), or a file's path and function (``flows/nightly.py:nightly_load``)."""
    if ":" in entrypoint:
        file, _, function = entrypoint.partition(":")
        return project / file, function
    module, _, function = entrypoint.rpartition(".")
    package, _, inside = module.partition(".")
    if package != FLOWS_PACKAGE or not inside:
        raise Undeclared(f"{MARKER}: {entrypoint} is not a flow of {FLOWS_PACKAGE}")
    return project / MARKER.parent / Path(*inside.split(".")).with_suffix(".py"), function


def read_flow(path: Path, function: str) -> Flow:
    """The flow ``function`` of ``path``: its name (``@flow(name=...)``), its docstring's
    summary and each parameter with its type, default and ``Args:`` line."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == function]
    if not found:
        raise Undeclared(f"{path}: no flow function {function}")
    node = found[0]
    name = function
    for decorator in node.decorator_list:
        if isinstance(decorator, ast.Call):
            for keyword in decorator.keywords:
                if keyword.arg == "name" and isinstance(keyword.value, ast.Constant):
                    name = str(keyword.value.value)
    docstring = inspect.cleandoc(ast.get_docstring(node) or "")
    summary, described = _docstring(docstring)
    arguments = node.args.args
    defaults = [None] * (len(arguments) - len(node.args.defaults)) + list(node.args.defaults)
    parameters = []
    for argument, default in zip(arguments, defaults, strict=True):
        if argument.arg not in described:
            raise Undeclared(f"{path}: {function}'s parameter {argument.arg} is not in its Args:")
        parameters.append(
            FlowParameter(
                argument.arg,
                ast.unparse(argument.annotation) if argument.annotation else "",
                ast.unparse(default) if default is not None else None,
                described[argument.arg],
            )
        )
    return Flow(name, summary, tuple(parameters))


def _docstring(docstring: str) -> tuple[str, dict[str, str]]:
    """A Google-style docstring's text before ``Args:``, and each argument's description."""
    summary, _, args = docstring.partition("\nArgs:\n")
    described: dict[str, str] = {}
    current = None
    for line in args.splitlines():
        match = re.match(r"\s{4}(\w+):\s*(.*)", line)
        if match and not line.startswith(" " * 5):
            current = match.group(1)
            described[current] = match.group(2)
        elif current and line.strip():
            described[current] += " " + line.strip()
        elif not line.strip():
            current = None
    return summary.strip(), described


def _schedule(schedule: Mapping[str, Any]) -> str:
    if "cron" in schedule:
        return f"cron {code(str(schedule['cron']))} ({schedule.get('timezone', 'UTC')})"
    if "interval" in schedule:
        return f"every {schedule['interval']} s"
    return code(str(schedule))


def _trigger(trigger: Mapping[str, Any]) -> str:
    """A deployment's trigger: its automation, the event it expects and the parameters it
    makes of it."""
    events = ", ".join(code(str(event)) for event in trigger.get("expect", []))
    made = ", ".join(f"{code(name)} = {code(str(value))}"
                     for name, value in (trigger.get("parameters") or {}).items())  # fmt: skip
    return (
        f"the automation {code(str(trigger.get('name')))}: one run per event {events}, "
        f"its parameters {made}"
    )


def _yaml_value(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _blocks() -> str:
    rows = [
        [code(SECRET_BLOCK), "The service's API key, which the runs load with "
         f"({link(code('EMISSIONS_API_KEY'), VARIABLES_PAGE, 'EMISSIONS_API_KEY')} on the worker "
         "wins). Written from the key given to prefect-setup, never shown."],
        [code(f"{KEY_BLOCK_PREFIX}<name>"), "With several organizations "
         "(`prefect-setup --organizations FILE`), each one's key: its name in lower case, "
         "other characters as `-`."],
        [code(f"{PASSWORD_BLOCK_PREFIX}<source>-<database>"), "With table sources "
         "(`prefect-setup --sources FILE`), the password a database's URI held in the file, "
         "moved here; a table source's task reads it when it starts, never shown."],
    ]  # fmt: skip
    ledger = (
        f"The watcher of arrivals keeps its ledger of each inbox in a block of the type "
        f"{code(InboxArrivals.get_block_type_name())}: {code(LEDGER_BLOCK)}, or "
        f"{code(LEDGER_BLOCK + '-<organization>')} for an organization's inbox (each file's "
        "stamp at the last look, and when its load was sent). Deleted, the next look sends "
        "every file of the inbox again, whose runs find their content loaded."
    )
    return "## Secret blocks\n\n" + table(["Block", "Holds"], rows) + "\n\n" + ledger


def _variables() -> str:
    fields = Settings.model_fields
    rows = [
        [code(name), link(code(f"EMISSIONS_{field.upper()}"), VARIABLES_PAGE,
                          f"EMISSIONS_{field.upper()}"),
         text(_sentence(fields[field].description or ""))]
        for field, name in VARIABLES.items()
    ]  # fmt: skip
    rows.append(
        [code(ORGANIZATIONS_VARIABLE),
         link(code("EMISSIONS_ORGANIZATIONS"), VARIABLES_PAGE, "EMISSIONS_ORGANIZATIONS"),
         "The organizations to load, as `prefect-setup --organizations FILE` writes them: their "
         "names, ids, URLs and inboxes, never a key (each is in its Secret block). With it, the "
         "nightly starts one run per organization."]
    )  # fmt: skip
    rows.append(
        [code(SOURCES_VARIABLE),
         link(code("EMISSIONS_SOURCES"), VARIABLES_PAGE, "EMISSIONS_SOURCES"),
         "The table sources the nightly syncs after its inbox, as `prefect-setup --sources "
         "FILE` writes them: name, resource, query, key, organization and databases, never a "
         "password (each is in its Secret block)."]
    )  # fmt: skip
    return "## Variables\n\n" + (
        "Read when each run starts, so a changed variable applies to the next run; a variable "
        "holding a catalog's conninfo never holds its password (workers take it from "
        "`PGPASSWORD` or `.pgpass`).\n\n" + table(["Variable", "Stands for", "What it is"], rows)
    )


def _limits() -> str:
    rows = [
        [code(limit.name), str(limit.limit),
         "requests at once" if limit.name.endswith("-in-flight") else "requests a second"]
        for limit in prefect_limits(resource_limits())
    ]  # fmt: skip
    rows += [
        [code(f"{warehouse_turns.PREFIX}<file>-<8 hex>"), "1",
         "runs writing one warehouse file (or a lake catalogued in a file) take turns; named "
         "after the file's absolute path"],
        [code(f"{warehouse_turns.ORGANIZATION_PREFIX}<organization id>"), "1",
         "runs of one organization writing a lake catalogued in PostgreSQL take turns"],
    ]  # fmt: skip
    return "## Global concurrency limits\n\n" + (
        "The service's limits, shared by workers on several machines once "
        f"{link(code('EMISSIONS_SHARED_LIMITS'), VARIABLES_PAGE, 'EMISSIONS_SHARED_LIMITS')} "
        "(or its Prefect variable) is `prefect`, and the warehouse's turns. A run creates a "
        "turn it needs if it is missing; make one inactive in the UI to let runs overlap.\n\n"
        + table(["Limit", "Slots", "What it shares"], rows)
    )


def _automations() -> str:
    failed = ", ".join(code(event) for event in alerts.FAILED_EVENTS)
    rows = [
        [code(alerts.FAILED_AUTOMATION), f"a run of the pool's deployments ends {failed}",
         "`prefect-setup --notify BLOCK`"],
        [code(alerts.PARTIAL_AUTOMATION),
         f"a run completes with rejected or failed rows ({code(alerts.COMPLETED_EVENT)}, its "
         f"message begins {code(PARTIAL_PREFIX.strip())}, its tag is {code(PARTIAL_TAG)})",
         "`prefect-setup --notify BLOCK --notify-partial`; `--no-notify-partial` removes it"],
        [code(alerts.OVERDUE_AUTOMATION),
         f"a nightly finds data overdue: a gap of the inventory's coverage past its due date "
         f"(it emits {code(OVERDUE_EVENT)}, its tag is {code(OVERDUE_TAG)}; the body says what "
         "is overdue)",
         "`prefect-setup --notify BLOCK --notify-overdue`; `--no-notify-overdue` removes it"],
    ]  # fmt: skip
    return "## Automations\n\n" + (
        "They tell someone through a block named as Prefect names blocks, `<type>/<name>` "
        "(`slack-webhook/data-team`, `custom-webhook/ops-alerts`): a notification block is sent "
        "a notification; a Webhook block is called with a JSON body (its fields: "
        + ", ".join(code(name) for name in alerts.WEBHOOK_FIELDS)
        + "). The server runs them: nothing runs on a worker.\n\n"
        + table(["Automation", "When", "Made by"], rows)
    )


def _sentence(value: str) -> str:
    joined = " ".join(value.split())
    return joined if joined.endswith(".") else joined + "."


__all__ = ["Flow", "FlowParameter", "deployment_holders", "prefect_page", "read_flow"]

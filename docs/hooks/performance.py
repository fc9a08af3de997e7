"""MkDocs hook: the Performance page shows the latest results of every benchmark.

Each benchmark under ``tests/benchmarks/`` writes its figures to
``tests/benchmarks/results/<name>.json`` (``tests/benchmarks/results.py``); at build time this
hook replaces the marker ``<!-- benchmark results -->`` of ``performance.md`` with a section per
benchmark: what it measures (its docstring's first sentence), when, at which commit and on what
machine it last ran, its parameters and a table of its figures. A benchmark that has never
written results says so. Figures live in those files, never in the page's prose.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from mkdocs.exceptions import PluginError

MARKER = "<!-- benchmark results -->"
PAGE = "performance.md"

#: A figure's value as JSON gives it.
Value = str | int | float | bool | None | list["Value"] | dict[str, "Value"]


@dataclass(frozen=True)
class Benchmark:
    """One script under tests/benchmarks/, with its latest results if it wrote any."""

    name: str
    summary: str
    results: Mapping[str, Value] | None


def on_page_markdown(markdown: str, page: object, config: Mapping[str, object], **_: object) -> str:
    """Fill the Performance page's marker; every other page is left as it is."""
    if getattr(getattr(page, "file", None), "src_uri", None) != PAGE:
        return markdown
    root = Path(str(config["config_file_path"])).parent
    return markdown.replace(MARKER, render(benchmarks(root / "tests" / "benchmarks")))


def benchmarks(folder: Path) -> list[Benchmark]:
    """Every ``bench_*.py`` of ``folder`` with its ``results/<name>.json``, by name."""
    found = []
    for script in sorted(folder.glob("bench_*.py")):
        results = folder / "results" / f"{script.stem}.json"
        found.append(Benchmark(script.stem, _summary(script), _read(results)))
    return found


def render(found: Sequence[Benchmark]) -> str:
    """The Markdown of every benchmark's section."""
    return "\n\n".join(_section(benchmark) for benchmark in found) + "\n"


def _section(benchmark: Benchmark) -> str:
    lines = [f"## {benchmark.name}", "", benchmark.summary, ""]
    results = benchmark.results
    if results is None:
        lines.append(
            f"No results yet: `tests/benchmarks/results/{benchmark.name}.json` is written "
            "the first time the benchmark runs."
        )
        return "\n".join(lines)
    lines += [_provenance(results), ""]
    parameters = results.get("parameters")
    if isinstance(parameters, Mapping) and parameters:
        shown = ", ".join(f"`{key}={_text(value)}`" for key, value in parameters.items())
        lines += [f"Parameters: {shown}.", ""]
    figures = results.get("figures")
    lines.append(_figures(figures if isinstance(figures, Mapping) else {}))
    return "\n".join(lines)


def _provenance(results: Mapping[str, Value]) -> str:
    machine = results.get("machine")
    machine = machine if isinstance(machine, Mapping) else {}
    load = machine.get("load_average")
    loaded = f", load average {_text(load)}" if load is not None else ""
    return (
        f"Last run {_when(results.get('date'))} at commit `{_text(results.get('commit'))}`, "
        f"on {_text(machine.get('cores'))} cores ({_text(machine.get('cpu'))}), "
        f"Python {_text(machine.get('python'))}{loaded}."
    )


def _when(date: Value) -> str:
    """An ISO timestamp as a date and a time of day in UTC."""
    try:
        moment = dt.datetime.fromisoformat(str(date)).astimezone(dt.UTC)
    except ValueError:
        return _text(date)
    return f"{moment:%Y-%m-%d %H:%M} UTC"


def _figures(figures: Mapping[str, Value]) -> str:
    """Single figures in one table; a list of lines (runs, nights) in a table of its own."""
    single = {key: value for key, value in figures.items() if not isinstance(value, list)}
    blocks = [_table(["figure", "value"], [[key, value] for key, value in single.items()])]
    for key, value in figures.items():
        if not isinstance(value, list) or not value:
            continue
        if all(isinstance(item, Mapping) for item in value):
            rows = [item for item in value if isinstance(item, Mapping)]
            columns = list(dict.fromkeys(column for row in rows for column in row))
            table = _table(columns, [[row.get(column) for column in columns] for row in rows])
            blocks.append(f"**{key}**\n\n{table}")
        else:
            items = "\n".join(f"- {_text(item)}" for item in value)
            blocks.append(f"**{key}**\n\n{items}")
    return "\n\n".join(block for block in blocks if block)


def _table(columns: Sequence[str], rows: Iterable[Sequence[Value]]) -> str:
    body = ["| " + " | ".join(_cell(value) for value in row) + " |" for row in rows]
    if not body:
        return ""
    head = ["| " + " | ".join(_cell(column) for column in columns) + " |",
            "|" + "---|" * len(columns)]  # fmt: skip
    return "\n".join(head + body)


def _cell(value: Value) -> str:
    return _text(value).replace("|", "\\|").replace("\n", " ")


def _text(value: Value | object) -> str:
    """A value as the page shows it: numbers with thousands separators, nothing as a dash."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return f"{value:,}"
    if isinstance(value, list):
        return ", ".join(_text(item) for item in value)
    if isinstance(value, Mapping):
        return ", ".join(f"{key} {_text(item)}" for key, item in value.items())
    return str(value)


def _summary(script: Path) -> str:
    """The first sentence of a script's docstring, or a plain line when it has none."""
    match = re.search(r'^"""(.*?)(?:"""|\n\n)', script.read_text(encoding="utf-8"), flags=re.S)
    if match is None:
        return f"`{script.name}`."
    text = " ".join(match.group(1).split()).replace("``", "`")
    sentence = re.match(r"(.+?[.:;])(\s|$)", text)
    return (sentence.group(1) if sentence else text).rstrip(".:;") + "."


def _read(path: Path) -> Mapping[str, Value] | None:
    if not path.exists():
        return None
    try:
        results = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise PluginError(f"{path}: not a results file ({error})") from error
    if not isinstance(results, dict):
        raise PluginError(f"{path}: not a results file (a JSON object is expected)")
    return results

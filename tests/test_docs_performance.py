"""The docs' Performance page is built from the benchmarks' results files
(docs/hooks/performance.py), and every benchmark writes one."""

from __future__ import annotations

import ast
import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest
from mkdocs.exceptions import PluginError

from tests.benchmarks.results import write_results

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = ROOT / "tests" / "benchmarks"


def _hook() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "docs_performance_hook", ROOT / "docs" / "hooks" / "performance.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


hook = _hook()


def _benchmark(
    folder: Path, name: str, docstring: str = "Benchmark of a thing: prints figures."
) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.py").write_text(f'"""{docstring}\n\nMore words.\n"""\n')


def _page(folder: Path) -> str:
    return hook.render(hook.benchmarks(folder))


def test_a_benchmark_without_results_says_so(tmp_path: Path) -> None:
    _benchmark(tmp_path, "bench_thing")

    page = _page(tmp_path)

    assert "## bench_thing" in page
    assert "No results yet" in page


def test_a_benchmark_is_introduced_by_the_first_sentence_of_its_docstring(tmp_path: Path) -> None:
    _benchmark(
        tmp_path, "bench_thing", "Prints how long ``load`` takes (target under 1 s). Run it."
    )

    assert "Prints how long `load` takes (target under 1 s).\n" in _page(tmp_path)


def test_results_show_their_date_commit_machine_and_parameters(tmp_path: Path) -> None:
    _benchmark(tmp_path, "bench_thing")
    written = write_results("bench_thing", {"seconds": 1.5}, parameters={"rows": 200_000},
                            folder=tmp_path / "results")  # fmt: skip

    page = _page(tmp_path)

    result = written.read_text()
    assert "No results yet" not in page
    assert " UTC at commit `" in page
    assert f"on {os.cpu_count()} cores" in page
    assert "load average" in page
    assert "Parameters: `rows=200,000`." in page
    assert "| seconds | 1.5 |" in page
    assert '"seconds": 1.5' in result


def test_lines_of_figures_are_a_table_of_their_own(tmp_path: Path) -> None:
    _benchmark(tmp_path, "bench_thing")
    runs = [{"rows": 200_000, "seconds": 14.8}, {"rows": 400_000, "seconds": 30.4, "peak_mb": 535}]
    write_results("bench_thing", {"runs": runs, "targets": ["met"]}, folder=tmp_path / "results")

    page = _page(tmp_path)

    assert "| rows | seconds | peak_mb |" in page
    assert "| 200,000 | 14.8 | - |" in page
    assert "| 400,000 | 30.4 | 535 |" in page
    assert "**targets**\n\n- met" in page


def test_a_value_with_a_pipe_stays_in_its_cell(tmp_path: Path) -> None:
    _benchmark(tmp_path, "bench_thing")
    write_results("bench_thing", {"formats": "csv|xlsx"}, folder=tmp_path / "results")

    assert "| formats | csv\\|xlsx |" in _page(tmp_path)


def test_a_broken_results_file_fails_the_build(tmp_path: Path) -> None:
    _benchmark(tmp_path, "bench_thing")
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "bench_thing.json").write_text("{not json")

    with pytest.raises(PluginError, match="bench_thing.json: not a results file"):
        _page(tmp_path)


def test_only_the_performance_page_is_filled() -> None:
    config = {"config_file_path": str(ROOT / "mkdocs.yml")}
    other = SimpleNamespace(file=SimpleNamespace(src_uri="index.md"))
    performance = SimpleNamespace(file=SimpleNamespace(src_uri="performance.md"))

    assert hook.on_page_markdown(hook.MARKER, page=other, config=config) == hook.MARKER
    filled = hook.on_page_markdown(hook.MARKER, page=performance, config=config)
    assert hook.MARKER not in filled
    assert "## bench_pipeline" in filled


def test_the_performance_page_has_the_marker_the_hook_fills() -> None:
    assert hook.MARKER in (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")


def _written_names(script: Path) -> list[str]:
    """The benchmark names a script passes to write_results."""
    tree = ast.parse(script.read_text(encoding="utf-8"))
    calls = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "write_results"
    ]
    return [
        call.args[0].value for call in calls if call.args and isinstance(call.args[0], ast.Constant)
    ]


@pytest.mark.parametrize(
    "script", sorted(BENCHMARKS.glob("bench_*.py")), ids=lambda path: path.stem
)
def test_every_benchmark_writes_its_figures_under_its_own_name(script: Path) -> None:
    assert _written_names(script) == [script.stem]

"""The package's shape, as issue 52 set it: no function longer than 60 lines, and ``Any`` only
where a library's own types leave nothing else (on at most 80 lines, and only in the modules
named below, each with the library's reason); the flows, which wire it, likewise and with no
``Any`` at all. Counted from the source (``ast`` and
``tokenize``), so a change that adds a long function or a new ``Any`` fails here with the
places named."""

from __future__ import annotations

import ast
import io
import tokenize
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "emissions_etl"
FLOWS = ROOT / "flows"
LONGEST_FUNCTION = 60
ANY_LINES = 80
#: The modules where ``Any`` is the library's own type, and why (a comment at each use says it
#: too). A new use elsewhere names its module and reason here, or takes a real type.
ANY_ALLOWED_IN = {
    "orchestration/late_data.py": "a record of pandas-stubs' to_dict is Mapping[Hashable, Any]",
    "settings.py": "pydantic's BaseSettings.__init__ takes **values: Any, passed on whole",
}


def _modules(root: Path) -> list[Path]:
    return sorted(root.rglob("*.py"))


def _where(path: Path, root: Path, line: int) -> str:
    return f"{path.relative_to(root)}:{line}"


def functions_longer_than(limit: int, root: Path = PACKAGE) -> list[str]:
    """``module:line name (N lines)`` of every function or method longer than ``limit`` lines,
    decorators left out, docstring and body counted."""
    long = []
    for path in _modules(root):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > limit:
                    long.append(f"{_where(path, root, node.lineno)} {node.name} ({length} lines)")
    return long


def lines_using_any(root: Path = PACKAGE) -> list[str]:
    """``module:line`` of every line naming ``Any`` outside an import: in an annotation, an
    alias, a cast, or a string annotation (``"dict[str, Any]"``)."""
    found = []
    for path in _modules(root):
        text = path.read_text(encoding="utf-8")
        imports = {
            line
            for node in ast.walk(ast.parse(text))
            if isinstance(node, ast.Import | ast.ImportFrom)
            for line in range(node.lineno, (node.end_lineno or node.lineno) + 1)
        }
        lines = set()
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            line = token.start[0]
            if line in imports:
                continue
            if _names_any(token):
                lines.add(line)
        found.extend(_where(path, root, line) for line in sorted(lines))
    return found


def _names_any(token: tokenize.TokenInfo) -> bool:
    if token.type == tokenize.NAME:
        return token.string == "Any"
    return token.type == tokenize.STRING and _annotation_naming_any(token.string)


def _annotation_naming_any(string: str) -> bool:
    """A string that parses as a type expression naming ``Any`` (a docstring's "Any other"
    does not parse as one)."""
    with warnings.catch_warnings():  # a regular expression's "\\s" in a plain string
        warnings.simplefilter("ignore", SyntaxWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            body = ast.literal_eval(string)
            tree = ast.parse(body, mode="eval") if isinstance(body, str) else None
        except (SyntaxError, ValueError):
            return False
    return tree is not None and any(
        isinstance(node, ast.Name) and node.id == "Any" for node in ast.walk(tree)
    )


def test_no_function_of_the_package_is_longer_than_60_lines() -> None:
    assert functions_longer_than(LONGEST_FUNCTION) == []


def test_no_function_of_the_flows_is_longer_than_60_lines() -> None:
    assert functions_longer_than(LONGEST_FUNCTION, FLOWS) == []


def test_the_flows_name_no_any() -> None:
    assert lines_using_any(FLOWS) == []


def test_any_is_on_at_most_80_lines_of_the_package() -> None:
    lines = lines_using_any()
    assert len(lines) <= ANY_LINES, "\n".join(lines)


def test_any_is_only_where_a_library_leaves_nothing_else() -> None:
    elsewhere = [line for line in lines_using_any() if line.split(":")[0] not in ANY_ALLOWED_IN]
    assert elsewhere == []


def test_the_counters_see_what_they_count(tmp_path: Path) -> None:
    """The counters are not blind: a use of Any in code or in a string annotation counts, an
    import and a docstring's word do not; a function one line too long is named."""
    body = "\n".join(f"    x{n} = {n}" for n in range(LONGEST_FUNCTION - 1))
    (tmp_path / "module.py").write_text(
        '"""Any other word."""\n'
        "from typing import Any\n"
        "def short(value: Any) -> None:\n"
        "    pass\n"
        'def hinted(value: "dict[str, Any]") -> None:\n'
        "    pass\n"
        f'def long() -> None:\n    """Any."""\n{body}\n',
        encoding="utf-8",
    )
    assert lines_using_any(tmp_path) == ["module.py:3", "module.py:5"]
    assert functions_longer_than(LONGEST_FUNCTION, tmp_path) == ["module.py:7 long (61 lines)"]

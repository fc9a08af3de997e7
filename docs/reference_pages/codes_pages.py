"""The pages of codes: how each command exits (``cli.exit_codes``), and why a cell is rejected
(``domain.rejects``), every code the source names held to the declaration."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from .command_line import CommandLine, Undeclared
from .markdown import code, link, page, table, text

#: Where the source names a reject code outside ``RejectCode``: a schema's check
#: (``CheckReject("INVALID_CUPS", ...)``), a column's ``reject_code``, a member by name.
CODE_SPELLINGS = (
    re.compile(r"CheckReject\(\s*\"([A-Z][A-Z0-9_]*)\""),
    re.compile(r"[\"']reject_code[\"']\s*:\s*[\"']([A-Z][A-Z0-9_]*)[\"']"),
    re.compile(r"RejectCode\.([A-Z][A-Z0-9_]*)"),
)


def exit_codes_page(general: Mapping[int, str], lines: Sequence[CommandLine]) -> str:
    """What each code means, then what each command means by it."""
    sections = ["## The codes\n\n" + table(
        ["Code", "Means"], [[str(number), text(why)] for number, why in general.items()]
    )]  # fmt: skip
    for line in lines:
        rows = [
            [link(code(command.name), line.page, command.name), str(number), text(why)]
            for command in line.commands()
            for number, why in command.exits().items()
        ]
        sections.append(f"## {line.prog}\n\n" + table(["Command", "Code", "When"], rows))
    return page(
        "Exit codes",
        "Every command ends with one of these codes, and prints one line on stderr when it is "
        "not 0 (never a traceback). Scripts and schedulers may rely on them: they are a public "
        "contract. Generated from `emissions_etl/cli/exit_codes.py` and the sandbox's "
        "`COMMAND_EXITS`.",
        sections,
    )


def reject_codes_page(
    codes: Sequence[str], meanings: Mapping[str, str], sources: Sequence[Path]
) -> str:
    """Every reject code (``codes``) with what it means; Undeclared for a code without its
    meaning, or one the sources name that is not among ``codes``."""
    missing = [name for name in codes if not meanings.get(name)]
    if missing:
        raise Undeclared(
            f"reject codes without a meaning: {', '.join(missing)}; add each to "
            "REJECT_CODE_MEANINGS (emissions_etl/domain/rejects.py)"
        )
    _check_named(codes, sources)
    rows = [[code(name), text(meanings[name])] for name in codes]
    return page(
        "Reject codes",
        "A rejected cell names its file, sheet, row and column, the value it held, one of "
        "these codes and a sentence saying what to change (the `rejects` table, "
        "`--rejects OUT.json` or the annotated `OUT.xlsx`). The codes are stable: filter and "
        "translate by them. Generated from `emissions_etl/domain/rejects.py`.",
        [table(["Code", "Means"], rows)],
    )


def _check_named(codes: Sequence[str], sources: Sequence[Path]) -> None:
    named: dict[str, str] = {}
    for path in sources:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for spelling in CODE_SPELLINGS:
                for found in spelling.findall(line):
                    named.setdefault(found, f"{path}:{number}")
    undeclared = {name: where for name, where in named.items() if name not in codes}
    if undeclared:
        listed = ", ".join(f"{name} ({where})" for name, where in sorted(undeclared.items()))
        raise Undeclared(
            f"reject codes used but not declared: {listed}; add each to RejectCode and "
            "REJECT_CODE_MEANINGS (emissions_etl/domain/rejects.py)"
        )

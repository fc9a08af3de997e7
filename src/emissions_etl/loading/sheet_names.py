"""What a workbook sheet's name says it holds, from the names people give their topics in the
languages our users write (``sheet_names.csv``, data with its source): "Centros", "Flota",
"Viajes 2026", "Consumos de flota" name resources; "Notas", "Resumen", "Gráficos" name sheets
that hold nothing to load.

A name only narrows: the header still has to fit the resource (``detection.route_sheet``), so a
name in a language or spelling the list lacks costs nothing but the header's word alone.
"""

from __future__ import annotations

import csv
import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

#: The ``resource`` of the names of sheets that hold no data (notes, summaries, charts...).
NOT_DATA = "-"

#: Words left out on both sides, so "Consumos de flota" holds "consumos flota" and
#: "Centros de trabajo 2026" holds "centros trabajo".
_FILLER = frozenset((
    "a", "al", "and", "d", "da", "das", "de", "del", "der", "des", "di", "die", "do", "dos", "du",
    "e", "el", "en", "et", "for", "i", "l", "la", "las", "le", "les", "los", "n", "o", "of",
    "para", "per", "por", "the", "to", "und", "v", "vom", "von", "y",
))  # fmt: skip


@dataclass(frozen=True)
class SheetName:
    """What a sheet's name says: the resources it names (the longest names found), and whether
    it names a sheet of notes, summaries or charts."""

    resources: frozenset[str]
    not_data: bool


def words(text: str) -> tuple[str, ...]:
    """The words of ``text`` as names are compared: lower case, accents and punctuation off,
    numbers and filler words left out (``"Consumos de flota 2026"``: consumos, flota)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(char for char in decomposed if not unicodedata.combining(char))
    return tuple(
        word for word in re.findall(r"[^\W_]+", plain) if word not in _FILLER and not word.isdigit()
    )


def read_sheet_name(sheet: str) -> SheetName:
    """What ``sheet``'s name says it holds (nothing, for a name the list does not know)."""
    found = words(sheet)
    longest: dict[str, int] = {}
    for phrase, resource in _names():
        if _holds(found, phrase):
            longest[resource] = max(longest.get(resource, 0), len(phrase))
    not_data = longest.pop(NOT_DATA, 0) > 0
    best = max(longest.values(), default=0)
    return SheetName(frozenset(r for r, size in longest.items() if size == best), not_data)


def _holds(found: tuple[str, ...], phrase: tuple[str, ...]) -> bool:
    size = len(phrase)
    return any(found[start : start + size] == phrase for start in range(len(found) - size + 1))


@cache
def _names() -> tuple[tuple[tuple[str, ...], str], ...]:
    """(name's words, resource) for every row of ``sheet_names.csv``."""
    text = files(__package__).joinpath("sheet_names.csv").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    rows = [(words(row["name"]), row["resource"]) for row in csv.DictReader(lines)]
    return tuple((phrase, resource) for phrase, resource in rows if phrase)


__all__ = ["NOT_DATA", "SheetName", "read_sheet_name", "words"]

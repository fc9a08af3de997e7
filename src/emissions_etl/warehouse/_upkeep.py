"""Upkeep of a warehouse (``emissions-etl maintain-warehouse``): what keeps it fast as the nights
add up. A lake's (``_lake_upkeep``): inlined rows flushed, small files merged, old snapshots
expired, unneeded files deleted; a DuckDB file's (``_file_upkeep``): its log merged, its
scattered row groups compacted. Both say what they did as an ``Upkeep``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


class UpkeepStep(Protocol):
    """Told as each step of an upkeep starts: its number, of how many, and what it does."""

    def __call__(self, number: int, steps: int, what: str) -> None: ...


def no_steps(number: int, steps: int, what: str) -> None:
    """An upkeep nobody watches."""


class Figures(Protocol):
    """A warehouse as upkeep finds it, in one line."""

    def line(self) -> str: ...


@dataclass
class Upkeep:
    """What upkeep did: a line per step, and the warehouse before and after."""

    before: Figures
    after: Figures
    done: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        return [*self.done, f"before: {self.before.line()}", f"after:  {self.after.line()}"]


def counted(number: int, word: str) -> str:
    """``3 files``, ``1 file``."""
    return f"{number:,} {word}{'' if number == 1 else 's'}"


def megabytes(size: int) -> str:
    """``180.4 MB``."""
    return f"{size / 1e6:,.1f} MB"


__all__ = ["Figures", "Upkeep", "UpkeepStep", "counted", "megabytes", "no_steps"]

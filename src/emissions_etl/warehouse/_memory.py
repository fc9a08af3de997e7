"""How much memory DuckDB may take, and where it spills what does not fit.

No fixed cap that a bigger warehouse or a bigger file can outgrow (issue #26). DuckDB's memory
limit follows the machine: ``MEMORY_SHARE`` of its physical memory, unless
``EMISSIONS_WAREHOUSE_MEMORY`` says otherwise (``2GB``, ``512MiB``, ``10%``). What a statement
needs beyond it spills to a folder on the warehouse's own disk (``EMISSIONS_WAREHOUSE_TEMP`` to
move it): beside the DuckDB file, beside a lake's catalog file or its local data folder, and for
a PostgreSQL catalog whose data is remote, in the user's cache folder.

Each connection spills into a folder of its own under that one: several processes write one
lake, or read one file, at once, and DuckDB names its spill files alike in every process.
DuckDB creates that folder when it first spills and removes it when the connection closes.

DuckDB runs a statement on one thread per core unless ``EMISSIONS_WAREHOUSE_THREADS`` says
otherwise: a warehouse opened without settings (a notebook's, a test's) reads the variable too,
so every warehouse a worker's process opens runs on the threads the worker was given.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import socket
import threading
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from emissions_etl.warehouse._target import WarehouseTarget

#: DuckDB's share of the machine's physical memory when no limit is set. A load's own working
#: set is small (batches of 25,000 rows, statements on their keys): the limit is the room a
#: statement may take before it spills, not memory a load holds (docs: explanation,
#: "Memory, spilling and upkeep").
MEMORY_SHARE = 0.125
#: Never less than this, on a small machine (DuckDB needs room for a hash table and a few
#: blocks pinned at once).
MINIMUM_BYTES = 256 * 2**20
#: What is spilled goes to ``<warehouse>.tmp`` unless the setting names a folder.
SPILL_SUFFIX = ".tmp"

_UNITS = {
    "b": 1,
    "kb": 10**3,
    "mb": 10**6,
    "gb": 10**9,
    "tb": 10**12,
    "kib": 2**10,
    "mib": 2**20,
    "gib": 2**30,
    "tib": 2**40,
}
_SIZE = re.compile(r"^\s*(?P<number>\d+(?:\.\d+)?)\s*(?P<unit>[a-z]*|%)\s*$", re.IGNORECASE)
_connections = itertools.count(1)


def parse_memory(text: str) -> int:
    """``text`` (``2GB``, ``512 MiB``, ``10%`` of physical memory) in bytes; ValueError
    saying what is accepted otherwise."""
    match = _SIZE.match(text)
    unit = (match["unit"] or "b").lower() if match else ""
    if match is None or (unit != "%" and unit not in _UNITS):
        raise ValueError(
            f"{text!r} is not a size: give bytes with a unit (512MB, 2GB, 1.5GiB) or a share "
            "of the machine's memory (10%)"
        )
    number = float(match["number"])
    size = int(physical_memory() * number / 100) if unit == "%" else int(number * _UNITS[unit])
    if size <= 0:
        raise ValueError(f"{text!r}: the memory limit must be more than 0")
    return size


def physical_memory() -> int:
    """The machine's physical memory in bytes."""
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def shown(size: int) -> str:
    """``size`` bytes as a person reads it (``1.5 GiB``, ``384 MiB``)."""
    if size >= 2**30:
        return f"{size / 2**30:.1f} GiB"
    return f"{size / 2**20:.0f} MiB"


#: The variable that sets DuckDB's threads (``MemorySettings.threads``).
THREADS_VARIABLE = "EMISSIONS_WAREHOUSE_THREADS"


def threads_from_environment() -> int | None:
    """``EMISSIONS_WAREHOUSE_THREADS`` when it is set (None: DuckDB's default)."""
    value = os.environ.get(THREADS_VARIABLE, "").strip()
    if not value:
        return None
    if not value.isdigit() or int(value) < 1:
        raise ValueError(f"{THREADS_VARIABLE}={value!r}: give a whole number of threads, 1 or more")
    return int(value)


@dataclass(frozen=True)
class MemorySettings:
    """DuckDB's memory limit, spill folder and threads, as a user sets them (None: the
    defaults)."""

    #: ``EMISSIONS_WAREHOUSE_MEMORY``: a size or a share of physical memory.
    limit: str | None = None
    #: ``EMISSIONS_WAREHOUSE_TEMP``: the folder to spill under.
    temp: str | None = None
    #: ``EMISSIONS_WAREHOUSE_THREADS``: the threads a statement runs on (DuckDB's default: one
    #: per core). Loads that run at once each start that many, and spend less CPU on one
    #: thread each where they outnumber the cores: a load's statements are small, and threads
    #: beyond the free cores only wait for each other.
    threads: int | None = field(default_factory=threads_from_environment)

    def limit_bytes(self) -> int:
        """The memory limit in bytes: the setting, else ``MEMORY_SHARE`` of the machine's."""
        if self.limit is not None:
            return parse_memory(self.limit)
        return max(int(physical_memory() * MEMORY_SHARE), MINIMUM_BYTES)

    def default_share(self) -> str:
        """How the default limit is made, in words."""
        return f"{MEMORY_SHARE:.1%} of this machine's memory".replace(".0%", "%")

    def duckdb_limit(self) -> str:
        """The limit as DuckDB's ``memory_limit`` takes it."""
        return f"{max(self.limit_bytes() // 2**10, 1)}KiB"

    def spill_root(self, target: WarehouseTarget) -> Path:
        """The folder connections to ``target`` spill under: the setting, else on the
        warehouse's disk."""
        if self.temp is not None:
            return Path(self.temp).expanduser()
        if target.is_lake and target.is_postgres:
            data = target.lake_data_path()
            if data is not None and "://" not in data:
                return Path(data.rstrip("/") + SPILL_SUFFIX)
            return Path(f"{target.local_path}{SPILL_SUFFIX}")
        return target.path.with_name(target.path.name + SPILL_SUFFIX)


#: Connections of this process that may spill under each root (``spill_folder``).
_spilling: Counter[Path] = Counter()
_lock = threading.Lock()


def spill_folder(target: WarehouseTarget, memory: MemorySettings) -> Path:
    """A folder of one new connection's own under ``memory.spill_root(target)``, which is made
    (OSError when it cannot be). DuckDB makes the folder itself when it first spills and removes
    it when the connection closes; ``spill_closed`` then removes the root once it is empty."""
    root = memory.spill_root(target)
    with _lock:
        root.mkdir(parents=True, exist_ok=True)
        _spilling[root] += 1
    return root / f"{socket.gethostname()}-{os.getpid()}-{next(_connections)}"


def spill_closed(folder: Path) -> None:
    """The connection spilling to ``folder`` (from ``spill_folder``) is closed: its root is
    removed when no other connection of this process spills under it and nothing is in it."""
    root = folder.parent
    with _lock:
        if _spilling[root] > 1:
            _spilling[root] -= 1
            return
        _spilling.pop(root, None)
        with contextlib.suppress(OSError):  # another process spills there, or files are kept
            root.rmdir()


__all__ = [
    "MEMORY_SHARE",
    "MemorySettings",
    "parse_memory",
    "physical_memory",
    "shown",
    "spill_closed",
    "spill_folder",
]

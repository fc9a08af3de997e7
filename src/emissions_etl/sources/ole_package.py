"""Read an OLE compound file (the container of .xls workbooks and of password-protected .xlsx)
as calamine reads it, refusing first what would make calamine loop, panic or allocate without
bound.

calamine trusts the container: it reserves memory from header fields, follows sector chains
until they end (a chain that loops grows forever) and indexes its sector tables without checking
(an index beyond them panics). Every chain calamine follows is followed here first, each sector
at most once; the streams it then reads are handed on (``xls_package`` measures the workbook's).
"""

from __future__ import annotations

import mmap
import struct
from dataclasses import dataclass
from pathlib import Path

from emissions_etl.errors import CorruptSourceError
from emissions_etl.sources import limits

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
#: Sector ids from here on are markers, not sectors (MS-CFB 2.1).
_RESERVED = 0xFFFFFFFA
_DIFSECT = 0xFFFFFFFC
_END_OF_CHAIN = 0xFFFFFFFE
#: Streams below this size live in the mini stream, in 64-byte mini sectors.
_MINI_CUTOFF = 4096
_DIRECTORY_ENTRY = 128


@dataclass(frozen=True)
class _Entry:
    name: str
    start: int
    size: int


class CompoundFile:
    """The directory of a compound file, and its streams read as calamine reads them."""

    def __init__(self, path: Path, data: bytes | mmap.mmap) -> None:
        self.path = path
        self._data = data
        if len(data) < 512 or data[:8] != OLE_MAGIC:
            raise self._damaged("it is shorter than its header")
        shift, mini_shift = struct.unpack_from("<HH", data, 30)
        if shift not in (9, 12) or mini_shift != 6:
            raise self._damaged("its header names an impossible sector size")
        self._size = 1 << shift
        self._version = struct.unpack_from("<H", data, 26)[0]
        # calamine numbers sectors from the end of the header's sector; it refuses an id beyond
        # len // size, and reads a sector cut short by the end of the file as it is.
        self._max_id = len(data) // self._size
        self._check_reservations(data)
        self._fat = self._load_fat(data)
        (directory_start,) = struct.unpack_from("<I", data, 48)
        self.entries = self._directory(self._chain(directory_start, self._fat, None, "directory"))
        self._mini_fat: list[int] = []
        self._mini_stream = b""
        (mini_fat_start,) = struct.unpack_from("<I", data, 60)
        (mini_fat_sectors,) = struct.unpack_from("<I", data, 64)
        if mini_fat_sectors > 0:
            root = self.entries[0]
            self._mini_stream = self._chain(root.start, self._fat, root.size, "mini stream")
            table = self._chain(
                mini_fat_start, self._fat, mini_fat_sectors * self._size, "mini sector table"
            )
            self._mini_fat = list(struct.unpack_from(f"<{len(table) // 4}I", table))

    @property
    def names(self) -> list[str]:
        """The names of the directory's entries (streams and storages), in its order."""
        return [entry.name for entry in self.entries]

    def stream(self, name: str) -> bytes:
        """The first stream named ``name``, as calamine reads it; KeyError when there is none."""
        entry = next(entry for entry in self.entries if entry.name == name)
        if entry.size > limits.MAX_STREAM_BYTES:
            raise self._damaged(f"its stream {name!r} declares {entry.size:,} bytes")
        if entry.size < _MINI_CUTOFF:
            return self._mini_chain(entry.start, entry.size, name)
        return self._chain(entry.start, self._fat, entry.size, f"stream {name!r}")

    def _check_reservations(self, data: bytes | mmap.mmap) -> None:
        """calamine reserves room for the FAT from the header's count of FAT sectors, and for
        the DIFAT from the 4 bytes at offset 62 (which straddle two fields): both must stay
        within what a file of this size can hold."""
        (fat_sectors,) = struct.unpack_from("<I", data, 44)
        (straddling,) = struct.unpack_from("<I", data, 62)
        if fat_sectors > self._max_id + 1 or 4 * straddling > limits.MAX_UNCOMPRESSED_BYTES:
            raise self._damaged("its header counts more sectors than the file holds")

    def _sector(self, sector_id: int) -> bytes:
        if sector_id > self._max_id:
            raise self._damaged(f"sector {sector_id:,} lies beyond the end of the file")
        start = (sector_id + 1) * self._size
        return bytes(self._data[start : start + self._size])

    def _load_fat(self, data: bytes | mmap.mmap) -> list[int]:
        """The FAT, from the sectors the DIFAT lists: the header's 109 entries, then the DIFAT
        sectors, each chained to the next by its last entry (calamine pops it and follows)."""
        difat = list(struct.unpack_from("<109I", data, 76))
        (sector_id,) = struct.unpack_from("<I", data, 68)
        steps = 0
        while sector_id < _RESERVED:
            steps += 1
            if steps > self._max_id + 1:
                raise self._damaged("its sector allocation table chain loops")
            sector = self._sector(sector_id)
            difat.extend(struct.unpack_from(f"<{len(sector) // 4}I", sector))
            sector_id = difat.pop()
        fat: list[int] = []
        for fat_sector in difat:
            if fat_sector < _DIFSECT:
                sector = self._sector(fat_sector)
                fat.extend(struct.unpack_from(f"<{len(sector) // 4}I", sector))
        return fat

    def _chain(self, sector_id: int, table: list[int], size: int | None, what: str) -> bytes:
        """The bytes of a chain of sectors, up to ``size`` (None: to its end), refusing a
        chain that loops or leaves the table (calamine would grow forever, or panic)."""
        parts: list[bytes] = []
        length = 0
        seen: set[int] = set()
        while sector_id != _END_OF_CHAIN:
            if sector_id in seen:
                raise self._damaged(f"the chain of its {what} loops")
            seen.add(sector_id)
            sector = self._sector(sector_id)
            taken = sector if size is None else sector[: size - length]
            parts.append(taken)
            length += len(taken)
            if size is not None and length >= size:
                break
            if sector_id >= len(table):
                raise self._damaged(f"the chain of its {what} leaves the allocation table")
            sector_id = table[sector_id]
        return b"".join(parts)

    def _mini_chain(self, sector_id: int, size: int, name: str) -> bytes:
        parts: list[bytes] = []
        length = 0
        seen: set[int] = set()
        while sector_id != _END_OF_CHAIN and length < size:
            if sector_id in seen:
                raise self._damaged(f"the chain of its stream {name!r} loops")
            seen.add(sector_id)
            start = sector_id * 64
            if start >= len(self._mini_stream):
                raise self._damaged(f"its stream {name!r} lies beyond its mini stream")
            taken = self._mini_stream[start : start + min(64, size - length)]
            parts.append(taken)
            length += len(taken)
            if length >= size:
                break
            if sector_id >= len(self._mini_fat):
                raise self._damaged(f"the chain of its stream {name!r} leaves the mini table")
            sector_id = self._mini_fat[sector_id]
        return b"".join(parts)

    def _directory(self, data: bytes) -> list[_Entry]:
        entries = []
        wide = "<Q" if self._size == 4096 else "<I"
        for offset in range(0, len(data) - _DIRECTORY_ENTRY + 1, _DIRECTORY_ENTRY):
            raw = data[offset : offset + 64].decode("utf-16-le", "replace")
            (start,) = struct.unpack_from("<I", data, offset + 116)
            (size,) = struct.unpack_from(wide, data, offset + 120)
            entries.append(_Entry(raw.split("\0", 1)[0], start, size))
        if not entries or (self._version != 3 and entries[0].start == _END_OF_CHAIN):
            raise self._damaged("its directory is empty")
        return entries

    def _damaged(self, why: str) -> CorruptSourceError:
        return CorruptSourceError(
            str(self.path), f"the workbook is damaged ({why}): open it in Excel and save it again"
        )


def open_compound(path: Path) -> CompoundFile:
    """The compound file at ``path`` (memory-mapped: only what is read is loaded)."""
    with path.open("rb") as stream:
        if stream.seek(0, 2) < 512:
            raise CorruptSourceError(str(path), "the workbook is damaged (shorter than its header)")
        mapped = mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ)
    return CompoundFile(path, mapped)

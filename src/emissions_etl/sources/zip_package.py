"""Open a workbook's zip without trusting it: members counted, sizes and ratios checked, and every
member inflated here (streamed, never extracted) to learn its true size, whatever the zip says.

Shared by the zip-based workbooks calamine reads (.xlsx, .xlsb, .ods): each checks the parts
calamine will load through ``Inflater`` before calamine sees the file.
"""

from __future__ import annotations

import struct
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from emissions_etl.errors import (
    CorruptSourceError,
    EncryptedSourceError,
    SourceTooLargeError,
    UnsupportedSourceError,
)
from emissions_etl.sources import limits

ZIP_MAGIC = b"PK\x03\x04"
#: Inflated bytes per chunk, and compressed bytes read at a time (small enough that zlib
#: rarely has input left over, which it would copy on every call).
INFLATE_CHUNK = 1024 * 1024
_RAW_CHUNK = 64 * 1024

Members = dict[str, zipfile.ZipInfo]


def open_members(path: Path, stream: BinaryIO) -> Members:
    """The zip's members by lower-cased name (calamine finds parts ignoring case), their
    declared sizes checked; a damaged zip, duplicate names and encrypted or exotic members
    refused with a one-line InputError."""
    declared = _declared_members(stream)
    if declared is not None and declared > limits.MAX_MEMBERS:
        raise SourceTooLargeError(
            str(path), f"the zip lists {declared:,} members; the limit is {limits.MAX_MEMBERS:,}"
        )
    try:
        archive = zipfile.ZipFile(stream)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError) as error:
        raise CorruptSourceError(
            str(path), f"the workbook is damaged or truncated ({error}): save it again"
        ) from None
    with archive:
        return _check_members(path, archive)


def _declared_members(stream: BinaryIO) -> int | None:
    """Members the zip's end record lists (zip64 too), read before zipfile builds an entry
    for each; None when there is no end record (zipfile then reports the damage)."""
    size = stream.seek(0, 2)
    stream.seek(max(0, size - 65_557))  # the end record and its longest comment
    tail = stream.read()
    end = tail.rfind(b"PK\x05\x06")
    if end < 0 or len(tail) < end + 22:
        return None
    count = int(struct.unpack_from("<H", tail, end + 10)[0])
    locator = end - 20
    if count == 0xFFFF and locator >= 0 and tail[locator : locator + 4] == b"PK\x06\x07":
        (offset,) = struct.unpack_from("<Q", tail, locator + 8)
        stream.seek(offset)
        record = stream.read(56)
        if len(record) == 56 and record[:4] == b"PK\x06\x06":
            count = int(struct.unpack_from("<Q", record, 32)[0])
    stream.seek(0)
    return count


def _check_members(path: Path, archive: zipfile.ZipFile) -> Members:
    infos = archive.infolist()
    if len(infos) > limits.MAX_MEMBERS:
        raise SourceTooLargeError(
            str(path), f"the zip holds {len(infos):,} members; the limit is {limits.MAX_MEMBERS:,}"
        )
    members: Members = {}
    declared = 0
    for info in infos:
        key = ascii_lower(info.filename)
        if key in members:
            raise CorruptSourceError(str(path), f"the zip holds {info.filename!r} twice")
        members[key] = info
        if info.flag_bits & 0x1:
            raise EncryptedSourceError(str(path), "the zip's members are encrypted")
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise UnsupportedSourceError(
                str(path), f"zip member {info.filename!r} uses compression {info.compress_type}"
            )
        declared += info.file_size
        _check_ratio(path, info.filename, info.file_size, info.compress_size)
    if declared > limits.MAX_UNCOMPRESSED_BYTES:
        raise SourceTooLargeError(
            str(path),
            f"the zip declares {size_text(declared)} uncompressed; the limit is "
            f"{size_text(limits.MAX_UNCOMPRESSED_BYTES)}",
        )
    return members


def _check_ratio(path: Path, name: str, inflated: int, compressed: int) -> None:
    if inflated <= limits.RATIO_FLOOR_BYTES:
        return
    ratio = inflated / max(compressed, 1)
    if ratio > limits.MAX_COMPRESSION_RATIO:
        raise SourceTooLargeError(
            str(path),
            f"zip member {name!r} inflates {ratio:,.0f}x ({size_text(compressed)} -> "
            f"{size_text(inflated)}); the limit is {limits.MAX_COMPRESSION_RATIO}x: a zip bomb, "
            "not a workbook",
        )


class Inflater:
    """Streams members' bytes from their compressed data, counting what they really inflate
    to (a zip may declare any size), never holding more than a chunk."""

    def __init__(self, path: Path, stream: BinaryIO, members: Members):
        self.path = path
        self.stream = stream
        self.members = members
        self.total = 0

    def read_small(self, info: zipfile.ZipInfo, cap: int = limits.MAX_PART_BYTES) -> bytes:
        return b"".join(self.chunks(info, cap))

    def drain(self, info: zipfile.ZipInfo, cap: int) -> None:
        for _ in self.chunks(info, cap):
            pass

    def chunks(self, info: zipfile.ZipInfo, cap: int) -> Iterator[bytes]:
        produced = 0
        inflate = zlib.decompressobj(-15) if info.compress_type == zipfile.ZIP_DEFLATED else None
        for raw in self._raw(info):
            pending = raw
            while pending:
                if inflate is None:
                    out, pending = pending, b""
                else:
                    out = inflate.decompress(pending, INFLATE_CHUNK)
                    pending = inflate.unconsumed_tail
                produced += len(out)
                self._account(info, produced, len(out), cap)
                if out:
                    yield out
        if inflate is not None:
            rest = inflate.flush()
            produced += len(rest)
            self._account(info, produced, len(rest), cap)
            if rest:
                yield rest
            if not inflate.eof:
                raise self._damaged(info, "its compressed data ends early")
        if produced != info.file_size:
            raise self._damaged(info, f"it inflates to {produced:,} bytes, not {info.file_size:,}")

    def _account(self, info: zipfile.ZipInfo, produced: int, added: int, cap: int) -> None:
        self.total += added
        if produced > info.file_size:
            raise self._damaged(info, f"it inflates to more than the {info.file_size:,} declared")
        if produced > cap:
            raise SourceTooLargeError(
                str(self.path),
                f"zip member {info.filename!r} is over {size_text(cap)} uncompressed",
            )
        if self.total > limits.MAX_UNCOMPRESSED_BYTES:
            raise SourceTooLargeError(
                str(self.path),
                f"the zip inflates to over {size_text(limits.MAX_UNCOMPRESSED_BYTES)}",
            )

    def _raw(self, info: zipfile.ZipInfo) -> Iterator[bytes]:
        self.stream.seek(info.header_offset)
        header = self.stream.read(30)
        if len(header) < 30 or header[:4] != ZIP_MAGIC:
            raise self._damaged(info, "its local header is missing")
        name_length, extra_length = struct.unpack("<HH", header[26:30])
        self.stream.seek(info.header_offset + 30 + name_length + extra_length)
        remaining = info.compress_size
        while remaining:
            raw = self.stream.read(min(remaining, _RAW_CHUNK))
            if not raw:
                raise self._damaged(info, "the file is truncated")
            remaining -= len(raw)
            yield raw

    def _damaged(self, info: zipfile.ZipInfo, why: str) -> CorruptSourceError:
        return CorruptSourceError(
            str(self.path), f"zip member {info.filename!r} is damaged ({why}): save the file again"
        )


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def ascii_lower(name: str) -> str:
    """Lower-cased as calamine compares part names (ASCII letters only)."""
    return name.translate(_ASCII_LOWER)


def size_text(count: int) -> str:
    """``1.5 MB``: a byte count for messages."""
    for unit, scale in (("GB", 1024**3), ("MB", 1024**2), ("KB", 1024)):
        if count >= scale:
            return f"{count / scale:,.1f} {unit}"
    return f"{count} bytes"

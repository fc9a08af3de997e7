"""Decode a text file in one encoding, detected over the whole file as it streams by.

ERP exports come as UTF-8 (with or without a BOM), as UTF-16 with a BOM (Excel's "Unicode
text") or as cp1252 (Windows' Latin-1; the five bytes cp1252 leaves undefined decode as in
Latin-1). Without a BOM the file is read as UTF-8 until a line is not; if no line before it
held UTF-8 text, the file is cp1252 from the start (its earlier lines were plain ASCII, the
same in both, so it reads as written). A file mixing both, which decodes to mojibake whichever
is picked, is refused with the first line that breaks the encoding of the lines before it,
wherever that line is: every line is looked at as the csv parser pulls the text, one 1 MB chunk
at a time, so the file is read once and memory holds a chunk, not the file.
"""

from __future__ import annotations

import codecs
import io
import re
from typing import BinaryIO

from emissions_etl.errors import SourceEncodingError, SourceTooLargeError, UnsupportedSourceError
from emissions_etl.sources.limits import MAX_LINE_CHARS

_CHUNK_BYTES = 1024 * 1024
#: Byte-order marks, UTF-32 first (its little-endian BOM begins with UTF-16's).
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_WIDE = {"utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"}
#: A valid UTF-8 multi-byte sequence; in a cp1252 file it only appears as mojibake.
_UTF8_SEQUENCE = re.compile(
    rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}"
)
_NON_ASCII = re.compile(rb"[\x80-\xff]")
_LATIN1_FALLBACK = "emissions-etl-latin1"


def _latin1(error: UnicodeError) -> tuple[str, int]:
    """cp1252's five undefined bytes (0x81 0x8d 0x8f 0x90 0x9d) decode as Latin-1 does."""
    assert isinstance(error, UnicodeDecodeError)
    return error.object[error.start : error.end].decode("latin-1"), error.end


codecs.register_error(_LATIN1_FALLBACK, _latin1)


class DecodedText(io.TextIOBase):
    """The text of ``raw`` (a binary stream at its start), decoded and checked chunk by chunk.

    ``encoding`` forces a codec (a BOM is still skipped); otherwise it is detected. Line ends
    are kept as written (like ``newline=""``). Raises SourceEncodingError at the first line
    that cannot be decoded, SourceTooLargeError at a line over MAX_LINE_CHARS characters.
    """

    def __init__(self, raw: BinaryIO, *, source: str, encoding: str | None = None) -> None:
        super().__init__()
        self._raw = raw
        self._source = source
        self._pending = ""
        self._carry = b""
        self._eof = False
        self._lines = 0  # line ends decoded so far
        self._line_chars = 0  # characters of the (wide) line being decoded
        self._utf8_line: int | None = None  # first line holding non-ASCII UTF-8
        self._cp1252_line: int | None = None  # first line that is not UTF-8
        head = raw.read(4)
        bom, detected = next(((b, name) for b, name in _BOMS if head.startswith(b)), (b"", None))
        self._given = encoding is not None
        name = detected or "utf-8"
        if encoding is not None:
            try:
                name = codecs.lookup(encoding).name
            except LookupError:
                raise UnsupportedSourceError(source, f"unknown encoding {encoding!r}") from None
            name = "utf-8" if name == "utf-8-sig" else name
            if detected is not None and detected.startswith(name):  # utf-16 and utf-16-le...
                name = detected
            elif detected != name:
                bom = b""  # not this encoding's BOM: decode those bytes as given
        self._head = head[len(bom) :]
        self._declared = self._given or detected is not None
        self._codec = name
        self._wide = name in _WIDE
        self._decoder = codecs.getincrementaldecoder(name)("strict") if self._wide else None

    @property
    def encoding(self) -> str:  # type: ignore[override]
        """The codec used so far (``utf-8`` may still become ``cp1252`` when no BOM says)."""
        return self._codec

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> str:
        if size is None or size < 0:
            while self._fill():
                pass
            text, self._pending = self._pending, ""
            return text
        while len(self._pending) < size and self._fill():
            pass
        text, self._pending = self._pending[:size], self._pending[size:]
        return text

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        """One line with its ending (``\\n``, ``\\r\\n`` or ``\\r``), as ``newline=""`` gives."""
        while True:
            end = _line_end(self._pending)
            if end is not None and (end < len(self._pending) or self._eof):
                break
            if not self._fill():
                end = len(self._pending)
                break
        line, self._pending = self._pending[:end], self._pending[end:]
        return line

    def unread(self, text: str) -> None:
        """Put text back in front of what ``read`` returns next."""
        self._pending = text + self._pending

    def _fill(self) -> bool:
        """Decode the next chunk into ``_pending``; False at the end of the file."""
        if self._eof:
            return False
        raw = self._head + self._raw.read(_CHUNK_BYTES)
        self._head = b""
        if not raw:
            self._eof = True
        if self._wide:
            self._pending += self._decode_wide(raw)
            return True
        data = self._carry + raw
        cut = data.rfind(b"\n") + 1 if raw else len(data)
        if not cut:
            self._carry = data
            if len(data) > MAX_LINE_CHARS:
                raise self._too_long()
            return True
        block, self._carry = data[:cut], data[cut:]
        self._pending += self._decode_lines(block)
        self._lines += block.count(b"\n")
        return True

    def _decode_wide(self, raw: bytes) -> str:
        assert self._decoder is not None
        try:
            text = self._decoder.decode(raw, final=self._eof)
        except UnicodeDecodeError as error:
            before = raw[: error.start].decode(self._codec, "replace").count("\n")
            raise SourceEncodingError(
                self._source,
                f"line {self._lines + before + 1} is not valid {_label(self._codec)} "
                f"({error.reason}): save the file in one encoding",
            ) from None
        last = text.rfind("\n")
        self._line_chars = len(text) - last - 1 if last >= 0 else self._line_chars + len(text)
        if self._line_chars > MAX_LINE_CHARS:
            raise self._too_long()
        self._lines += text.count("\n")
        return text

    def _decode_lines(self, block: bytes) -> str:
        """Whole lines of an 8-bit or UTF-8 file."""
        if self._codec == "utf-8":
            try:
                text = block.decode("utf-8")
            except UnicodeDecodeError as error:
                if self._declared or not block[: error.start].isascii() or self._utf8_line:
                    raise self._not_utf8(block, error.start) from None
                self._codec = "cp1252"
                self._cp1252_line = self._line_of(block, error.start)
            else:
                if self._utf8_line is None and not block.isascii():
                    first = _NON_ASCII.search(block)
                    self._utf8_line = self._line_of(block, first.start() if first else 0)
                return text
        if self._codec == "cp1252" and not self._given:
            self._refuse_utf8_lines(block)
            return block.decode("cp1252", _LATIN1_FALLBACK)
        try:
            return block.decode(self._codec)
        except UnicodeDecodeError as error:
            raise SourceEncodingError(
                self._source,
                f"line {self._line_of(block, error.start)} is not {_label(self._codec)} "
                f"(byte 0x{block[error.start]:02x}): give the file's encoding or save it as "
                "UTF-8",
            ) from None

    def _refuse_utf8_lines(self, block: bytes) -> None:
        """A line that is wholly valid UTF-8 with non-ASCII text, in a cp1252 file, means the
        file mixes encodings."""
        position = 0
        while found := _UTF8_SEQUENCE.search(block, position):
            start = block.rfind(b"\n", 0, found.start()) + 1
            end = block.find(b"\n", found.end())
            end = len(block) if end < 0 else end
            try:
                block[start:end].decode("utf-8")
            except UnicodeDecodeError:
                position = end
                continue
            raise SourceEncodingError(
                self._source,
                f"line {self._line_of(block, found.start())} is UTF-8 but line "
                f"{self._cp1252_line} before it is not (byte 0x{block[found.start()]:02x}): "
                "save the file in one encoding",
            )

    def _not_utf8(self, block: bytes, position: int) -> SourceEncodingError:
        line = self._line_of(block, position)
        byte = block[position]
        if self._declared:
            why = "the byte-order mark says UTF-8" if not self._given else "UTF-8 was given"
            return SourceEncodingError(
                self._source, f"line {line} is not UTF-8 (byte 0x{byte:02x}) though {why}"
            )
        first = self._utf8_line or self._line_of(block, _NON_ASCII.search(block).start())  # type: ignore[union-attr]
        return SourceEncodingError(
            self._source,
            f"line {line} is not UTF-8 like the lines before it (byte 0x{byte:02x}; line "
            f"{first} is UTF-8): save the file in one encoding",
        )

    def _line_of(self, block: bytes, position: int) -> int:
        return self._lines + block.count(b"\n", 0, position) + 1

    def _too_long(self) -> SourceTooLargeError:
        return SourceTooLargeError(
            self._source,
            f"line {self._lines + 1} is longer than {MAX_LINE_CHARS:,} characters",
        )


def _line_end(text: str) -> int | None:
    """Index just past the first line ending of ``text``, or None when it has none."""
    newline, carriage = text.find("\n"), text.find("\r")
    if carriage >= 0 and (newline < 0 or carriage < newline):
        return carriage + 2 if text.startswith("\n", carriage + 1) else carriage + 1
    return newline + 1 if newline >= 0 else None


def _label(codec: str) -> str:
    return {"utf-8": "UTF-8", "cp1252": "cp1252 (Windows Latin-1)"}.get(
        codec, codec.upper() if codec.startswith("utf") else codec
    )

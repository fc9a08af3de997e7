"""Text files are decoded in one encoding, detected over every line as the file streams by."""

from __future__ import annotations

import io
import tracemalloc
from pathlib import Path

import pytest

from emissions_etl.errors import SourceEncodingError, SourceTooLargeError
from emissions_etl.resources import resource_spec
from emissions_etl.sources import read_source
from emissions_etl.sources.limits import MAX_LINE_CHARS
from emissions_etl.sources.text_stream import DecodedText


def decode(data: bytes, encoding: str | None = None) -> tuple[str, str]:
    text = DecodedText(io.BytesIO(data), source="f.csv", encoding=encoding)
    return text.read(), text.encoding


@pytest.mark.parametrize(
    ("data", "codec"),
    [
        ("a;Müller\n".encode(), "utf-8"),
        (b"\xef\xbb\xbf" + "a;Müller\n".encode(), "utf-8"),
        (b"\xff\xfe" + "a\tMüller\r\n".encode("utf-16-le"), "utf-16-le"),
        (b"\xfe\xff" + "a\tMüller\r\n".encode("utf-16-be"), "utf-16-be"),
        ("a;Müller\n".encode("cp1252"), "cp1252"),
    ],
)
def test_the_encoding_is_found_and_a_byte_order_mark_dropped(data: bytes, codec: str) -> None:
    text, encoding = decode(data)
    assert "Müller" in text
    assert not text.startswith("\ufeff")
    assert encoding == codec


def test_a_latin1_line_after_utf8_lines_is_refused_with_its_line() -> None:
    data = "h\nMüller\n".encode() + b"x\n" * 54 + "Gestión\n".encode("latin-1")
    with pytest.raises(SourceEncodingError, match=r"line 57 is not UTF-8 like the lines before"):
        decode(data)


def test_a_utf8_line_after_latin1_lines_is_refused_with_its_line() -> None:
    data = b"h\n" + "Gestión\n".encode("latin-1") + b"x\n" + "Müller\n".encode()
    with pytest.raises(SourceEncodingError, match=r"line 4 is UTF-8 but line 2 before it is not"):
        decode(data)


def test_mixed_lines_far_apart_are_found_whatever_the_chunk() -> None:
    data = "Müller\n".encode() + b"x" * 99 + b"\n" + b"y\n" * 600_000 + b"\xe9\n"
    assert len(data) > 1024 * 1024  # beyond any sample, and in a later chunk
    with pytest.raises(SourceEncodingError, match="line 600003 is not UTF-8"):
        decode(data)


def test_a_cp1252_line_whose_bytes_happen_to_pair_like_utf8_is_not_utf8() -> None:
    # „Fuß“ in cp1252: ß (0xdf) then “ (0x93) looks like a UTF-8 pair, the line does not.
    text, encoding = decode("h\nGestión\n„Fuß“\n".encode("cp1252"))
    assert text.splitlines()[2] == "„Fuß“"
    assert encoding == "cp1252"


def test_bytes_cp1252_leaves_undefined_decode_as_latin1_control_characters() -> None:
    text, _ = decode(b"h\ncaf\xe9 \x81\n")
    assert text.splitlines()[1] == "café \x81"


def test_a_given_encoding_is_used_strictly() -> None:
    with pytest.raises(SourceEncodingError, match="line 2 is not UTF-8"):
        decode(b"h\ncaf\xe9\n", encoding="utf-8")
    assert decode("h\ncafé\n".encode("latin-1"), encoding="latin-1")[0] == "h\ncafé\n"


def test_a_line_over_the_cap_is_refused_before_it_is_held() -> None:
    with pytest.raises(SourceTooLargeError, match="line 2 is longer than"):
        decode(b"h\n" + b"x" * (MAX_LINE_CHARS + 1))


def test_lines_keep_their_endings_as_written() -> None:
    text = DecodedText(io.BytesIO(b"a\r\nb\rc\nd"), source="f.csv")
    assert [text.readline() for _ in range(5)] == ["a\r\n", "b\r", "c\n", "d", ""]


@pytest.mark.parametrize(
    "lines_before",
    [3, 3_200, 12_000, 40_000],  # in the head read, past 256 KB, past 1 MB, past 3 MB
    ids=["top", "past-256KB", "past-1MB", "past-3MB"],
)
def test_a_change_of_encoding_is_refused_naming_its_line_wherever_it_is(
    tmp_path: Path, lines_before: int
) -> None:
    line = "Madrid Warehouse;RSU;2026-01-01;2026-01-31;120,5;kg;200101;R3;Gestora Norte;;\n"
    header = "Facility;Identification name;Start date;End date;Base quantity;Unit;LER code;"
    header += "RD code;Destination;Description;Client row id\n"
    data = (header + line.replace("Gestora", "Müller")).encode()
    data += line.encode() * lines_before + line.replace("Gestora", "Gestión").encode("cp1252")
    data += line.encode() * 100
    path = tmp_path / "w.csv"
    path.write_bytes(data)
    wastes = resource_spec("wastes")
    bad_line = lines_before + 3

    with pytest.raises(SourceEncodingError, match=rf"line {bad_line} is not UTF-8 like the lines"):
        for _ in read_source(path, expected_columns=wastes.columns, batch_rows=5_000):
            pass


def test_a_file_ascii_until_a_late_cp1252_line_is_cp1252_and_read_as_written() -> None:
    # Nothing before it says UTF-8: the file decodes one way only, with no mojibake.
    data = b"h\n" + b"x\n" * 700_000 + "Gestión\n".encode("cp1252")
    text, encoding = decode(data)
    assert text.endswith("Gestión\n")
    assert encoding == "cp1252"


def drain(text: DecodedText) -> None:
    while text.read(256 * 1024):  # as the csv parser reads it
        pass


def test_the_whole_file_is_checked_holding_a_chunk_not_the_file() -> None:
    data = "Müller\n".encode() + (b"0123456789" * 100 + b"\n") * 32_000 + b"\xe9\n"  # 32 MB
    text = DecodedText(io.BytesIO(data), source="f.csv")
    tracemalloc.start()
    try:
        with pytest.raises(SourceEncodingError, match="line 32002 is not UTF-8"):
            drain(text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # A chunk (1 MB) and its decoded text at a time: never the file, let alone twice.
    assert peak < len(data) / 4, peak

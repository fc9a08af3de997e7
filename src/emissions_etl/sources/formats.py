"""What a file is, from its content: people and ERPs name files loosely (SAP calls an HTML table
``.xls``, a colleague renames an xlsx to ``.csv``), so the name decides nothing the bytes can.

* a zip: an xlsx (``xl/workbook.xml``), an xlsb (``xl/workbook.bin``) or an OpenDocument
  spreadsheet (its ``mimetype``); a Word or PowerPoint file is named as such;
* an OLE compound file (``D0 CF 11 E0``): a legacy .xls (a ``Workbook`` stream), or an xlsx or
  xlsb saved with a password (an ``EncryptedPackage`` stream), refused as password-protected;
* text starting with markup that holds ``<html`` or ``<table``: an HTML table;
* any other text: a csv (delimiter and encoding are found by ``csv_reader``).
"""

from __future__ import annotations

import codecs
import enum
import re
from pathlib import Path
from typing import BinaryIO

from emissions_etl.errors import EncryptedSourceError, UnsupportedSourceError
from emissions_etl.sources.ole_package import OLE_MAGIC, open_compound
from emissions_etl.sources.xls_package import WORKBOOK_STREAMS
from emissions_etl.sources.zip_package import ZIP_MAGIC, Inflater, open_members
from emissions_etl.storage import AnyPath, local_file, open_binary


class SourceFormat(enum.Enum):
    """A format ``read_source`` reads; the value is the suffix calamine knows it by."""

    XLSX = ".xlsx"
    XLSB = ".xlsb"
    XLS = ".xls"
    ODS = ".ods"
    HTML = ".html"
    TEXT = ".csv"

    @property
    def is_workbook(self) -> bool:
        """Read by calamine, sheet by sheet."""
        return self in WORKBOOK_FORMATS


WORKBOOK_FORMATS = frozenset(
    {SourceFormat.XLSX, SourceFormat.XLSB, SourceFormat.XLS, SourceFormat.ODS}
)
#: The suffixes of the files read (the inbox picks files by them; content decides the rest).
READ_SUFFIXES = (".xlsx", ".xlsm", ".xlsb", ".xls", ".ods", ".htm", ".html", ".csv", ".txt",
                 ".tsv")  # fmt: skip
#: The suffix each of calamine's readers is chosen by when it opens a file by its path.
CALAMINE_SUFFIXES = {
    ".xls": SourceFormat.XLS, ".xla": SourceFormat.XLS, ".xlsx": SourceFormat.XLSX,
    ".xlsm": SourceFormat.XLSX, ".xlam": SourceFormat.XLSX, ".xlsb": SourceFormat.XLSB,
    ".ods": SourceFormat.ODS,
}  # fmt: skip
_ODS_MIMETYPE = b"application/vnd.oasis.opendocument.spreadsheet"
_OTHER_ZIPS = {
    "word/document.xml": "a Word document",
    "ppt/presentation.xml": "a PowerPoint presentation",
}
_OTHER_COMPOUNDS = {
    "WordDocument": "a Word 97-2003 document",
    "PowerPoint Document": "a PowerPoint 97-2003 presentation",
}
_SNIFF_BYTES = 64 * 1024
_HTML = re.compile(rb"<(?:!doctype\s+html|html[\s>]|table[\s>]|body[\s>]|head[\s>])")
_XML_SPREADSHEET = b"urn:schemas-microsoft-com:office:spreadsheet"
_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"),
         (codecs.BOM_UTF16_BE, "utf-16-be"))  # fmt: skip
NOT_READ = "not a workbook (xlsx, xls, xlsb, ods), an HTML table or a csv file"


def detect_format(path: AnyPath) -> SourceFormat:
    """The format of the file at ``path``, from its content (see the module's docstring); a
    one-line InputError for a container that holds no workbook, a password-protected one, or
    a binary file whose name says it is no spreadsheet either. An object in a store is sniffed
    from its first bytes; a container is looked into in the local copy its reader needs anyway
    (a csv is never fetched whole)."""
    with open_binary(path) as stream:
        head = stream.read(_SNIFF_BYTES)
    if head.startswith(ZIP_MAGIC):
        local = local_file(path)
        with local.open("rb") as stream:
            return _zip_format(local, stream)
    if head.startswith(OLE_MAGIC):
        return _compound_format(local_file(path))
    if _is_html(path, head):
        return SourceFormat.HTML
    suffix = path.suffix.lower()
    if suffix and suffix not in READ_SUFFIXES:
        raise UnsupportedSourceError(str(path), f"{NOT_READ} (suffix {suffix!r})")
    return SourceFormat.TEXT


def _zip_format(path: Path, stream: BinaryIO) -> SourceFormat:
    members = open_members(path, stream)
    if "xl/workbook.xml" in members:
        return SourceFormat.XLSX
    if "xl/workbook.bin" in members:
        return SourceFormat.XLSB
    if "mimetype" in members:
        mimetype = Inflater(path, stream, members).read_small(members["mimetype"], 1024)
        if mimetype.startswith(_ODS_MIMETYPE):
            return SourceFormat.ODS
        kind = mimetype.decode("ascii", "replace").strip()
        raise UnsupportedSourceError(str(path), f"{NOT_READ}: an OpenDocument file of {kind}")
    if "content.xml" in members:
        return SourceFormat.ODS  # calamine says what is missing
    kind = next((kind for part, kind in _OTHER_ZIPS.items() if part in members), "a zip archive")
    raise UnsupportedSourceError(str(path), f"{NOT_READ}: {kind}")


def _compound_format(path: Path) -> SourceFormat:
    names = open_compound(path).names
    if "EncryptedPackage" in names:
        raise EncryptedSourceError(
            str(path), "the workbook is password-protected: remove the password and save again"
        )
    if any(name in names for name in WORKBOOK_STREAMS):
        return SourceFormat.XLS
    kind = next((kind for name, kind in _OTHER_COMPOUNDS.items() if name in names), None)
    raise UnsupportedSourceError(
        str(path), f"{NOT_READ}: {kind or 'an OLE compound file that holds no workbook'}"
    )


def _is_html(path: AnyPath, head: bytes) -> bool:
    """Markup that holds an HTML element near its top (after any byte-order mark, white space,
    XML declaration or comment); SpreadsheetML 2003 (XML that Excel also opens) is refused."""
    text = head
    for bom, encoding in _BOMS:
        if head.startswith(bom):
            text = head[len(bom) :].decode(encoding, "replace").encode("utf-8", "replace")
            break
    text = text.lstrip().lower()
    if not text.startswith(b"<"):
        return False
    if _XML_SPREADSHEET in text:
        raise UnsupportedSourceError(
            str(path), "an XML Spreadsheet 2003 file is not read: save it as .xlsx (Excel Workbook)"
        )
    return _HTML.search(text) is not None

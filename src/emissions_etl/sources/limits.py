"""The caps every input is held to, so that no file can make a reader exhaust memory or time.

A file over a cap is refused whole with one line naming the cap (``SourceTooLargeError``);
the figures are chosen so that any genuine export fits with room to spare.

Workbooks are checked before calamine sees them: calamine allocates one dense grid over the
used range (about 32 bytes a cell, ~100 with the cells themselves), so a single value in
``XFD1048576`` asks for 549 GB. The used range counts cells that hold a value, as calamine does.
"""

from __future__ import annotations

#: Columns of a sheet's used range (Excel allows 16,384; exports use a few dozen).
MAX_COLUMNS = 1_000
#: Rows of a sheet's used range: Excel's own maximum.
MAX_ROWS = 1_048_576
#: Cells of a sheet's used range (rows x columns): Excel's full height x 11 columns fits;
#: about 1.2 GB in the reader for a sheet filled with data.
MAX_CELLS = 12_000_000

#: Characters in one cell: Excel's own limit (a longer csv cell was never typed by a person).
MAX_CELL_CHARS = 32_767
#: Characters in one header cell.
MAX_HEADER_CHARS = 1_000
#: Characters in one physical line of a csv (a line cannot hold more cells than that).
MAX_LINE_CHARS = 4 * 1024 * 1024

#: Merged ranges in a sheet (calamine keeps each; the reader fills each one per batch).
MAX_MERGED_RANGES = 100_000

#: Uncompressed bytes of all the members of a workbook's zip, as declared and as inflated.
MAX_UNCOMPRESSED_BYTES = 2 * 1024**3
#: Uncompressed / compressed size of one member above ``RATIO_FLOOR_BYTES``. Spreadsheet XML
#: compresses 10-30x; deflate's maximum is ~1,030x, which zip bombs use.
MAX_COMPRESSION_RATIO = 200
#: Members smaller than this are not judged by their ratio (tiny parts compress a lot).
RATIO_FLOOR_BYTES = 1024 * 1024
#: Members in the zip (an xlsx holds a dozen parts plus a few per sheet).
MAX_MEMBERS = 10_000
#: Uncompressed bytes of one sheet's XML.
MAX_SHEET_XML_BYTES = 1024**3
#: Uncompressed bytes of the shared-strings part, and the strings it holds.
MAX_SHARED_STRINGS_BYTES = 256 * 1024**2
MAX_SHARED_STRINGS = 3_000_000
#: Uncompressed bytes of the other parts calamine reads whole (workbook, styles, relations).
MAX_PART_BYTES = 64 * 1024**2
#: Bytes of a compound file's stream calamine reads whole (an .xls's workbook stream).
MAX_STREAM_BYTES = 1024**3


def column_letters(index: int) -> str:
    """Spreadsheet column letters of a 0-based column index: 0 -> A, 26 -> AA."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters

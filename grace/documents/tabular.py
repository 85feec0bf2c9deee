"""CSV → one section per row group, the header repeated in each (stdlib ``csv``)."""

from __future__ import annotations

import codecs
import csv
import itertools
from collections.abc import Iterator
from pathlib import Path

from grace.documents.limits import DEFAULT_LIMITS, DocumentLimits
from grace.documents.types import ConvertError, Section

__all__ = ["ROWS_PER_CHUNK", "convert_csv", "rows_to_sections"]

ROWS_PER_CHUNK = 1
"""Rows per chunk: one, so a question about one row retrieves and cites exactly that row."""


def rows_to_sections(rows: list[list[str]], sheet: str = "") -> list[Section]:
    """Header + each row group as ``column: value`` lines; rows numbered as in the file.

    Blank rows are skipped but still counted, so a row keeps the number a spreadsheet shows.
    """
    numbered = [(n, r) for n, r in enumerate(rows, start=1) if any(cell.strip() for cell in r)]
    if len(numbered) < 2:
        raise ConvertError("empty table (no data rows under the header)")
    header, data = numbered[0][1], numbered[1:]
    sections: list[Section] = []
    prefix = f"{sheet} " if sheet else ""
    for start in range(0, len(data), ROWS_PER_CHUNK):
        group = data[start : start + ROWS_PER_CHUNK]
        first, last = group[0][0], group[-1][0]
        lines = [
            "; ".join(f"{h.strip()}: {v.strip()}" for h, v in zip(header, row, strict=False))
            for _, row in group
        ]
        label = f"row {first}" if first == last else f"rows {first}-{last}"
        meta: dict[str, str | int] = {"row": first}
        if sheet:
            meta["sheet"] = sheet
        sections.append(Section(text="\n".join(lines), location=prefix + label, metadata=meta))
    return sections


_BOMS = ((b"\xef\xbb\xbf", "utf-8-sig"), (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"))
"""Byte-order mark → encoding (a CSV without one is read as UTF-8)."""
_BLOCK = 1 << 16
_MAX_LINE = 8_000_000
"""Longest line read (characters): a file of one huge line is refused, not split in memory."""


def _encoding(path: Path) -> str:
    with path.open("rb") as head:
        start = head.read(4)
    return next((name for bom, name in _BOMS if start.startswith(bom)), "utf-8")


def _lines(path: Path, encoding: str) -> Iterator[str]:
    """The file's lines (each with its line end), decoded block by block, never all at once.

    Raises:
        ConvertError: a byte sequence the encoding does not allow (its offset named), or a
            line longer than any table's (``_MAX_LINE`` characters).

    """
    decoder = codecs.getincrementaldecoder(encoding)()
    name = "UTF-16" if encoding == "utf-16" else "UTF-8"
    offset, rest = 0, ""
    with path.open("rb") as stream:
        while True:
            block = stream.read(_BLOCK)
            try:
                text = decoder.decode(block, final=not block)
            except UnicodeDecodeError as exc:
                raise ConvertError(
                    f"not valid {name} (byte {offset + exc.start}); save the CSV as UTF-8"
                ) from None
            offset += len(block)
            lines = (rest + text).split("\n")
            rest = lines.pop()
            if len(rest) > _MAX_LINE:
                raise ConvertError(f"a line of over {_MAX_LINE:,} characters: not a table")
            yield from (line + "\n" for line in lines)
            if not block:
                break
    if rest:
        yield rest


def _dialect(head: str) -> type[csv.Dialect] | csv.Dialect:
    try:
        return csv.Sniffer().sniff(head, delimiters=",;\t")
    except csv.Error:
        return csv.excel


def convert_csv(path: Path, limits: DocumentLimits = DEFAULT_LIMITS) -> list[Section]:
    """Read a CSV file: UTF-8, or UTF-8 / UTF-16 with a byte-order mark.

    Rows are streamed and counted against the per-file limits as they are read (rows:
    ``max_elements``, cells: ``max_cells``), so a file of millions of tiny rows stops at
    the limit instead of being held in memory whole.

    Raises:
        ConvertError: Undecodable, empty, or over a limit (the setting named).

    """
    lines = _lines(path, _encoding(path))
    head: list[str] = []
    for line in lines:
        head.append(line)
        if sum(map(len, head)) >= 4096:
            break
    rows: list[list[str]] = []
    cells = 0
    for row in csv.reader(itertools.chain(head, lines), _dialect("".join(head)[:4096])):
        cells += len(row)
        if len(rows) >= limits.max_elements:
            raise ConvertError(
                f"over {limits.max_elements:,} rows (setting retrieval.max_elements_per_file)"
            )
        if cells > limits.max_cells:
            raise ConvertError(
                f"over {limits.max_cells:,} cells (setting retrieval.max_cells_per_file)"
            )
        rows.append(row)
    return rows_to_sections(rows)

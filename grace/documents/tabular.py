"""CSV → one section per row group, the header repeated in each (stdlib ``csv``)."""

from __future__ import annotations

import csv
import io
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


def convert_csv(path: Path, limits: DocumentLimits = DEFAULT_LIMITS) -> list[Section]:
    """Read a UTF-8 (optionally BOM-prefixed) CSV file.

    Raises:
        ConvertError: Undecodable or empty file.

    """
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ConvertError(f"not valid UTF-8 (byte {exc.start}); save the CSV as UTF-8") from exc
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    return rows_to_sections(list(csv.reader(io.StringIO(text), dialect)))

"""XLSX → one section per row group of each sheet, header repeated (openpyxl, read-only)."""

from __future__ import annotations

import zipfile
from pathlib import Path

from grace.documents.tabular import rows_to_sections
from grace.documents.types import ConvertError, Section

__all__ = ["convert_xlsx"]


def convert_xlsx(path: Path) -> list[Section]:
    """Every sheet's first row is its header; cached formula values are read, not formulas.

    Raises:
        ConvertError: Not a readable workbook, or no sheet with data rows.

    """
    import openpyxl

    try:
        workbook = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, ValueError, OSError) as exc:
        raise ConvertError(f"corrupt or unreadable XLSX ({type(exc).__name__})") from exc
    sections: list[Section] = []
    try:
        for sheet in workbook.worksheets:
            rows = [
                ["" if cell is None else str(cell) for cell in row]
                for row in sheet.iter_rows(values_only=True)
            ]
            try:
                sections.extend(rows_to_sections(rows, sheet=sheet.title))
            except ConvertError:
                continue  # an empty sheet next to full ones is not an error
    finally:
        workbook.close()
    if not sections:
        raise ConvertError("empty workbook (no sheet with a header and data rows)")
    return sections

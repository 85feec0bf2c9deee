"""XLSX → one section per row group of each sheet, header repeated (openpyxl, read-only)."""

from __future__ import annotations

import zipfile
from pathlib import Path

from grace.documents.limits import DEFAULT_LIMITS, DocumentLimits
from grace.documents.tabular import rows_to_sections
from grace.documents.types import ConvertError, Section

__all__ = ["convert_xlsx"]


def convert_xlsx(path: Path, limits: DocumentLimits = DEFAULT_LIMITS) -> list[Section]:
    """Every sheet's first row is its header; cached formula values are read, not formulas.

    Raises:
        ConvertError: Not a readable workbook, or no sheet with data rows.

    """
    import openpyxl

    # A stream, not the name: openpyxl judges a name by its suffix, and ingest reads the open
    # file through /proc/self/fd/N (grace.retrieval.opening).
    stream = path.open("rb")
    try:
        workbook = openpyxl.load_workbook(stream, read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, ValueError, OSError) as exc:
        stream.close()
        raise ConvertError(f"corrupt or unreadable XLSX ({type(exc).__name__})") from exc
    sections: list[Section] = []
    try:
        cells = 0
        for sheet in workbook.worksheets:
            # read-only mode pads every row to the declared <dimension>: trust the cells present
            sheet.reset_dimensions()
            rows = []
            for row in sheet.iter_rows(values_only=True):
                cells += len(row)
                if cells > limits.max_cells:
                    raise ConvertError(
                        f"over {limits.max_cells:,} cells (setting retrieval.max_cells_per_file)"
                    )
                rows.append(["" if cell is None else str(cell) for cell in row])
            try:
                sections.extend(rows_to_sections(rows, sheet=sheet.title))
            except ConvertError:
                continue  # an empty sheet next to full ones is not an error
    finally:
        workbook.close()
        stream.close()
    if not sections:
        raise ConvertError("empty workbook (no sheet with a header and data rows)")
    return sections

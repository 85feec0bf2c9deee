"""DOCX → one section per heading block, located by its heading path (python-docx)."""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

from grace.documents.limits import DEFAULT_LIMITS, DocumentLimits
from grace.documents.tables import markdown_table
from grace.documents.types import ConvertError, Section

__all__ = ["convert_docx"]


def _heading_level(style_name: str) -> int:
    """``Heading 2`` → 2, ``Title`` → 1, anything else → 0 (body text)."""
    if style_name == "Title":
        return 1
    if style_name.startswith("Heading "):
        tail = style_name.removeprefix("Heading ").strip()
        return int(tail) if tail.isdigit() else 0
    return 0


def _markdown_tables(document: Any) -> list[str]:
    """The document's tables as Markdown tables (a header row where Word formats one)."""
    tables = []
    for table in document.tables:
        rows = [[c.text for c in row.cells] for row in table.rows]
        tables.append(markdown_table(rows, header=_has_header_row(table)))
    return tables


def _has_header_row(table: Any) -> bool:
    """Whether Word formats the table's first row as its header.

    The table's look (``w:tblLook``: ``w:firstRow``, or bit 0x20 of ``w:val``), on for a table
    Word inserts, or a first row repeated as the header row (``w:tblHeader``).
    """
    ns = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
    tbl = table._tbl
    look = tbl.tblPr.find(f"{ns}tblLook") if tbl.tblPr is not None else None
    if look is not None:
        first = look.get(f"{ns}firstRow")
        if first is not None:
            return first in ("1", "true", "on")
        value = look.get(f"{ns}val") or ""
        if value.isalnum():
            try:
                return bool(int(value, 16) & 0x20)
            except ValueError:  # not hexadecimal: no header said
                return False
    rows = tbl.tr_lst
    return bool(rows) and rows[0].find(f"{ns}trPr/{ns}tblHeader") is not None


def convert_docx(path: Path, limits: DocumentLimits = DEFAULT_LIMITS) -> list[Section]:
    """Paragraphs grouped under their headings; tables become Markdown tables.

    Raises:
        ConvertError: Not a readable DOCX archive.

    """
    import docx
    from docx.opc.exceptions import PackageNotFoundError

    try:
        document = docx.Document(str(path))
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError, OSError) as exc:
        raise ConvertError(f"corrupt or unreadable DOCX ({type(exc).__name__})") from exc
    sections: list[Section] = []
    path_titles: list[str] = []
    body: list[str] = []

    def flush() -> None:
        if body:
            heading = " > ".join(path_titles)
            head = "\n".join(f"{'#' * (i + 1)} {t}" for i, t in enumerate(path_titles))
            text = "\n\n".join([head, *body] if head else body)
            meta: dict[str, str | int] = {"heading_path": heading} if heading else {}
            sections.append(
                Section(text=text, location=f"§ {heading}" if heading else "", metadata=meta)
            )
            body.clear()

    style_names: dict[object, str] = {}

    def style_name(para: Any) -> str:
        """The paragraph's style name, looked up once per style id.

        python-docx finds the default style by scanning every style, for each paragraph:
        300 k paragraphs took 500 s.
        """
        style_id = getattr(para._p, "style", para)  # noqa: SLF001 — the pStyle id, or None
        if style_id not in style_names:
            style = para.style
            style_names[style_id] = style.name if style is not None else ""
        return style_names[style_id]

    for para in document.paragraphs:
        text = para.text.strip()
        if not text:
            continue
        level = _heading_level(style_name(para))
        if level:
            flush()
            del path_titles[level - 1 :]
            path_titles.append(text)
        else:
            body.append(text)
    body.extend(_markdown_tables(document))
    flush()
    if not sections:
        raise ConvertError("empty document (no text)")
    return sections

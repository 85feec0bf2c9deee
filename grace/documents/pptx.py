"""PPTX → one section per slide, located by slide number (python-pptx)."""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

from grace.documents.limits import DEFAULT_LIMITS, DocumentLimits
from grace.documents.tables import markdown_table
from grace.documents.types import ConvertError, Section

__all__ = ["convert_pptx"]


def _shape_texts(shape: Any) -> list[str]:
    """Text of a shape: its text frame, or its table as a Markdown table."""
    if getattr(shape, "has_text_frame", False) and shape.text_frame.text.strip():
        return [shape.text_frame.text.strip()]
    if getattr(shape, "has_table", False):
        table = shape.table  # ``first_row``: PowerPoint formats the first row as the header
        rows = [[c.text for c in row.cells] for row in table.rows]
        return [markdown_table(rows, header=bool(table.first_row))]
    return []


def convert_pptx(path: Path, limits: DocumentLimits = DEFAULT_LIMITS) -> list[Section]:
    """Slide texts (titles, bodies, tables, speaker notes) with ``slide N`` locations.

    Raises:
        ConvertError: Not a readable presentation, or no text on any slide.

    """
    from pptx import Presentation
    from pptx.exc import PackageNotFoundError

    try:
        deck = Presentation(str(path))
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError, OSError) as exc:
        raise ConvertError(f"corrupt or unreadable PPTX ({type(exc).__name__})") from exc
    sections: list[Section] = []
    for number, slide in enumerate(deck.slides, start=1):
        texts = [t for shape in slide.shapes for t in _shape_texts(shape)]
        if slide.has_notes_slide and slide.notes_slide.notes_text_frame is not None:
            notes = slide.notes_slide.notes_text_frame.text.strip()
            if notes:
                texts.append(notes)
        if texts:
            sections.append(
                Section(
                    text="\n\n".join(texts),
                    location=f"slide {number}",
                    metadata={"slide": number},
                )
            )
    if not sections:
        raise ConvertError("no text on any slide (images only?); OCR is not included")
    return sections

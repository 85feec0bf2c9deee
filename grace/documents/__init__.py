"""Document converters: a table keyed by file suffix, each entry a small module.

A converter turns one file into :class:`Section` objects (text + where it came from: PDF
page, PPTX slide, DOCX heading path, CSV / XLSX sheet and row). Each module imports its
library inside the function, so ``grace --help`` stays fast. Markdown, text and HTML stay in
:mod:`grace.retrieval.ingest` (paragraph chunking, unchanged); everything else is here.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from grace.documents.docx import convert_docx
from grace.documents.limits import DEFAULT_LIMITS, DocumentLimits, check_archive
from grace.documents.pdf import convert_pdf
from grace.documents.pptx import convert_pptx
from grace.documents.tabular import convert_csv
from grace.documents.types import ConvertError, Section
from grace.documents.xlsx import convert_xlsx

__all__ = [
    "CONVERTERS",
    "ConvertError",
    "Converter",
    "DocumentLimits",
    "Section",
    "convert",
]

Converter = Callable[[Path, DocumentLimits], list[Section]]
"""Reads one file within the per-file limits; raises :class:`ConvertError` (one line)."""

CONVERTERS: dict[str, Converter] = {
    ".pdf": convert_pdf,
    ".docx": convert_docx,
    ".pptx": convert_pptx,
    ".csv": convert_csv,
    ".xlsx": convert_xlsx,
}
"""Suffix (lower case, with dot) → converter. Add a format by adding a row."""


def convert(
    path: Path, limits: DocumentLimits = DEFAULT_LIMITS, suffix: str | None = None
) -> list[Section]:
    """Convert ``path`` with the converter for its suffix, within ``limits``.

    ``suffix`` names the type when ``path`` does not show it (an open file's
    ``/proc/self/fd/N``, as ingest reads it).

    An Office file's archive is checked first (:func:`~grace.documents.limits.check_archive`):
    nothing is parsed from a file that expands or multiplies past the limits.

    Raises:
        ConvertError: No converter for the suffix, a limit exceeded, or the converter failed.

    """
    suffix = (suffix or path.suffix).lower()
    converter = CONVERTERS.get(suffix)
    if converter is None:
        raise ConvertError(f"unsupported file type {suffix or '(none)'!r}")
    check_archive(path, limits, suffix)
    try:
        return converter(path, limits)
    except ConvertError:
        raise
    except Exception as exc:  # noqa: BLE001 - a parser bug on one file must not stop the ingest
        raise ConvertError(f"could not convert ({type(exc).__name__}: {exc})"[:300]) from exc

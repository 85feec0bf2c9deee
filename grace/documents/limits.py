"""Bounded work per file: a small file must not exhaust the machine.

Office files are zip archives of XML: a 1.5 MB DOCX can hold a 1.5 GB text run, a 357 KB one
three million empty paragraphs, a 616 KB XLSX five million shared strings. Before a parser
builds anything in memory, :func:`check_archive` reads the archive's directory (the declared
uncompressed sizes) and streams its XML parts once, counting the elements that become
paragraphs, rows and strings. Over a limit, the file is skipped with one line naming the
limit and the setting that raises it; the rest of the folder goes on. The limits are settings
(``retrieval.max_uncompressed_mb``, ``retrieval.max_elements_per_file``,
``retrieval.max_cells_per_file``, ``retrieval.max_chunks_per_file``).
"""

from __future__ import annotations

import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

from grace.documents.types import ConvertError

__all__ = ["DEFAULT_LIMITS", "DocumentLimits", "check_archive"]


@dataclass(frozen=True)
class DocumentLimits:
    """Per-file caps (defaults: ``retrieval`` settings of the same names)."""

    max_uncompressed_mb: float = 50.0
    """Sum of an Office file's parts, uncompressed."""
    max_elements: int = 500_000
    """Paragraphs (DOCX, PPTX), rows and shared strings (XLSX) in one file."""
    max_cells: int = 2_000_000
    """Spreadsheet cells actually present (not the declared dimension)."""
    max_chunks: int = 20_000
    """Chunks one file may become."""


DEFAULT_LIMITS = DocumentLimits()
"""The caps when no settings are given."""

_ELEMENTS: dict[str, tuple[re.Pattern[str], re.Pattern[bytes]]] = {
    ".docx": (re.compile(r"^word/.*\.xml$"), re.compile(rb"<w:p[ />]")),
    ".pptx": (re.compile(r"^ppt/(slides|notesSlides)/.*\.xml$"), re.compile(rb"<a:p[ />]")),
    ".xlsx": (
        re.compile(r"^xl/(sharedStrings|worksheets/.*)\.xml$"),
        re.compile(rb"<(si|row)[ />]"),
    ),
}
"""Per Office format: which parts to scan and which element opens a paragraph / row / string."""
_BLOCK = 1 << 20


def check_archive(path: Path, limits: DocumentLimits, suffix: str | None = None) -> None:
    """Refuse an Office file whose parts expand or multiply past ``limits`` (ConvertError).

    ``suffix``: the file's type when ``path`` does not show it (an open file's
    ``/proc/self/fd/N``).
    """
    suffix = (suffix or path.suffix).lower()
    if suffix not in _ELEMENTS:
        return
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
            total = sum(m.file_size for m in members)
            if total > limits.max_uncompressed_mb * 1e6:
                raise ConvertError(
                    f"expands to {total / 1e6:,.0f} MB, over the per-file cap of "
                    f"{limits.max_uncompressed_mb:g} MB (setting retrieval.max_uncompressed_mb)"
                )
            parts, element = _ELEMENTS[suffix]
            count = 0
            for member in members:
                if parts.match(member.filename):
                    count += _count(archive, member, element, limits.max_elements - count)
    except zipfile.BadZipFile as exc:
        raise ConvertError(f"corrupt or unreadable {suffix[1:].upper()} ({exc})") from None
    if count > limits.max_elements:
        raise ConvertError(
            f"over {limits.max_elements:,} paragraphs / rows / strings (setting "
            "retrieval.max_elements_per_file)"
        )


def _count(
    archive: zipfile.ZipFile, member: zipfile.ZipInfo, element: re.Pattern[bytes], budget: int
) -> int:
    """Occurrences of ``element`` in one part, streamed; stops once past ``budget``."""
    found, tail = 0, b""
    with archive.open(member) as stream:
        while block := stream.read(_BLOCK):
            data = tail + block
            found += len(element.findall(data)) - len(element.findall(tail))
            tail = data[-16:]
            if found > budget:
                break
    return found

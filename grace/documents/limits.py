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
from collections import Counter
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

@dataclass(frozen=True)
class _Elements:
    """What to count in one Office format: by namespace, whatever prefix a file binds it to."""

    parts: re.Pattern[str]
    """The archive members to scan."""
    tags: re.Pattern[bytes]
    """An element of interest: ``<`` optional ``prefix:`` and its local name."""
    namespace: bytes
    """A piece of its namespace URI (``wordprocessingml``)."""
    usual: bytes
    """The prefix the format's own files use (``w``; ``b""``: none), counted even unbound."""


def _tags(*names: str) -> re.Pattern[bytes]:
    return re.compile(rb"<(?:([\w.-]+):)?(?:" + "|".join(names).encode() + rb")[\s/>]")


_ELEMENTS: dict[str, _Elements] = {
    ".docx": _Elements(re.compile(r"^word/.*\.xml$"), _tags("p"), b"wordprocessingml", b"w"),
    ".pptx": _Elements(
        re.compile(r"^ppt/(slides|notesSlides)/.*\.xml$"), _tags("p"), b"drawingml", b"a"
    ),
    ".xlsx": _Elements(
        re.compile(r"^xl/(sharedStrings|worksheets/.*)\.xml$"),
        _tags("si", "row"),
        b"spreadsheetml",
        b"",
    ),
}
"""Per Office format: which parts to scan and which elements open a paragraph / row / string.
They are counted by namespace: ``<q:p xmlns:q="…wordprocessingml…">`` is a paragraph too."""
_DECLARATION = re.compile(rb"""xmlns(?::([\w.-]+))?\s*=\s*["']([^"']*)["']""")
_TAIL = 512
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
            elements = _ELEMENTS[suffix]
            count = 0
            for member in members:
                if elements.parts.match(member.filename):
                    count += _count(archive, member, elements, limits.max_elements - count)
    except zipfile.BadZipFile as exc:
        raise ConvertError(f"corrupt or unreadable {suffix[1:].upper()} ({exc})") from None
    if count > limits.max_elements:
        raise ConvertError(
            f"over {limits.max_elements:,} paragraphs / rows / strings (setting "
            "retrieval.max_elements_per_file)"
        )


def _count(
    archive: zipfile.ZipFile, member: zipfile.ZipInfo, elements: _Elements, budget: int
) -> int:
    """Elements of ``elements``' namespace in one part, streamed; stops once past ``budget``.

    Each prefix's elements are counted, and those of the prefixes bound to the namespace
    (anywhere in the part, and the format's usual one) are the part's count: a prefix bound
    late or twice is counted, never missed.
    """
    per_prefix: Counter[bytes] = Counter()
    bound = {elements.usual}
    tail = b""
    with archive.open(member) as stream:
        while block := stream.read(_BLOCK):
            data = tail + block
            per_prefix.update(m.group(1) or b"" for m in elements.tags.finditer(data))
            per_prefix.subtract(m.group(1) or b"" for m in elements.tags.finditer(tail))
            bound.update(
                m.group(1) or b""
                for m in _DECLARATION.finditer(data)
                if elements.namespace in m.group(2)
            )
            tail = data[-_TAIL:]
            if sum(per_prefix[p] for p in bound) > budget:
                break
    return sum(per_prefix[p] for p in bound)

"""What a converter returns: text sections that know where they came from."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["ConvertError", "Section"]


@dataclass(frozen=True)
class Section:
    """One located piece of a document (a PDF page, a DOCX heading block, a CSV row group)."""

    text: str
    """The section's text (paragraphs separated by blank lines)."""
    location: str = ""
    """Human-readable place in the file, e.g. ``p. 3`` or ``rows 2-4``; empty when unknown."""
    metadata: dict[str, str | int] = field(default_factory=dict)
    """Structured location (``page``, ``heading_path``, ``rows``) stored with each chunk."""


class ConvertError(Exception):
    """A file could not be converted; the message is one line for the user."""

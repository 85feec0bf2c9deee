"""PDF → one section per page (pypdf's text layer; no OCR)."""

from __future__ import annotations

import re
from pathlib import Path

from grace.documents.limits import DEFAULT_LIMITS, DocumentLimits
from grace.documents.types import ConvertError, Section

__all__ = ["convert_pdf"]

_NO_TEXT = "no text layer (image-only or scanned PDF); OCR is not included"


def convert_pdf(path: Path, limits: DocumentLimits = DEFAULT_LIMITS) -> list[Section]:
    """Extract the text of every page; the page number goes in the location.

    Raises:
        ConvertError: Encrypted, corrupt, or image-only PDF.

    """
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    try:
        reader = PdfReader(path)
        if reader.is_encrypted and not _try_empty_password(reader):
            raise ConvertError("encrypted PDF (password protected); decrypt it first")
        pages = [page.extract_text() or "" for page in reader.pages]
    except ConvertError:
        raise
    except (PyPdfError, ValueError, KeyError, TypeError, OSError) as exc:
        raise ConvertError(f"corrupt or unreadable PDF ({type(exc).__name__})") from exc
    sections = [
        Section(text=unwrap(text), location=f"p. {number}", metadata={"page": number})
        for number, text in enumerate(pages, start=1)
        if text.strip()
    ]
    if not sections:
        raise ConvertError(_NO_TEXT)
    return sections


_HARD_BREAK = re.compile(r"(?<![.!?:;。！？\n])[ \t]*\n(?![ \t]*\n)[ \t]*(?=\S)")


def unwrap(text: str) -> str:
    """Join a PDF's hard-wrapped lines: "is" at a line's end and "50" on the next read "is 50".

    A line that ends a sentence, and a blank line, still end a paragraph; Japanese lines join
    without a space.
    """

    def join(match: re.Match[str]) -> str:
        before = match.string[match.start() - 1] if match.start() else ""
        after = match.string[match.end()] if match.end() < len(match.string) else ""
        cjk = "\u3000" <= before <= "\u9fff" and "\u3000" <= after <= "\u9fff"
        return "" if cjk else " "

    return _HARD_BREAK.sub(join, text.strip())


def _try_empty_password(reader: object) -> bool:
    # Many "encrypted" PDFs only restrict printing and open with the empty user password.
    try:
        return bool(reader.decrypt(""))  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 - any failure means "cannot open"
        return False

"""Text from questions, documents and models made safe to print on a terminal.

A document can hold escape sequences (``ESC ] 0 ; title BEL`` retitles the window, ``ESC [
2 J`` clears it), bidirectional overrides that make a line read differently from its bytes,
and rich markup (``[red]``, or a stray ``[/]`` that would make rich raise). Everything the
CLI prints from data goes through :func:`term` (a string) or :func:`term_text` (a rich
``Text``, never parsed as markup). ``--json`` output is not touched: JSON escapes control
characters itself and scripts get the exact text.
"""

from __future__ import annotations

import re

from rich.text import Text

__all__ = ["term", "term_text"]

_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
"""C0 controls but tab and newline, DEL, C1 controls, bidirectional embeddings/overrides."""


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def term(text: object) -> str:
    r"""``text`` with every control character shown as its escape (``\x1b``, ``\u202e``)."""
    return _UNSAFE.sub(_visible, str(text))


def term_text(text: object, style: str = "") -> Text:
    """:func:`term` of ``text`` as a rich ``Text`` (markup in it is printed as written)."""
    return Text(term(text), style=style)

"""Bounds on a person's reply: nesting depth and size, checked without recursion.

A reply is small (a decision and a few strings). A hostile or broken client can send a
40,000-level nested list: Python's ``json.loads`` and pydantic both recurse and would die with
``RecursionError``. So JSON text is scanned for depth *before* parsing, and parsed values are
walked with an explicit stack before validation.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["MAX_REPLY_CHARS", "MAX_REPLY_DEPTH", "check_reply_bounds", "load_reply_json"]

MAX_REPLY_DEPTH = 32
"""Deepest nesting of lists / objects a reply may have (a real one has about 5)."""
MAX_REPLY_CHARS = 100_000
"""Largest reply: JSON text length, or the total length of a parsed reply's strings."""


def _text_depth(text: str) -> int:
    """The deepest ``[`` / ``{`` nesting of JSON text, ignoring brackets inside strings."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_REPLY_DEPTH:
                return deepest
        elif char in "]}":
            depth -= 1
    return deepest


ACCEPTED_REPLIES = (
    '{"decisions": [{"type": "approve"}]}, '
    '{"decisions": [{"type": "edit", "edited_action": {"name": "review_answer", '
    '"args": {"query": "..."}}}]}, '
    '{"decisions": [{"type": "reject", "message": "..."}]} or '
    '{"decisions": [{"type": "reject"}]}'
)
"""The reply forms a person can send, for error messages."""


def load_reply_json(
    text: str, error: type[ValueError] = ValueError, *, name: str = "the reply"
) -> Any:
    """Parse a reply given as JSON text, refusing oversized or too deeply nested input.

    Args:
        text: the JSON text.
        error: the exception class to raise.
        name: how messages call the reply (e.g. ``--response``).

    Raises:
        error: (default ValueError) naming the limit or the JSON problem.

    """
    if len(text) > MAX_REPLY_CHARS:
        raise error(f"{name} is {len(text):,} characters, over the limit of {MAX_REPLY_CHARS:,}")
    if _text_depth(text) > MAX_REPLY_DEPTH:
        raise error(f"{name} is nested more than {MAX_REPLY_DEPTH} levels deep")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"{name} is not JSON ({exc}); send one of {ACCEPTED_REPLIES}") from None


def check_reply_bounds(value: object, error: type[ValueError] = ValueError) -> None:
    """Refuse a parsed reply nested deeper than :data:`MAX_REPLY_DEPTH` or over the size limit.

    Raises:
        error: (default ValueError) naming the limit.

    """
    stack: list[tuple[object, int]] = [(value, 1)]
    chars = 0
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            chars += len(item)
        elif isinstance(item, dict | list | tuple):
            if depth > MAX_REPLY_DEPTH:
                raise error(f"the reply is nested more than {MAX_REPLY_DEPTH} levels deep")
            children = [*item.keys(), *item.values()] if isinstance(item, dict) else list(item)
            chars += len(children)
            stack.extend((child, depth + 1) for child in children)
        if chars > MAX_REPLY_CHARS:
            raise error(f"the reply is over the size limit of {MAX_REPLY_CHARS:,} characters")

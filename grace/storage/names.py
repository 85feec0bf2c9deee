"""What a collection may be called: one pattern for settings, the CLI, the API and ingestion.

A collection name becomes a directory (the embedded store) or a Qdrant server collection, so
it is one word of letters (any script), digits, ``_``, ``-`` and ``.`` — no path separators,
no leading dot, at most 128 characters.
"""

from __future__ import annotations

import re

from grace.errors import InvalidCollectionError

__all__ = ["COLLECTION_PATTERN", "check_collection_name"]

COLLECTION_PATTERN = r"^[^\W_][\w.\-]{0,127}$"
"""Allowed names (``\\w`` is Unicode: 霧ヶ丘 is a valid name)."""
_NAME = re.compile(COLLECTION_PATTERN)


def check_collection_name(name: str) -> str:
    """Return ``name`` if it is a valid collection name, else raise InvalidCollectionError."""
    if not _NAME.fullmatch(name):
        raise InvalidCollectionError(
            f"invalid collection name {name!r}: use letters, digits, '_', '-' and '.' "
            "(starting with a letter or digit, at most 128 characters)"
        )
    return name

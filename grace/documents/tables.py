"""A table's rows as a Markdown table, the one form every converter gives a table.

The reader then reads each row on its own (:func:`grace.text.split_sentences`): under a header
row, as its cells named by their columns (``Boat: Sule; Type: single scull``, the form a CSV
row takes); without one, as its cells (``Sule; single scull``).
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["markdown_table"]


def markdown_table(rows: Sequence[Sequence[str]], *, header: bool) -> str:
    """``rows`` as Markdown table lines; a ``| --- |`` rule under the first when ``header``.

    Cells are stripped and their own ``|`` written ``/``; rows with no text are left out.
    """
    kept = [[" ".join(c.split()).replace("|", "/") for c in row] for row in rows]
    kept = [row for row in kept if any(row)]
    lines = [f"| {' | '.join(row)} |" for row in kept]
    if header and len(kept) > 1:
        lines.insert(1, f"|{' --- |' * len(kept[0])}")
    return "\n".join(lines)

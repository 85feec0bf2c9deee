"""A superlative asked of a table: the row that holds the greatest or least value.

"Which model has the longest battery life?" is answered by a table's rows together, not by
one row's words: every row names the same columns, so each matches the question alike, and
the answer is the row whose value in the asked column is the greatest. Each CSV row is a
chunk of its own, and a Markdown table's rows are sentences of one chunk
(:func:`~grace.text.split_sentences` reads both as ``Header: value; Header: value``); the
reader compares the rows of one table that were retrieved together (:func:`extreme_rows`).

- :func:`superlative` reads the question's superlative: "longest", "cheapest", "most",
  「一番高い」「最も軽い」 — whether it asks for the greatest or the least value, and the
  measures its adjective names (a length, a price …);
- the asked column is the one whose header shares a word with the question ("battery" of
  *battery_hours*, 「アルコール度数」), else the one whose header and values state the
  adjective's measure (*weight_grams* for "lightest"); a column with a number in every row
  retrieved, and one only;
- the row (or rows, on a tie) with the extreme number says the superlative's words: the
  reader counts them in its share, as it counts a measure word a value says.

Only the rows retrieved are compared: a table longer than the search's ``k`` may hold a
greater value in a row not retrieved.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from grace.patterns import lazy
from grace.providers.offline.word_forms import match_tokens
from grace.text import Measure, normalise_text, states_measure

__all__ = ["Superlative", "extreme_rows", "row_cells", "superlative"]

_BIG: tuple[Measure, ...] = ("area", "length", "mass", "data")
_LONG: tuple[Measure, ...] = ("length", "duration")

_EN_ADJECTIVES: dict[str, tuple[bool, tuple[Measure, ...]]] = {
    "longest": (True, _LONG),
    "shortest": (False, _LONG),
    "highest": (True, ()),
    "lowest": (False, ()),
    "tallest": (True, ("length",)),
    "heaviest": (True, ("mass",)),
    "lightest": (False, ("mass",)),
    "cheapest": (False, ("money",)),
    "dearest": (True, ("money",)),
    "most expensive": (True, ("money",)),
    "least expensive": (False, ("money",)),
    "biggest": (True, _BIG),
    "largest": (True, _BIG),
    "smallest": (False, _BIG),
    "fastest": (True, ("speed",)),
    "slowest": (False, ("speed",)),
    "hottest": (True, ("temperature",)),
    "warmest": (True, ("temperature",)),
    "coldest": (False, ("temperature",)),
    "most": (True, ()),
    "least": (False, ()),
    "fewest": (False, ()),
}
"""English superlatives: (the greatest value, the measures the adjective names)."""
_JA_ADJECTIVES: dict[str, tuple[bool, tuple[Measure, ...]]] = {
    "高": (True, ("money", "length", "temperature")),
    "安": (False, ("money",)),
    "長": (True, _LONG),
    "短": (False, _LONG),
    "重": (True, ("mass",)),
    "軽": (False, ("mass",)),
    "大き": (True, _BIG),
    "小さ": (False, _BIG),
    "多": (True, ()),
    "少な": (False, ()),
    "広": (True, ("area",)),
    "狭": (False, ("area",)),
    "速": (True, ("speed",)),
    "遅": (False, ("speed",)),
}
"""Japanese adjective stems after 一番 / 最も: (the greatest value, the measures)."""
_EN_SUPERLATIVE = lazy(
    r"\b(?:(?:most|least) expensive|"
    + "|".join(w for w in _EN_ADJECTIVES if " " not in w)
    + r")\b",
)
_JA_SUPERLATIVE = lazy(
    r"(?:一番|いちばん|最も|もっとも)(" + "|".join(_JA_ADJECTIVES) + r")(?:い|く)"
)
_ROW = lazy(r"^[^:;]+: [^;]+(?:; [^:;]+: [^;]+)+$")
"""A table row read as a sentence: ``Header: value; Header: value``."""
_NUMBER = lazy(r"\d[\d,]*(?:\.\d+)?")


@dataclass(frozen=True)
class Superlative:
    """A question's superlative: "the *longest* battery life", 「*一番高い*のは」."""

    words: str
    """The superlative as the question writes it."""
    greatest: bool
    """It asks for the greatest value (False: the least)."""
    measures: tuple[Measure, ...]
    """What the adjective measures (``()``: it does not say, "most", 「多い」)."""


def superlative(question: str) -> Superlative | None:
    """The question's superlative, or ``None`` when it asks for none."""
    text = normalise_text(question)
    match = _JA_SUPERLATIVE.search(text)
    if match:
        greatest, measures = _JA_ADJECTIVES[match.group(1)]
        return Superlative(match.group(0), greatest, measures)
    match = _EN_SUPERLATIVE.search(text)
    if match:
        greatest, measures = _EN_ADJECTIVES[match.group(0)]
        return Superlative(match.group(0), greatest, measures)
    return None


def row_cells(sentence: str) -> dict[str, str] | None:
    """A table row's cells by header (``None`` when the sentence is not a table row)."""
    text = sentence.strip()
    if not _ROW.match(text):
        return None
    cells = (cell.split(": ", 1) for cell in text.split("; "))
    return {header.strip(): value.strip() for header, value in cells}


def _number(value: str) -> float | None:
    match = _NUMBER.search(normalise_text(value))
    return float(match.group(0).replace(",", "")) if match else None


def _column(
    asked: Superlative, q_tokens: set[str], rows: Sequence[dict[str, str]]
) -> str | None:
    """The column the superlative is asked of: named by the question, else by its measure."""
    numeric = [h for h in rows[0] if all(_number(row.get(h, "")) is not None for row in rows)]
    named = [h for h in numeric if set(match_tokens(h.replace("_", " "))) & q_tokens]
    if len(named) == 1:
        return named[0]
    measured = [
        h
        for h in named or numeric
        if asked.measures
        and all(states_measure(f"{h} {row[h]}", asked.measures) for row in rows)
    ]
    return measured[0] if len(measured) == 1 else None


def extreme_rows(
    asked: Superlative, q_tokens: set[str], sentences: Sequence[tuple[str, str]]
) -> set[int]:
    """Indices of the rows that hold the asked extreme, among ``(table, sentence)`` pairs.

    ``table`` names the table a sentence comes from (its document); the rows of one table
    share their headers. A table with fewer than two rows retrieved, or no one column the
    superlative is asked of, gives none.
    """
    tables: dict[tuple[str, tuple[str, ...]], list[tuple[int, dict[str, str]]]] = {}
    for i, (table, sentence) in enumerate(sentences):
        cells = row_cells(sentence)
        if cells is not None:
            tables.setdefault((table, tuple(cells)), []).append((i, cells))
    found: set[int] = set()
    for rows in tables.values():
        column = _column(asked, q_tokens, [cells for _, cells in rows]) if len(rows) > 1 else None
        if column is None:
            continue
        values = {i: _number(cells[column]) or 0.0 for i, cells in rows}
        best = max(values.values()) if asked.greatest else min(values.values())
        found |= {i for i, value in values.items() if value == best}
    return found

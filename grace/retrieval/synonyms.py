"""English synonyms from WordNet 3.0, for the SILENT rule.

:func:`synonyms` reads ``grace/data/wordnet/synonyms.tsv.gz``: for each lemma, the words that
share a synset with it among the two most frequent senses of both (WordNet orders a word's
senses by their frequency in a tagged corpus), so a link holds between the words' usual
meanings — "establish" / "found" / "set up", "rent" / "lease", "begin" / "start" — and never
between a word and its opposite (WordNet files antonyms apart from synsets). The table is
derived from Princeton's WordNet 3.0 database by ``python -m bench.wordnet_synonyms`` (its
docstring says why the data ship with GRACE and how to rebuild them); WordNet's licence is
beside it. It is read as the lemma tables are (:func:`grace.retrieval.lemmas.sorted_table`):
an uncompressed copy in the cache, searched by bisection, no dictionary built.

Japanese synonyms come from SudachiDict's synonym groups
(:func:`grace.retrieval.tokenize_sudachi.synonyms_said`).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from grace.retrieval.lemmas import sorted_table, table_lines

__all__ = ["TABLE", "synonyms"]

TABLE = Path(__file__).resolve().parents[1] / "data" / "wordnet" / "synonyms.tsv.gz"
"""The synonym table (``lemma<TAB>synonym synonym …`` lines, sorted by lemma)."""


@lru_cache(maxsize=1)
def _table() -> bytes:
    return sorted_table(TABLE, "wordnet")


@lru_cache(maxsize=16_384)
def synonyms(lemma: str) -> frozenset[str]:
    """The synonyms of a lower-case ``lemma``; a multi-word one joined by ``_`` ("set_up").

    >>> sorted(synonyms("establish"))
    ['found', 'institute', 'launch', 'set_up']
    """
    lines = table_lines(_table(), lemma, separator=b"\t")
    return frozenset(lines[0].split("\t")[1].split()) if lines else frozenset()

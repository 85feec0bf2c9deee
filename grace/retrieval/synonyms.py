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

:func:`person_kinds` reads ``kinds.tsv.gz`` beside it, the same way: for a noun of a kind of
person ("conductor"), the kinds above it in WordNet's ``noun.person`` hierarchy ("musician",
"performer"), so a sentence that calls someone a conductor calls them a musician, and not a
violinist. :func:`antonyms` reads ``antonyms.tsv.gz``: a verb's opposites in its usual
senses ("raise" / "lower", "buy" / "sell"). :func:`money_kinds` reads ``money.tsv.gz``: the
nouns of a sum of money ("wage", "toll", "rent"), so "What annual wage …?" asks for an amount
of money.

Japanese synonyms come from SudachiDict's synonym groups
(:func:`grace.retrieval.tokenize_sudachi.synonyms_said`).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from grace.retrieval.lemmas import sorted_table, table_lines

__all__ = [
    "ANTONYMS",
    "KINDS",
    "MONEY",
    "TABLE",
    "antonyms",
    "money_kinds",
    "person_kinds",
    "synonyms",
]

TABLE = Path(__file__).resolve().parents[1] / "data" / "wordnet" / "synonyms.tsv.gz"
"""The synonym table (``lemma<TAB>synonym synonym …`` lines, sorted by lemma)."""
KINDS = TABLE.with_name("kinds.tsv.gz")
"""The kinds of person (``noun<TAB>kind kind …`` lines, sorted by noun)."""
ANTONYMS = TABLE.with_name("antonyms.tsv.gz")
"""The verbs' antonyms (``verb<TAB>antonym antonym …`` lines, sorted by verb)."""
MONEY = TABLE.with_name("money.tsv.gz")
"""The nouns of a sum of money (``noun<TAB>sum sum …`` lines, sorted by noun)."""


@lru_cache(maxsize=4)
def _loaded(table: Path) -> bytes:
    """One of the tables, as :func:`~grace.retrieval.lemmas.sorted_table` serves it."""
    return sorted_table(table, "wordnet")


@lru_cache(maxsize=16_384)
def synonyms(lemma: str) -> frozenset[str]:
    """The synonyms of a lower-case ``lemma``; a multi-word one joined by ``_`` ("set_up").

    >>> sorted(synonyms("establish"))
    ['found', 'institute', 'launch', 'set_up']
    """
    return _row(_loaded(TABLE), lemma) or frozenset()


@lru_cache(maxsize=4_096)
def person_kinds(noun: str) -> frozenset[str] | None:
    """The kinds of person above a lower-case one-word ``noun``; ``None`` if it names none.

    Only a noun whose most frequent sense is in WordNet's ``noun.person`` file names a kind
    of person ("brewer", "widow"; not "type", nor "person" itself, a top-level noun).

    >>> sorted(person_kinds("violinist"))
    ['entertainer', 'instrumentalist', 'musician', 'performer', 'player']
    >>> person_kinds("bridge") is None
    True
    """
    return _row(_loaded(KINDS), noun)


@lru_cache(maxsize=4_096)
def antonyms(verb: str) -> frozenset[str]:
    """The antonyms of a lower-case verb lemma in its usual senses (WordNet's).

    >>> sorted(antonyms("raise"))
    ['lower']
    >>> antonyms("build")
    frozenset()
    """
    return _row(_loaded(ANTONYMS), verb) or frozenset()


@lru_cache(maxsize=1_024)
def money_kinds(noun: str) -> frozenset[str] | None:
    """The sums of money a lower-case one-word ``noun`` names; ``None`` if it names none.

    Only a noun whose most frequent sense is, or is below, a payment, a cost, a sum of money
    or a price in WordNet ("wage", "toll", "fee"; not "grant", a gift first).

    >>> sorted(money_kinds("wage"))
    ['cost', 'payment']
    >>> money_kinds("bridge") is None
    True
    """
    return _row(_loaded(MONEY), noun)


def _row(table: bytes, key: str) -> frozenset[str] | None:
    """The words of ``key``'s line in a ``key<TAB>word word …`` table; ``None`` without one."""
    lines = table_lines(table, key, separator=b"\t")
    return frozenset(lines[0].partition("\t")[2].split()) if lines else None

"""Language-aware lexical tokenisation for the sparse (BM25-style) index.

Text is NFKC-normalised (full-width digits and letters become ASCII) and cut into
*script runs*:

- Latin / digit runs (English, numbers, Latin names inside Japanese text): lowercased,
  English stopwords dropped, stemmed with the Snowball English stemmer (PyStemmer's C
  build of it: the same stems as the pure-Python ``snowballstemmer``, checked on every
  word of the evaluation sets, and ~10 ms less to import).
- Japanese runs (kanji, hiragana, katakana; Japanese has no spaces): analysed with
  SudachiPy (``sudachidict-core``) keeping the normalised form of content words (nouns,
  verbs, adjectives, adverbs, noun-like affixes), **plus** the character bigrams of the run.
  Bigrams recover compounds the dictionary splits differently in question and passage
  (``アメリカ軍`` vs ``アメリカ`` + ``軍``); the words keep precision. The combination gave the
  best recall on the dev set (see ``bench/retrieval_recall.py``).

Mixed text is handled run by run: each run's tokens depend on that run alone (the runs of a
text share Sudachi calls, see :mod:`grace.retrieval.tokenize_sudachi`). The result is
deterministic and thread-safe (one Sudachi tokenizer per thread, sharing one dictionary).
"""

from __future__ import annotations

import threading
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

import Stemmer

from grace.patterns import lazy
from grace.retrieval.tokenize_sudachi import words_of_runs
from grace.text import ENGLISH_STOPWORDS

__all__ = ["RETRIEVAL_TOKENIZER", "JapaneseMode", "Tokenizer", "tokenize"]

JapaneseMode = Literal["sudachi", "bigram", "both"]
"""How Japanese runs become tokens: dictionary words, character bigrams, or both."""

_JA_CHARS = (
    "\u3005\u3006\u3007"  # 々 〆 〇
    "\u3040-\u309f"  # hiragana
    "\u30a0-\u30ff"  # katakana (incl. ー)
    "\u3400-\u4dbf"  # CJK extension A
    "\u4e00-\u9fff"  # CJK unified ideographs
    "\uf900-\ufaff"  # CJK compatibility ideographs
)
_RUN_RE = lazy(rf"(?P<ja>[{_JA_CHARS}]+)|(?P<word>[^\W_{_JA_CHARS}]+)")
"""Japanese and word runs of a text with Japanese in it (compiled at the first such text)."""
_WORD_RE = lazy(r"[^\W_]+")
"""The ``word`` runs of :data:`_RUN_RE` in text without Japanese (which has none of
``_JA_CHARS`` to leave out: their ranges cost ≈ 1 ms to compile)."""
_JA_ANY_RE = lazy(rf"[{_JA_CHARS}]")

# Interrogatives: the Japanese counterpart of the question words in the English stopword
# list. Pronouns (いつ, 誰, どこ, 何, どれ, …) are dropped by part of speech; the rest are
# interrogative adverbs and nouns Sudachi does not tag as pronouns (何故, 幾ら, 幾つ, 何時頃)
# and anything led by 何 / 幾 ("what" / "how many": 何年, 何人, 何色, 何種 …), dictionary
# words and character bigrams alike. A question word names the *answer's type*, which the
# passage holds as a value (1910年, アルマ), not as the word.
_JA_INTERROGATIVES = frozenset(
    {"誰", "何故", "如何", "幾ら", "幾つ", "いくつ", "いくら", "どう", "どんな", "どちら", "どなた"}
)
_JA_INTERROGATIVE_FIRST = frozenset("何幾")
"""First characters that make a token interrogative (tested as ``t[:1] in …``)."""

_local = threading.local()


def _stemmer() -> Any:
    stem = getattr(_local, "stemmer", None)
    if stem is None:
        stem = Stemmer.Stemmer("english")
        _local.stemmer = stem
    return stem


@lru_cache(maxsize=262_144)
def _stem(word: str) -> str:
    # Word frequencies are Zipfian: a cache removes almost all stemming calls.
    return str(_stemmer().stemWord(word))


@dataclass(frozen=True)
class Tokenizer:
    """A configurable tokenizer; :func:`tokenize` is the default instance.

    Args:
        japanese: ``"sudachi"`` (dictionary words), ``"bigram"`` (character bigrams) or
            ``"both"`` (default, best recall on the dev set).
        split_mode: Sudachi split mode ``"A"`` (short), ``"B"`` (middle) or ``"C"`` (long).
        stem: Apply the Snowball English stemmer to Latin words.
        drop_interrogatives: Drop Japanese question words (pronouns such as いつ / 誰 / 何,
            interrogative adverbs, and words or bigrams led by 何 / 幾), as the English
            stopword list drops what / when / who.

    """

    japanese: JapaneseMode = "both"
    split_mode: Literal["A", "B", "C"] = "B"
    stem: bool = True
    drop_interrogatives: bool = False

    def __call__(self, text: str) -> list[str]:
        """Tokenise ``text`` (any mix of English and Japanese)."""
        text = unicodedata.normalize("NFKC", text).lower()
        # No Japanese (ASCII text has none: no need to compile the pattern's kanji ranges):
        # one findall, no run bookkeeping.
        if text.isascii() or _JA_ANY_RE.search(text) is None:
            latin = [w for w in _WORD_RE.findall(text) if w not in ENGLISH_STOPWORDS]
            return list(map(_stem, latin)) if self.stem else latin
        # findall's (ja, word) tuples, not Match.group calls: this loop runs once per word.
        found = _RUN_RE.findall(text)
        analysed = iter(self._japanese([ja for ja, _ in found if ja]))
        tokens: list[str] = []
        words: list[str] = []
        for _ja, word in found:
            if word:
                if word not in ENGLISH_STOPWORDS:
                    words.append(word)
                continue
            if words:
                self._flush(words, tokens)
            tokens.extend(next(analysed))
        self._flush(words, tokens)
        if self.drop_interrogatives:
            # One pass over all tokens: Latin-run tokens never hold 何 / 幾 nor match a
            # Japanese question word, so only Japanese tokens are dropped.
            return [
                t
                for t in tokens
                if t not in _JA_INTERROGATIVES and t[:1] not in _JA_INTERROGATIVE_FIRST
            ]
        return tokens

    def _flush(self, words: list[str], tokens: list[str]) -> None:
        if not words:
            return
        tokens.extend(map(_stem, words) if self.stem else words)
        words.clear()

    def _japanese(self, runs: list[str]) -> list[list[str]]:
        """Tokens of each Japanese run (all runs of a text analysed together)."""
        if not runs:
            return []
        # Flat list passes, not chained generators: this is the hot loop of Japanese ingestion.
        per_run = (
            words_of_runs(runs, self.split_mode, self.drop_interrogatives)
            if self.japanese != "bigram"
            else [[] for _ in runs]
        )
        if self.japanese != "sudachi":
            for tokens, run in zip(per_run, runs, strict=True):
                tokens.extend(_bigrams(run))
        return per_run


def _bigrams(run: str) -> list[str]:
    """Bigrams of the run's kanji / katakana stretches; a one-character stretch is itself.

    Hiragana is mostly grammar (particles, inflections), and bigrams across it ("クが",
    "がマ") match everywhere. One regex scan (:data:`_GRAMS_RE`) yields them in order.
    """
    return _GRAMS_RE.findall(run)


_GRAMS_RE = lazy(
    r"(?=((?<![^\u3040-\u309f])[^\u3040-\u309f](?![^\u3040-\u309f])|[^\u3040-\u309f]{2}))"
)
"""At each position of a run: a lone non-hiragana character (hiragana or an end on both
sides), or the non-hiragana pair starting there; the last character of a longer stretch
matches neither."""


_DEFAULT = Tokenizer()

RETRIEVAL_TOKENIZER = Tokenizer(drop_interrogatives=True)
"""The sparse index's tokenizer: :func:`tokenize` plus Japanese question-word removal.

Dropping interrogatives changed no recall figure on the dev set but raised the top-score
AUROC answerable vs unanswerable (0.764 → 0.781 dev, 0.977 → 0.995 sample): a question word
matched passages that merely contain it, inflating the score of questions the corpus cannot
answer. :func:`tokenize` keeps them (its other callers compare question and evidence terms).
"""


def tokenize(text: str) -> list[str]:
    """Tokenise ``text`` with the default :class:`Tokenizer` (stemmed English, Sudachi + bigrams).

    >>> tokenize("The engines were running")
    ['engin', 'run']
    """
    return _DEFAULT(text)

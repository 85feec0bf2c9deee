"""Language-aware lexical tokenisation for the sparse (BM25-style) index.

Text is NFKC-normalised (full-width digits and letters become ASCII) and cut into
*script runs*:

- Latin / digit runs (English, numbers, Latin names inside Japanese text): lowercased,
  English stopwords dropped, stemmed with the Snowball English stemmer.
- Japanese runs (kanji, hiragana, katakana; Japanese has no spaces): analysed with
  SudachiPy (``sudachidict-core``) keeping the normalised form of content words (nouns,
  verbs, adjectives, adverbs, noun-like affixes), **plus** the character bigrams of the run.
  Bigrams recover compounds the dictionary splits differently in question and passage
  (``アメリカ軍`` vs ``アメリカ`` + ``軍``); the words keep precision. The combination gave the
  best recall on the dev set (see ``bench/retrieval_recall.py``).

Mixed text is handled run by run. The result is deterministic and thread-safe (one Sudachi
tokenizer per thread, sharing one dictionary).
"""

from __future__ import annotations

import operator
import re
import threading
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal

import snowballstemmer

__all__ = ["ENGLISH_STOPWORDS", "RETRIEVAL_TOKENIZER", "JapaneseMode", "Tokenizer", "tokenize"]

JapaneseMode = Literal["sudachi", "bigram", "both"]
"""How Japanese runs become tokens: dictionary words, character bigrams, or both."""

ENGLISH_STOPWORDS: frozenset[str] = frozenset(
    """
    a about above after again against all am an and any are aren't as at be because been
    before being below between both but by can can't cannot could couldn't did didn't do does
    doesn't doing don't down during each few for from further had hadn't has hasn't have
    haven't having he he'd he'll he's her here here's hers herself him himself his how how's
    i i'd i'll i'm i've if in into is isn't it it's its itself let's me more most mustn't my
    myself no nor not of off on once only or other ought our ours ourselves out over own same
    shan't she she'd she'll she's should shouldn't so some such than that that's the their
    theirs them themselves then there there's these they they'd they'll they're they've this
    those through to too under until up very was wasn't we we'd we'll we're we've were
    weren't what what's when when's where where's which while who who's whom why why's with
    won't would wouldn't you you'd you'll you're you've your yours yourself yourselves
    s t d ll m o re ve y also
    """.split()
)
"""Snowball's English stopword list (question words included) plus clitic fragments."""

_JA_CHARS = (
    "\u3005\u3006\u3007"  # 々 〆 〇
    "\u3040-\u309f"  # hiragana
    "\u30a0-\u30ff"  # katakana (incl. ー)
    "\u3400-\u4dbf"  # CJK extension A
    "\u4e00-\u9fff"  # CJK unified ideographs
    "\uf900-\ufaff"  # CJK compatibility ideographs
)
_RUN_RE = re.compile(rf"(?P<ja>[{_JA_CHARS}]+)|(?P<word>[^\W_{_JA_CHARS}]+)")
_HIRAGANA_RE = re.compile(r"[\u3040-\u309f]+")

# Sudachi part-of-speech heads that carry content; the rest (particles, auxiliaries,
# symbols, conjunctions, interjections) is dropped.
_CONTENT_POS = frozenset({"名詞", "動詞", "形容詞", "形状詞", "副詞", "接尾辞", "接頭辞", "代名詞"})
# Light verbs and formal nouns that occur everywhere and mean little.
_JA_STOP = frozenset(
    {"為る", "する", "有る", "ある", "居る", "いる", "成る", "なる", "事", "こと", "物", "もの"}
)
# Interrogatives: the Japanese counterpart of the question words in the English stopword
# list. Pronouns (いつ, 誰, どこ, 何, どれ, …) are dropped by part of speech; the rest are
# interrogative adverbs and nouns Sudachi does not tag as pronouns (何故, 幾ら, 幾つ, 何時頃)
# and anything led by 何 / 幾 ("what" / "how many": 何年, 何人, 何色, 何種 …), dictionary
# words and character bigrams alike. A question word names the *answer's type*, which the
# passage holds as a value (1910年, アルマ), not as the word.
_JA_INTERROGATIVE_POS = "代名詞"
_JA_INTERROGATIVES = frozenset(
    {"誰", "何故", "如何", "幾ら", "幾つ", "いくつ", "いくら", "どう", "どんな", "どちら", "どなた"}
)
_JA_INTERROGATIVE_PREFIXES = ("何", "幾")
# Sudachi refuses inputs above ~49 KB; Japanese runs are cut well below that.
_SUDACHI_MAX_CHARS = 4000
# The morpheme fields read here (part of speech, normalised form) plus the split information
# modes A and B need: Sudachi skips decoding the rest (readings, dictionary forms, synonym
# groups), which makes its analysis ~20 % faster with the same morphemes.
_SUDACHI_FIELDS = {"pos", "normalized_form", "split_a", "split_b"}


@lru_cache(maxsize=1)
def _sudachi_dictionary() -> Any:
    from sudachipy import Dictionary

    return Dictionary(dict="core")


_local = threading.local()


def _sudachi(mode: str) -> Any:
    """One Sudachi tokenizer per thread and split mode (tokenizers are not thread-safe)."""
    key = f"sudachi_{mode}"
    tok = getattr(_local, key, None)
    if tok is None:
        from sudachipy import SplitMode

        split = {"A": SplitMode.A, "B": SplitMode.B, "C": SplitMode.C}[mode]
        tok = _sudachi_dictionary().tokenizer(mode=split, fields=_SUDACHI_FIELDS)
        setattr(_local, key, tok)
    return tok


def _stemmer() -> Any:
    stem = getattr(_local, "stemmer", None)
    if stem is None:
        stem = snowballstemmer.stemmer("english")
        _local.stemmer = stem
    return stem


@lru_cache(maxsize=262_144)
def _stem(word: str) -> str:
    # Snowball in pure Python dominates ingestion time; word frequencies are Zipfian, so a
    # cache removes almost all of it.
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
    _memo: dict[str, list[str]] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )
    """Tokens of short Japanese runs (see :data:`_MEMO_MAX_RUN`)."""

    def __call__(self, text: str) -> list[str]:
        """Tokenise ``text`` (any mix of English and Japanese)."""
        text = unicodedata.normalize("NFKC", text).lower()
        tokens: list[str] = []
        words: list[str] = []
        # findall's (ja, word) tuples, not Match.group calls: this loop runs once per word.
        for ja, word in _RUN_RE.findall(text):
            if word:
                if word not in ENGLISH_STOPWORDS:
                    words.append(word)
                continue
            if words:
                self._flush(words, tokens)
            tokens.extend(self._japanese(ja))
        self._flush(words, tokens)
        return tokens

    def _flush(self, words: list[str], tokens: list[str]) -> None:
        if not words:
            return
        tokens.extend(map(_stem, words) if self.stem else words)
        words.clear()

    def _japanese(self, run: str) -> list[str]:
        # Each run is analysed on its own, so its tokens depend on the run alone: short runs
        # (one or two characters between punctuation, digits or Latin words) recur, and the
        # Sudachi call plus the Python around it is most of their cost.
        if len(run) > _MEMO_MAX_RUN:
            return self._analyse(run)
        memo = self._memo
        tokens = memo.get(run)
        if tokens is None:
            if len(memo) >= _MEMO_SIZE:
                memo.clear()
            tokens = memo[run] = self._analyse(run)
        return tokens

    def _analyse(self, run: str) -> list[str]:
        # Flat list passes, not chained generators: this is the hot loop of Japanese ingestion.
        tokens = (
            _sudachi_words(run, self.split_mode, self.drop_interrogatives)
            if self.japanese != "bigram"
            else []
        )
        if self.japanese != "sudachi":
            tokens.extend(_bigrams(run))
        if self.drop_interrogatives:
            tokens = [t for t in tokens if t not in _JA_INTERROGATIVES and t[:1] not in _JA_Q]
        return tokens


_MEMO_MAX_RUN = 1
"""Longest Japanese run whose tokens are memoised."""
_MEMO_SIZE = 10_000
"""Memoised runs per tokenizer before the memo starts over (a few MB)."""
_JA_Q = frozenset(_JA_INTERROGATIVE_PREFIXES)
"""First characters of interrogative tokens (``t[:1] in _JA_Q`` is ``t.startswith(…)``)."""


def _sudachi_words(run: str, mode: str, drop_pronouns: bool = False) -> list[str]:
    tok = _sudachi(mode)
    keep = _KEEP_POS[drop_pronouns]
    drop = _DROP_FORMS
    words: list[str] = []
    pieces = (
        [run]
        if len(run) <= _SUDACHI_MAX_CHARS
        else [run[i : i + _SUDACHI_MAX_CHARS] for i in range(0, len(run), _SUDACHI_MAX_CHARS)]
    )
    for piece in pieces:
        for m in tok.tokenize(piece):
            pos_id = m.part_of_speech_id()
            kept = keep.get(pos_id)
            if kept is None:
                kept = _learn_pos(pos_id, drop_pronouns)
            if kept:
                form = m.normalized_form()
                if form not in drop:
                    words.append(form)
    return words


def _learn_pos(pos_id: int, drop_pronouns: bool) -> bool:
    """Whether words of part of speech ``pos_id`` are kept (cached in :data:`_KEEP_POS`)."""
    head = str(_sudachi_dictionary().pos_of(pos_id)[0])
    _KEEP_POS[False][pos_id] = head in _CONTENT_POS
    _KEEP_POS[True][pos_id] = head in _CONTENT_POS and head != _JA_INTERROGATIVE_POS
    return _KEEP_POS[drop_pronouns][pos_id]


_KEEP_POS: dict[bool, dict[int, bool]] = {False: {}, True: {}}
"""Part-of-speech id → kept? (content head, pronouns dropped or not), filled lazily.

Cheaper than the 6-tuple ``Morpheme.part_of_speech()`` built for every morpheme. Filled
under the GIL with the same values by any thread, so no lock is needed.
"""
_DROP_FORMS = _JA_STOP | frozenset(chr(c) for c in range(0x3040, 0x30A0))
"""Stop words and single hiragana (what ``_HIRAGANA_RE.fullmatch`` accepts in one character)."""


def _bigrams(run: str) -> list[str]:
    # Bigrams inside kanji / katakana stretches only: hiragana is mostly grammar (particles,
    # inflections), and bigrams across it ("クが", "がマ") match everywhere.
    grams: list[str] = []
    for part in _HIRAGANA_RE.split(run):
        if len(part) == 1:
            grams.append(part)
        else:
            grams.extend(map(operator.add, part, part[1:]))
    return grams


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

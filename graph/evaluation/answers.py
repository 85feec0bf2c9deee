"""Answer normalisation and matching (SQuAD-style), language-aware.

- :func:`normalise` — NFKC, lower case, citation markers ``[S1]`` removed, punctuation and
  English articles dropped, whitespace collapsed (SQuAD's ``normalize_answer`` plus NFKC).
- :func:`answer_tokens` — words for space-separated languages; for Japanese (no spaces)
  the characters of the normalised text, spaces removed.
- :func:`token_f1` — harmonic mean of token precision and recall (bag of tokens).
- :func:`contains` — the normalised gold answer occurs in the normalised answer.
- :func:`is_correct` — the issue's definition: containment of a gold answer, a matching
  regex pattern, or token F1 ≥ 0.5.
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "AnswerMatch",
    "answer_tokens",
    "contains",
    "exact_match",
    "is_correct",
    "match_answer",
    "normalise",
    "strip_citations",
    "token_f1",
]

_CITATION = re.compile(r"\[(?:S\d+|[^\[\]\s]+#\d+)\](?:\s*\[(?:S\d+|[^\[\]\s]+#\d+)\])*")
_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = set(string.punctuation) | set("、。・「」『』（）【】〈〉《》！？：；，．“”‘’…―—–")
_F1_CORRECT = 0.5


def strip_citations(text: str) -> str:
    """Remove citation markers such as ``[S1]`` or ``[doc.md#3]``."""
    return _CITATION.sub("", text)


def normalise(text: str) -> str:
    """Normalise an answer for comparison (see the module docstring)."""
    text = unicodedata.normalize("NFKC", strip_citations(text)).lower()
    text = "".join(" " if ch in _PUNCT else ch for ch in text)
    text = _ARTICLES.sub(" ", text)
    return " ".join(text.split())


def _is_cjk(lang: str) -> bool:
    return lang.lower().split("-")[0] in {"ja", "zh", "ko"}


def answer_tokens(text: str, lang: str = "en") -> list[str]:
    """Tokens of the normalised text: words, or characters for Japanese / Chinese / Korean."""
    norm = normalise(text)
    if _is_cjk(lang):
        return [ch for ch in norm if not ch.isspace()]
    return norm.split()


def token_f1(prediction: str, gold: str, lang: str = "en") -> float:
    """Token-level F1 between a prediction and one gold answer (character-level for ``ja``)."""
    pred, ref = answer_tokens(prediction, lang), answer_tokens(gold, lang)
    if not pred or not ref:
        return float(pred == ref)
    common = sum((Counter(pred) & Counter(ref)).values())
    if common == 0:
        return 0.0
    precision, recall = common / len(pred), common / len(ref)
    return 2 * precision * recall / (precision + recall)


def exact_match(prediction: str, gold: str, lang: str = "en") -> bool:
    """Normalised exact match (spaces ignored for Japanese)."""
    if _is_cjk(lang):
        return normalise(prediction).replace(" ", "") == normalise(gold).replace(" ", "")
    return normalise(prediction) == normalise(gold)


def contains(prediction: str, gold: str, lang: str = "en") -> bool:
    """The normalised gold answer occurs in the normalised prediction (as words in English)."""
    g = normalise(gold)
    if not g:
        return False
    p = normalise(prediction)
    if _is_cjk(lang):
        return g.replace(" ", "") in p.replace(" ", "")
    return f" {g} " in f" {p} "


@dataclass(frozen=True)
class AnswerMatch:
    """How an answer compares with the best-matching gold answer."""

    exact: bool
    """Normalised exact match with some gold answer."""
    f1: float
    """Best token F1 over the gold answers."""
    contained: bool
    """Some gold answer occurs in the answer."""
    pattern: bool
    """Some regex pattern matches the answer."""
    best_gold: str | None
    """The gold answer with the best F1 (or the contained one)."""

    @property
    def correct(self) -> bool:
        """Containment, a pattern match, or F1 ≥ 0.5."""
        return self.exact or self.contained or self.pattern or self.f1 >= _F1_CORRECT


def match_answer(
    prediction: str, golds: Sequence[str], lang: str = "en", patterns: Sequence[str] = ()
) -> AnswerMatch:
    """Compare ``prediction`` with every gold answer and pattern."""
    best_f1, best_gold, exact, contained = 0.0, None, False, False
    for gold in golds:
        f1 = token_f1(prediction, gold, lang)
        hit = contains(prediction, gold, lang)
        exact = exact or exact_match(prediction, gold, lang)
        if hit and not contained:
            best_gold = gold
        contained = contained or hit
        if f1 > best_f1:
            best_f1 = f1
            if not contained:
                best_gold = gold
    clean = strip_citations(prediction)
    pattern = any(re.search(p, clean, re.IGNORECASE) for p in patterns)
    return AnswerMatch(exact, round(best_f1, 4), contained, pattern, best_gold)


def is_correct(
    prediction: str, golds: Sequence[str], lang: str = "en", patterns: Sequence[str] = ()
) -> bool:
    """The issue's definition of a correct answer (see :class:`AnswerMatch`)."""
    return match_answer(prediction, golds, lang, patterns).correct

"""Lexical evidence that a passage sentence answers a question (offline reader and judge).

For every sentence of the passages, with its neighbours as context (the *window*):

- ``lexical`` / ``window`` — IDF-weighted share of the question's tokens found in the
  sentence / in the window (IDF over the passages' sentences: rare terms weigh more);
- ``key_share`` — share of the question's key terms (names, numbers, kanji / katakana runs)
  found in the window; ``missing`` lists the others. A year or number of the question that
  the window does not contain is a *hard* mismatch (``hard_miss``): SQuAD-style
  unanswerable questions often swap a date or a name;
- ``type_ok`` — the sentence holds a span of the answer type the question asks for
  (``when`` → a date, ``how many`` → a number, ``who`` → a name) that the question does
  not already contain; ``None`` when the question does not say;
- ``absent`` — key terms found nowhere in the sentence's passage (nor its title): the
  passage is about something else, or the question names an entity the text does not;
- ``negation_ok`` — False when the question is negated ("does not", "didn't") but the
  window is not;
- ``contrast`` — question words the *sentence* contradicts with another member of the same
  closed set (:func:`~grace.text.contrasts`: "last" asked, "first" stated; "warm" against
  "cold"): the swapped premise of a SQuAD-style near-miss question.

:func:`assess` returns them best first by ``rank`` (a weighted sum; weights in
:data:`RANK_WEIGHTS`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from grace.providers.offline.word_forms import match_tokens
from grace.schemas import Source
from grace.text import (
    AnswerType,
    answer_type,
    contrasts,
    is_japanese,
    is_negated,
    key_terms,
    normalise_text,
    number_role_mismatch,
    split_sentences,
    typed_candidates,
)

__all__ = ["RANK_WEIGHTS", "Evidence", "assess", "key_present"]

RANK_WEIGHTS = {
    "lexical": 0.45,
    "window": 0.2,
    "key_share": 0.15,
    "type_ok": 0.1,
    "hit": 0.1,
}
"""Weights of the sentence ranking (``hit``: the passage's retrieval score). ``number_role`` is
reported, not weighed here: as a ranking penalty (0.15) it cost calib accuracy 0.684 → 0.682,
so only the learned confidence model weighs it (``ev_number_role``)."""

_NUMERIC = re.compile(r"^\d[\d,.]*$")


@dataclass(frozen=True, kw_only=True)
class Evidence:
    """How well one sentence (with its neighbours) answers the question."""

    sentence: str
    source_id: str
    lexical: float
    window: float
    key_share: float
    missing: tuple[str, ...]
    hard_miss: bool
    absent: tuple[str, ...]
    type_ok: bool | None
    negation_ok: bool
    hit_score: float
    contrast: tuple[str, ...] = ()
    number_role: bool = False
    """A number of the question appears in the sentence only in another role ("item number 7"
    asked, "… weighs 7 grams" stated): the sentence is about something else."""
    context: str = ""
    """The sentence with its neighbours, as written."""
    before: str = ""
    """The sentence before it in its passage ("" at the start)."""
    after: str = ""
    """The sentence after it in its passage ("" at the end)."""
    title: str = ""
    """Title of the sentence's document."""

    @property
    def rank(self) -> float:
        """Ranking score: the weighted sum of :data:`RANK_WEIGHTS`."""
        w = RANK_WEIGHTS
        type_term = 1.0 if self.type_ok in (True, None) else 0.0
        return (
            w["lexical"] * self.lexical
            + w["window"] * self.window
            + w["key_share"] * self.key_share
            + w["type_ok"] * type_term
            + w["hit"] * self.hit_score
        )


def _bigrams(text: str) -> set[str]:
    return {text[i : i + 2] for i in range(len(text) - 1)}


_NUMBER_WORDS = dict(
    enumerate("zero one two three four five six seven eight nine ten eleven twelve".split())
)


def key_present(term: str, window: str, window_tokens: set[str]) -> bool:
    """Whether a key term occurs in the text (Japanese runs: ≥ half their bigrams).

    A small number also matches its English word ("3" ~ "three").
    """
    if term in window:
        return True
    if term.isdigit() and int(term) in _NUMBER_WORDS:
        return _NUMBER_WORDS[int(term)] in window_tokens or _NUMBER_WORDS[int(term)] in window
    if is_japanese(term):
        grams = _bigrams(term)
        return bool(grams) and len(grams & _bigrams(window)) / len(grams) >= 0.5
    tokens = set(match_tokens(term))
    return bool(tokens) and tokens <= window_tokens


def _idf(q_tokens: set[str], sentences: list[set[str]]) -> dict[str, float]:
    n = max(len(sentences), 1)
    return {t: math.log(1.0 + (n + 1) / (1 + sum(t in s for s in sentences))) for t in q_tokens}


@dataclass(frozen=True)
class _Question:
    """What every sentence is scored against."""

    text: str
    tokens: set[str]
    idf: dict[str, float]
    total: float
    keys: set[str]
    kind: AnswerType | None
    negated: bool


def _evidence(
    q: _Question,
    passage: Source,
    sentences: list[str],
    sets: list[set[str]],
    absent: tuple[str, ...],
    i: int,
) -> Evidence:
    """Sentence ``i`` of ``passage`` with its neighbour window, scored against ``q``."""
    sentence = sentences[i]
    lo, hi = max(i - 1, 0), min(i + 2, len(sentences))
    window_text = normalise_text(" ".join(sentences[lo:hi]))
    window_tokens = set().union(*sets[lo:hi])
    keys = q.keys
    missing = tuple(sorted(k for k in keys if not key_present(k, window_text, window_tokens)))
    return Evidence(
        sentence=sentence,
        source_id=passage.source_id,
        lexical=sum(q.idf[t] for t in q.tokens & sets[i]) / q.total,
        window=sum(q.idf[t] for t in q.tokens & window_tokens) / q.total,
        key_share=1.0 - len(missing) / len(keys) if keys else 1.0,
        missing=missing,
        hard_miss=any(_NUMERIC.match(k) for k in missing),
        absent=absent,
        type_ok=bool(typed_candidates(sentence, q.kind, q.text)) if q.kind else None,
        negation_ok=not q.negated or is_negated(window_text),
        hit_score=passage.score,
        contrast=tuple(contrasts(q.text, sentence)),
        number_role=bool(number_role_mismatch(q.text, sentence)),
        context=" ".join(sentences[lo:hi]),
        before=sentences[i - 1] if i > 0 else "",
        after=sentences[i + 1] if i + 1 < len(sentences) else "",
        title=passage.title,
    )


def assess(question: str, passages: Sequence[Source]) -> list[Evidence]:
    """Score every sentence of ``passages`` against ``question``, best first."""
    q_tokens = set(match_tokens(question))
    per_passage = [(p, split_sentences(p.text)) for p in passages]
    token_sets = {id(p): [set(match_tokens(s)) for s in sentences] for p, sentences in per_passage}
    idf = _idf(q_tokens, [t for sets in token_sets.values() for t in sets])
    q = _Question(
        text=question,
        tokens=q_tokens,
        idf=idf,
        total=sum(idf.values()) or 1.0,
        keys=key_terms(question),
        kind=answer_type(question),
        negated=is_negated(question),
    )
    out: list[Evidence] = []
    for passage, sentences in per_passage:
        sets = token_sets[id(passage)]
        whole = normalise_text(f"{passage.title} {passage.text}")
        whole_tokens = set(match_tokens(whole))
        absent = tuple(sorted(k for k in q.keys if not key_present(k, whole, whole_tokens)))
        indices = range(len(sentences))
        out.extend(_evidence(q, passage, sentences, sets, absent, i) for i in indices)
    out.sort(key=lambda e: e.rank, reverse=True)
    return out

"""The signals of one run as named numbers: what the learned confidence model weighs.

The model (:mod:`confidence.correctness_model`, docs/architecture.md §4) predicts P(answer correct)
from everything GRACE already measures about a run, plus features aimed at what fails: the
adversarial questions of SQuAD 2.0 (a date, number or name swapped; a negation; a premise
the text contradicts) and answers taken from a passage on the right topic that does not state
the fact. Every feature is general — a property of the question, the passages and the
answer — and none is a veto: the model decides how much each weighs.

:func:`run_features` is computed the same way inside the graph (from the state, in the
``confidence`` node) and when the model is fitted (from the runs ``grace eval`` recorded),
so what was fitted is what runs.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from grace.patterns import lazy
from grace.providers.offline.evidence import Evidence, assess
from grace.providers.offline.word_forms import match_tokens
from grace.schemas import Source
from grace.scoring.answer_shape import (
    phrase_share,
    quantity_swap,
    restates_question,
    subject_absent,
)
from grace.scoring.sentence_check import run_check
from grace.text import (
    answer_type,
    is_japanese,
    is_negated,
    key_terms,
    normalise_text,
    number_role_mismatch,
    without_citations,
)

__all__ = [
    "FEATURE_NAMES",
    "RunSignals",
    "run_features",
    "signals_of",
]

_NUMBER = lazy(r"\d+(?:[.,]\d+)*")
_WORD = lazy(r"[^\W\d_]+", re.UNICODE)
_WH = {
    "who": ("who", "whom", "whose"),
    "when": ("when", "what year", "which year"),
    "where": ("where",),
    "how_many": ("how many", "how much", "how long", "how far", "how old"),
    "why": ("why",),
    "what": ("what", "which"),
}
"""English question words (first match wins, in this order)."""
_WH_JA = {
    "who": ("誰", "だれ"),
    "when": ("いつ", "何年", "何月", "何日", "何世紀"),
    "where": ("どこ",),
    "how_many": ("いくつ", "何人", "何個", "何回", "どれくらい", "どのくらい", "何%"),
    "why": ("なぜ", "何故"),
    "what": ("何", "なに", "どの", "どんな"),
}


@dataclass(frozen=True)
class RunSignals:
    """What a finished run measured: the inputs of :func:`run_features`."""

    question: str
    passages: Sequence[Source]
    """Every passage the run's searches returned (deduplicated)."""
    answer: str
    """The answer as drafted ("" when there is none)."""
    search: Mapping[str, float]
    """The best search step's statistics (``result_count``, ``max_score`` …)."""
    answer_factors: Mapping[str, float]
    """The answer step's factors and score breakdown (``answer_margin``, ``check:…``)."""
    search_score: float
    answer_score: float


def _is_search(step: Any) -> bool:
    return "result_count" in (step.factors or {})


def signals_of(
    question: str, steps: Sequence[Any], scores: Mapping[str, tuple[float, Mapping[str, float]]]
) -> RunSignals:
    """A run's signals from its steps and their scores — the graph's state or a run record.

    Args:
        question: The question the plan answers.
        steps: The plan's executed steps, in order: each with ``step_id``, ``status``,
            ``factors``, ``output`` and ``sources`` (``source_id``, ``source``,
            ``chunk_index``, ``score``, ``text``).
        scores: Per step id, its score and breakdown.

    """
    searches = [s for s in steps if _is_search(s)]
    seen: set[tuple[str, int]] = set()
    passages: list[Source] = []
    for step in searches:
        for src in step.sources:
            key = (src.source, src.chunk_index)
            if key not in seen:
                seen.add(key)
                passages.append(
                    Source(source_id=src.source_id, source=src.source,
                           chunk_index=src.chunk_index, score=src.score, text=src.text,
                           title=getattr(src, "title", ""),
                           location=getattr(src, "location", ""))
                )
    best = max(searches, key=lambda s: s.factors.get("max_score", 0.0), default=None)
    others = [s for s in steps if not _is_search(s) and str(s.status) != "skipped"]
    last = others[-1] if others else None
    factors: dict[str, float] = {}
    if last is not None:
        factors = {**last.factors, **scores.get(last.step_id, (0.0, {}))[1]}
    abstained = factors.get("abstained", 0.0) > 0
    return RunSignals(
        question=question,
        passages=passages,
        answer="" if last is None or abstained else str(last.output or ""),
        search=dict(best.factors) if best is not None else {},
        answer_factors=factors,
        search_score=scores.get(best.step_id, (0.0, {}))[0] if best is not None else 0.0,
        answer_score=scores.get(last.step_id, (0.0, {}))[0] if last is not None else 0.0,
    )


def _wh(question: str, ja: bool) -> str:
    text = question.lower()
    for name, cues in (_WH_JA if ja else _WH).items():
        if any(cue in text for cue in cues):
            return name
    return "other"


def _sentence_of(answer: str, ranked: list[Evidence]) -> tuple[Evidence | None, int]:
    """The evidence row of the answer's sentence (the reader's choice) and its rank."""
    plain = normalise_text(without_citations(answer)).strip()
    for i, row in enumerate(ranked):
        sentence = normalise_text(row.sentence).strip()
        if sentence and (sentence in plain or plain in sentence):
            return row, i
    return (ranked[0], 0) if ranked else (None, -1)


def _evidence_features(question: str, answer: str, passages: Sequence[Source]) -> dict[str, float]:
    ranked = assess(question, passages) if passages and question.strip() else []
    row, rank = _sentence_of(answer, ranked)
    if row is None:
        return {"has_evidence": 0.0}
    others = [r for r in ranked if r is not row]
    runner = others[0].rank if others else 0.0
    return {
        "has_evidence": 1.0,
        "ev_rank": row.rank,
        "ev_lexical": row.lexical,  # 1 − the IDF-weighted share of question words it lacks
        "ev_window": row.window,
        "ev_key_share": row.key_share,
        "ev_missing_keys": float(len(row.missing)),
        "ev_hard_miss": float(row.hard_miss),
        "ev_absent": float(bool(row.absent)),
        "ev_type_ok": {True: 1.0, False: 0.0, None: 0.5}[row.type_ok],
        "ev_negation_ok": float(row.negation_ok),
        "ev_contrast": float(bool(row.contrast)),
        "ev_margin": row.rank - runner,
        "ev_not_best": float(rank > 0),
        "ev_number_role": number_role_mismatch(question, row.sentence),
        **_context_features(row),
    }


def _context_features(row: Evidence) -> dict[str, float]:
    """What the answer sentence states itself, apart from what the reader read around it.

    The reader counts a question term held only by the document title, the heading path
    (:data:`~grace.providers.offline.evidence.CONTEXT_WEIGHT`) or the referent of a pronoun
    or elided subject; ``ev_lexical`` includes those. ``ev_stated`` is the share the
    sentence's own words hold, ``ev_context_gap`` how much of the match rests on context
    only. ``ev_measure_ok``: the sentence states a value in the unit the question asks for
    (0.5 when it asks for none); ``ev_absent_hard``: a name, number or the asked relation is
    absent from the passage (the reader abstains on those, but not on one missing common
    noun).
    """
    return {
        "ev_stated": row.stated,
        "ev_context_gap": max(0.0, row.lexical - row.stated),
        "ev_measure_ok": {True: 1.0, False: 0.0, None: 0.5}[row.measure_ok],
        "ev_absent_hard": float(bool(row.absent_hard)),
        "ev_absent_soft": float(len(row.absent) - len(row.absent_hard)),
    }


def _check_features(question: str, answer: str, passages: Sequence[Source]) -> dict[str, float]:
    """The sentence check's result (:func:`grace.scoring.sentence_check.run_check`) as features.

    ``sc_fails``: the answer's sentence does not state every content term, number and
    negation of the question (0 where the check does not apply); ``sc_missing``: how many
    terms and numbers it lacks. SILENT is capped on the same result; as a feature it ranks
    the runs below SILENT too.
    """
    check = run_check(question, answer, passages)
    if check is None:
        return {"sc_fails": 0.0, "sc_missing": 0.0}
    return {
        "sc_fails": float(not check.holds),
        "sc_missing": float(len(check.missing) + len(check.numbers)),
    }


_FACTORS = (
    "answer_margin",
    "abstained",
    "llm_self_eval",
    "query_coverage",
    "check:polarity",
    "check:swapped_term",
)
_SEARCH = ("max_score", "mean_score", "spread")


def _new_content(question: str, answer: str) -> dict[str, float]:
    """How much the answer adds to the question.

    A sentence that only restates the question ("…が寄港している" for "…が寄港した場所は？")
    names no answer, whatever it matches.
    """
    tokens = set(match_tokens(answer))
    if not tokens:
        return {"a_new_share": 0.0, "a_new_count": 0.0}
    new = tokens - set(match_tokens(question))
    return {"a_new_share": len(new) / len(tokens), "a_new_count": math.log1p(len(new))}


def run_features(signals: RunSignals) -> dict[str, float]:
    """The run's features by name (:data:`FEATURE_NAMES`; a missing factor counts as 0)."""
    q = signals.question
    ja = is_japanese(q)
    wh = _wh(q, ja)
    answer = without_citations(signals.answer or "").strip()
    features = {
        "search_score": signals.search_score,
        "answer_score": signals.answer_score,
        **{f"search_{k}": float(signals.search.get(k, 0.0)) for k in _SEARCH},
        **{
            f"f_{k.replace(':', '_')}": float(signals.answer_factors.get(k, 0.0))
            for k in _FACTORS
        },
        **{f"m_{k.replace(':', '_')}": float(k not in signals.answer_factors) for k in _FACTORS},
        "lang_ja": float(ja),
        **{f"wh_{name}": float(wh == name) for name in (*_WH, "other")},
        "q_length": math.log1p(len(q)),
        "q_keys": float(len(key_terms(q))),
        "q_negated": float(is_negated(q)),
        "q_typed": float(answer_type(q) is not None),
        "a_length": math.log1p(len(answer)),
        "a_has_number": float(bool(_NUMBER.search(answer))),
        **_new_content(q, answer),
        "a_restates": restates_question(q, answer),
        "a_quantity_swap": quantity_swap(q, answer),
        "a_phrase_share": phrase_share(q, answer),
        "a_subject_absent": subject_absent(q, answer),
    }
    features.update(_evidence_features(q, answer, signals.passages))
    features.update(_check_features(q, answer, signals.passages))
    return {name: features.get(name, 0.0) for name in FEATURE_NAMES}


FEATURE_NAMES: tuple[str, ...] = (
    "search_score",
    "answer_score",
    *(f"search_{k}" for k in _SEARCH),
    *(f"f_{k.replace(':', '_')}" for k in _FACTORS),
    *(f"m_{k.replace(':', '_')}" for k in _FACTORS),
    "lang_ja",
    *(f"wh_{name}" for name in (*_WH, "other")),
    "q_length",
    "q_keys",
    "q_negated",
    "q_typed",
    "a_length",
    "a_has_number",
    "a_new_share",
    "a_new_count",
    "has_evidence",
    "ev_rank",
    "ev_lexical",
    "ev_window",
    "ev_key_share",
    "ev_missing_keys",
    "ev_hard_miss",
    "ev_absent",
    "ev_type_ok",
    "ev_negation_ok",
    "ev_contrast",
    "ev_margin",
    "ev_not_best",
    "ev_number_role",
    "a_restates",
    "a_quantity_swap",
    "a_phrase_share",
    "a_subject_absent",
    "ev_stated",
    "ev_context_gap",
    "ev_measure_ok",
    "ev_absent_hard",
    "ev_absent_soft",
    "sc_fails",
    "sc_missing",
)
"""Every feature, in the order the model's coefficients are stored."""

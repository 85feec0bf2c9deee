"""Selective prediction: how right GRACE is when it does not ask, and what that costs.

A run is *right* when it answered an answerable question correctly, or abstained on a
question the documents do not answer. Everything else is an *error*: a wrong answer, an
answer to an unanswerable question, and also an abstention on an answerable one (it is not
right, even though it is honest).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from confidence.risk_control import clopper_pearson_upper
from graph.evaluation.answers import match_answer
from graph.evaluation.record import RunRecord

__all__ = [
    "RISKS",
    "coverage_at_risk",
    "is_correct_run",
    "is_right",
    "level_block",
    "selective_figures",
]

RISKS: tuple[float, ...] = (0.05, 0.10, 0.20)
"""Error levels at which :func:`coverage_at_risk` is reported."""


def is_correct_run(record: RunRecord) -> bool:
    """Answerable, answered, and the answer matches a gold answer."""
    q = record.question
    if not q.answerable or not record.answered:
        return False
    return match_answer(record.answer, q.answers, q.lang, q.patterns).correct


def is_right(record: RunRecord) -> bool:
    """A correct answer to an answerable question, or an abstention on an unanswerable one."""
    if record.question.answerable:
        return is_correct_run(record)
    return not record.answered


def level_block(records: Sequence[RunRecord], level: str) -> dict[str, Any]:
    """``rate`` of runs ending at ``level``, their ``error`` and its 95 % upper bound."""
    chosen = [r for r in records if r.level == level]
    wrong = sum(not is_right(r) for r in chosen)
    n = len(chosen)
    return {
        "n": n,
        "rate": round(n / len(records), 4) if records else None,
        "error": round(wrong / n, 4) if n else None,
        "error_upper": round(clopper_pearson_upper(wrong, n, 0.95), 4) if n else None,
    }


def coverage_at_risk(
    records: Sequence[RunRecord], risks: Sequence[float] = RISKS
) -> dict[str, float]:
    """Largest share of runs, taken by decreasing confidence, whose error stays ≤ each risk.

    Ties in confidence enter together (a threshold cannot split them).
    """
    ordered = sorted(records, key=lambda r: -r.confidence)
    best = dict.fromkeys(risks, 0)
    errors = 0
    for i, record in enumerate(ordered):
        errors += not is_right(record)
        if i + 1 < len(ordered) and ordered[i + 1].confidence == record.confidence:
            continue
        for risk in risks:
            if errors <= risk * (i + 1):
                best[risk] = i + 1
    n = len(records) or 1
    return {f"{risk:.2f}": round(count / n, 4) for risk, count in best.items()}


def selective_figures(records: Sequence[RunRecord]) -> dict[str, Any]:
    """The ``silent`` and ``notify`` blocks and ``coverage_at_risk`` of a report."""
    return {
        "silent": level_block(records, "silent"),
        "notify": level_block(records, "notify"),
        "coverage_at_risk": coverage_at_risk(records),
    }

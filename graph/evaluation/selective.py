"""Selective prediction: how right GRACE is when it does not ask, and what that costs.

A run is *right* when it answered an answerable question correctly, or abstained on a
question the documents do not answer. Everything else is an *error*: a wrong answer, an
answer to an unanswerable question, and also an abstention on an answerable one (it is not
right, even though it is honest).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from confidence.risk_control import clopper_pearson_lower, clopper_pearson_upper
from graph.evaluation.answers import is_correct
from graph.evaluation.certify import StratumCounts, mix_bound, worst_mix_risk
from graph.evaluation.record import RunRecord

__all__ = [
    "RISKS",
    "coverage_at_risk",
    "is_correct_run",
    "is_right",
    "level_block",
    "selective_figures",
    "silent_promise",
]

RISKS: tuple[float, ...] = (0.05, 0.10, 0.20)
"""Error levels at which :func:`coverage_at_risk` is reported."""


def is_correct_run(record: RunRecord) -> bool:
    """Answerable, answered, and the answer matches a gold answer."""
    q = record.question
    if not q.answerable or not record.answered:
        return False
    return is_correct(record.answer, q.answers, q.lang, q.patterns)


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


def _interval(k: int, n: int) -> list[float] | None:
    """Two-sided 95 % Clopper–Pearson interval of k / n (None when n is 0)."""
    if n == 0:
        return None
    return [
        round(clopper_pearson_lower(k, n, 0.975), 4),
        round(clopper_pearson_upper(k, n, 0.975), 4),
    ]


def _rate(k: int, n: int) -> dict[str, Any]:
    return {"k": k, "n": n, "rate": round(k / n, 4) if n else None, "ci95": _interval(k, n)}


def _by_kind(lang: str, records: Sequence[RunRecord]) -> dict[str, dict[str, Any]]:
    """SILENT rate and error of each kind of question of one language."""
    out = {}
    for kind in sorted({r.question.kind for r in records}):
        rows = [r for r in records if r.question.kind == kind]
        silent = [r for r in rows if r.level == "silent"]
        out[f"{lang}/{kind}"] = {
            "silent": _rate(len(silent), len(rows)),
            "silent_error": _rate(sum(not is_right(r) for r in silent), len(silent)),
        }
    return out


def _stratum(lang: str, records: Sequence[RunRecord]) -> StratumCounts:
    """One language's counts for the worst case over mixes."""
    answerable = [r for r in records if r.question.answerable]
    silent = [r for r in answerable if r.level == "silent"]
    return StratumCounts(
        name=lang,
        answerable=len(answerable),
        silent=len(silent),
        silent_wrong=sum(not is_right(r) for r in silent),
        unanswerable=len(records) - len(answerable),
        unanswerable_silent=sum(
            r.level == "silent" for r in records if not r.question.answerable
        ),
    )


def silent_promise(
    records: Sequence[RunRecord], *, delta: float = 0.10, max_share: float = 0.5
) -> dict[str, Any]:
    """SILENT error per question kind and language, with intervals, and the worst case over mixes.

    Per language: answerable questions' SILENT rate and wrong rate among those SILENT,
    unanswerable questions' SILENT rate (each with a 95 % Clopper–Pearson interval), and
    P(wrong | SILENT) for every mix with at most ``max_share`` unanswerable questions: the
    worst value of the observed rates and a bound holding with probability ≥ 1 − ``delta``
    (:func:`graph.evaluation.certify.mix_bound`, the certificate's test inverted).
    """
    langs = sorted({r.question.lang for r in records})
    by_kind: dict[str, dict[str, Any]] = {}
    for lang in langs:
        by_kind |= _by_kind(lang, [r for r in records if r.question.lang == lang])
    counts = [_stratum(lang, [r for r in records if r.question.lang == lang]) for lang in langs]
    by_lang: dict[str, Any] = {}
    for c in counts:
        point = worst_mix_risk(
            c.silent / c.answerable if c.answerable else 0.0,
            c.silent_wrong / c.silent if c.silent else 0.0,
            c.unanswerable_silent / c.unanswerable if c.unanswerable else 0.0,
            max_share,
        )
        by_lang[c.name] = {
            "answerable_silent": _rate(c.silent, c.answerable),
            "answerable_silent_wrong": _rate(c.silent_wrong, c.silent),
            "unanswerable_silent": _rate(c.unanswerable_silent, c.unanswerable),
            "worst_case_observed": round(point, 4) if c.silent + c.unanswerable_silent else None,
        }
    bound, _ = mix_bound(counts, delta=delta, max_share=max_share) if counts else (None, [])
    return {
        "by_kind": by_kind,
        "by_lang": by_lang,
        "max_unanswerable_share": max_share,
        "worst_case_bound": round(bound, 4) if bound is not None else None,
        "delta": delta,
        "method": "95 % Clopper-Pearson intervals; worst case over mixes with up to "
        f"{max_share:.0%} unanswerable, per language; bound at 1 - delta: the certificate's "
        "test inverted (graph.evaluation.certify), Bonferroni over languages",
    }

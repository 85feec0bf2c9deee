"""The evaluation report: figures over all runs, per kind and per language, with CIs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from graph.evaluation.answers import contains
from graph.evaluation.metrics import aurc, auroc, bootstrap_ci, ece
from graph.evaluation.record import RunRecord
from graph.evaluation.selective import (
    is_correct_run,
    is_right,
    selective_figures,
    silent_promise,
)

__all__ = [
    "EvalReport",
    "build_report",
    "figures",
    "is_correct_run",
    "problem_summary",
    "recall_at",
]


def recall_at(record: RunRecord, k: int) -> bool:
    """A gold answer occurs in one of the top-``k`` chunks of the run's first search."""
    searches = record.search_steps
    if not searches:
        return False
    q = record.question
    top = searches[0].sources[:k]
    return any(contains(c.text, gold, q.lang) for c in top for gold in q.answers)


def _mean(values: Sequence[float | bool]) -> float | None:
    return round(float(np.mean(values)), 4) if len(values) else None


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def _silent_figures(records: Sequence[RunRecord]) -> dict[str, float | None]:
    """The share of runs answered SILENT and the share of those that are wrong."""
    silent = [r for r in records if r.level == "silent"]
    return {
        "silent_rate": _mean([r.level == "silent" for r in records]),
        "silent_error": _mean([not is_right(r) for r in silent]),
    }


def figures(records: Sequence[RunRecord]) -> dict[str, Any]:
    """Accuracy, recall@k, AUROCs, ECE, AURC, intervention rates, cost and latency."""
    answerable = [r for r in records if r.question.answerable]
    unanswerable = [r for r in records if not r.question.answerable]
    conf = [r.confidence for r in records]
    correct = [is_correct_run(r) for r in records]
    latency = [r.latency_ms for r in records]
    return {
        "n": len(records),
        "n_answerable": len(answerable),
        "accuracy": _mean([is_correct_run(r) for r in answerable]),
        "recall_at_1": _mean([recall_at(r, 1) for r in answerable]),
        "recall_at_5": _mean([recall_at(r, 5) for r in answerable]),
        "auroc": _round(auroc(correct, conf)),
        "answerability_auroc": _round(auroc([r.question.answerable for r in records], conf)),
        "ece": _round(ece(conf, correct)),
        "aurc": _round(aurc(conf, correct)),
        **_silent_figures(records),
        "intervention_rate": {
            "answerable": _mean([r.intervened for r in answerable]),
            "unanswerable": _mean([r.intervened for r in unanswerable]),
        },
        "mean_confidence": _mean(conf),
        "llm_calls_per_question": _mean([r.model_calls for r in records]),
        "tokens_per_question": _mean([r.tokens for r in records]),
        "latency_ms": {
            "p50": round(float(np.percentile(latency, 50)), 2) if latency else None,
            "p95": round(float(np.percentile(latency, 95)), 2) if latency else None,
        },
    }


def _ece_metric(labels: Sequence[bool], scores: Sequence[float]) -> float | None:
    return ece(scores, labels)


def _confidence_intervals(records: Sequence[RunRecord], n_boot: int) -> dict[str, Any]:
    conf = [r.confidence for r in records]
    correct = [is_correct_run(r) for r in records]
    answerable = [r.question.answerable for r in records]
    return {
        "method": f"percentile bootstrap over questions, {n_boot} resamples, 95 %, seed 0",
        "auroc": bootstrap_ci(auroc, correct, conf, n_boot=n_boot),
        "answerability_auroc": bootstrap_ci(auroc, answerable, conf, n_boot=n_boot),
        "ece": bootstrap_ci(_ece_metric, correct, conf, n_boot=n_boot),
    }


def problem_summary(records: Sequence[RunRecord], top: int = 5) -> dict[str, Any]:
    """How many questions met a model / tool error, and the commonest messages."""
    counts: dict[str, int] = {}
    for r in records:
        for problem in dict.fromkeys(p.split(": ", 1)[-1][:200] for p in r.problems):
            counts[problem] = counts.get(problem, 0) + 1
    common = sorted(counts.items(), key=lambda kv: -kv[1])[:top]
    return {
        "questions": sum(bool(r.problems) for r in records),
        "common": [{"message": m, "questions": n} for m, n in common],
    }


def _scorer_summary(records: Sequence[RunRecord]) -> dict[str, Any]:
    table: dict[str, list[tuple[float, bool]]] = {}
    for r in records:
        for name, res in r.scorer_details.get("results", {}).items():
            table.setdefault(name, []).append((res["score"], res["passed"]))
    return {
        name: {
            "n": len(rows),
            "mean_score": round(float(np.mean([s for s, _ in rows])), 4),
            "pass_rate": round(float(np.mean([p for _, p in rows])), 4),
        }
        for name, rows in table.items()
    }


@dataclass(kw_only=True)
class EvalReport:
    """Everything ``report.json`` holds (see :func:`build_report`)."""

    n: int
    accuracy: float | None
    recall_at_1: float | None
    recall_at_5: float | None
    auroc: float | None
    answerability_auroc: float | None
    ece: float | None
    aurc: float | None
    intervention_rate: dict[str, float | None]
    llm_calls_per_question: float | None
    tokens_per_question: float | None
    latency_ms: dict[str, float | None]
    ci: dict[str, Any]
    by_kind: dict[str, dict[str, Any]]
    by_lang: dict[str, dict[str, Any]]
    scorers: dict[str, Any]
    verdict: dict[str, Any]
    settings: dict[str, Any]
    dataset: dict[str, Any] = field(default_factory=dict)
    errors: int = 0
    """Questions whose run raised instead of finishing or pausing."""
    silent: dict[str, Any] = field(default_factory=dict)
    """Runs ending SILENT: ``rate``, ``error`` and its 95 % upper bound ``error_upper``."""
    notify: dict[str, Any] = field(default_factory=dict)
    """The same for NOTIFY."""
    coverage_at_risk: dict[str, float] = field(default_factory=dict)
    """Largest share of questions, by confidence, whose error stays ≤ 0.05 / 0.10 / 0.20."""
    problems: dict[str, Any] = field(default_factory=dict)
    """Model / tool errors: ``questions`` with at least one, and the commonest messages."""
    thresholds: dict[str, float] = field(default_factory=dict)
    """The thresholds that decided the runs' levels (marked on the risk-coverage plot)."""
    thresholds_source: str = ""
    """Where they came from: the learned model or the settings."""
    silent_promise: dict[str, Any] = field(default_factory=dict)
    """SILENT error per kind and language with intervals, and the worst case over mixes
    (:func:`~graph.evaluation.selective.silent_promise`)."""

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return asdict(self)


def build_report(
    records: Sequence[RunRecord],
    *,
    settings: dict[str, Any],
    dataset: dict[str, Any] | None = None,
    n_boot: int = 1000,
    thresholds: tuple[dict[str, float], str] | None = None,
) -> EvalReport:
    """Compute the report from scored runs.

    ``thresholds``: the thresholds that decided the levels and where they came from (default:
    the settings' ``confidence.thresholds``).
    """
    deciding, source = thresholds or (
        dict(settings.get("confidence", {}).get("thresholds", {})),
        "settings",
    )
    overall = figures(records)
    groups: dict[str, dict[str, list[RunRecord]]] = {"kind": {}, "lang": {}}
    for r in records:
        groups["kind"].setdefault(r.question.kind, []).append(r)
        groups["lang"].setdefault(r.question.lang, []).append(r)
    verdicts = [r.scorer_details for r in records if r.scorer_details]
    return EvalReport(
        n=overall["n"],
        accuracy=overall["accuracy"],
        recall_at_1=overall["recall_at_1"],
        recall_at_5=overall["recall_at_5"],
        auroc=overall["auroc"],
        answerability_auroc=overall["answerability_auroc"],
        ece=overall["ece"],
        aurc=overall["aurc"],
        intervention_rate=overall["intervention_rate"],
        llm_calls_per_question=overall["llm_calls_per_question"],
        tokens_per_question=overall["tokens_per_question"],
        latency_ms=overall["latency_ms"],
        ci=_confidence_intervals(records, n_boot),
        by_kind={k: figures(v) for k, v in sorted(groups["kind"].items())},
        by_lang={k: figures(v) for k, v in sorted(groups["lang"].items())},
        scorers=_scorer_summary(records),
        verdict={
            "all_passed_rate": _mean([v["all_passed"] for v in verdicts]),
            "weighted_mean": _mean([v["weighted_mean"] for v in verdicts]),
        },
        settings=settings,
        dataset=dataset or {},
        errors=sum(r.status == "error" for r in records),
        **selective_figures(records),
        problems=problem_summary(records),
        thresholds=deciding,
        thresholds_source=source,
        silent_promise=silent_promise(records),
    )

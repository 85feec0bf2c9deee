"""Scorers: one aspect each, independent, with transparent details.

Every scorer has a ``name``, a ``weight`` and a ``threshold`` and returns a
:class:`ScoreResult` (score in [0, 1], passed, details) or ``None`` when the aspect does not
apply to the run (e.g. answer match on an unanswerable question). A new scorer is any object
with those three attributes and a ``score(record)`` method. :func:`verdict` combines the
results as all-pass and as a weighted mean.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from grace.retrieval import tokenize
from grace.text import split_sentences
from graph.evaluation.answers import match_answer, normalise, strip_citations
from graph.evaluation.record import RunRecord

__all__ = [
    "AbstentionScorer",
    "AnswerMatchScorer",
    "CitationGroundingScorer",
    "CollectionPrecisionScorer",
    "LatencyScorer",
    "PlanActionScorer",
    "ScoreResult",
    "Scorer",
    "Verdict",
    "default_scorers",
    "score_run",
    "verdict",
]


@dataclass(frozen=True, kw_only=True)
class ScoreResult:
    """One scorer's result on one run."""

    name: str
    score: float
    passed: bool
    weight: float
    threshold: float
    details: dict[str, Any] = field(default_factory=dict)


@runtime_checkable
class Scorer(Protocol):
    """Scores one aspect of a run."""

    name: str
    weight: float
    threshold: float

    def score(self, record: RunRecord) -> ScoreResult | None:
        """Score the run, or ``None`` when the aspect does not apply."""
        ...


@dataclass(kw_only=True)
class _Base:
    name: str
    weight: float = 1.0
    threshold: float = 1.0

    def _result(self, score: float, details: dict[str, Any]) -> ScoreResult:
        score = round(min(max(score, 0.0), 1.0), 4)
        return ScoreResult(
            name=self.name,
            score=score,
            passed=score >= self.threshold,
            weight=self.weight,
            threshold=self.threshold,
            details=details,
        )


@dataclass(kw_only=True)
class AnswerMatchScorer(_Base):
    """Answer vs gold: 1 for containment / exact / pattern, else best token F1 (answerable only).

    Passes at ``threshold`` (0.5: the issue's "correct" definition).
    """

    name: str = "answer_match"
    weight: float = 2.0
    threshold: float = 0.5

    def score(self, record: RunRecord) -> ScoreResult | None:
        """Score the answer against the gold answers."""
        q = record.question
        if not q.answerable:
            return None
        answer = record.answer if record.answered else ""
        m = match_answer(answer, q.answers, q.lang, q.patterns)
        value = 1.0 if (m.exact or m.contained or m.pattern) else m.f1
        details = {
            "exact": m.exact,
            "f1": m.f1,
            "contained": m.contained,
            "pattern": m.pattern,
            "best_gold": m.best_gold,
            "answered": record.answered,
        }
        if not record.answered:
            details["why"] = f"no answer given (run {record.status} at {record.level})"
        return self._result(value, details)


@dataclass(kw_only=True)
class PlanActionScorer(_Base):
    """Share of expected plan actions matched position by position (when the dataset has them)."""

    name: str = "plan_actions"
    weight: float = 0.5

    def score(self, record: RunRecord) -> ScoreResult | None:
        """Compare planned actions with ``question.expected_actions``."""
        expected = record.question.expected_actions
        if expected is None:
            return None
        planned = record.plan_actions
        length = max(len(expected), len(planned), 1)
        hits = sum(a == b for a, b in zip(expected, planned, strict=False))
        return self._result(hits / length, {"expected": list(expected), "planned": planned})


@dataclass(kw_only=True)
class CollectionPrecisionScorer(_Base):
    """Share of search steps that searched the expected collection."""

    name: str = "collection_precision"
    weight: float = 0.5
    expected: str | None = None
    """Collection expected when the question names none (the evaluation's collection)."""

    def score(self, record: RunRecord) -> ScoreResult | None:
        """Check each search step's collection."""
        target = record.question.collection or self.expected
        searched = [s.collection for s in record.search_steps]
        if target is None or not searched:
            return None
        wrong = [c for c in searched if c != target]
        details = {"expected": target, "searched": searched}
        if wrong:
            details["wrong"] = wrong
        return self._result(1.0 - len(wrong) / len(searched), details)


def _supported(sentence: str, evidence_tokens: set[str]) -> tuple[bool, float]:
    tokens = set(tokenize(sentence))
    if not tokens:
        return True, 1.0
    share = len(tokens & evidence_tokens) / len(tokens)
    return share >= 0.8, round(share, 4)


@dataclass(kw_only=True)
class CitationGroundingScorer(_Base):
    """Anti-hallucination: cited sources were retrieved; answer sentences are supported.

    Score = (every cited passage was retrieved) × share of answer sentences whose content
    tokens are ≥ 80 % present in the retrieved text. Applies to runs that answered.
    """

    name: str = "citation_grounding"
    weight: float = 1.0

    def score(self, record: RunRecord) -> ScoreResult | None:
        """Check citations and sentence support against the retrieved chunks."""
        if not record.answered:
            return None
        retrieved = {c.key for c in record.retrieved}
        stray = [c.key for c in record.cited if c.key not in retrieved]
        evidence = set(tokenize(" ".join(c.text for c in record.retrieved)))
        sentences = split_sentences(strip_citations(record.answer)) or [record.answer]
        checks = [_supported(s, evidence) for s in sentences]
        supported = sum(ok for ok, _ in checks) / len(checks)
        details: dict[str, Any] = {
            "cited": [c.key for c in record.cited],
            "sentences": len(sentences),
            "supported_share": round(supported, 4),
        }
        if not record.cited:
            details["why"] = "the answer cites no source"
        if stray:
            details["not_retrieved"] = stray
        unsupported = [s for s, (ok, _) in zip(sentences, checks, strict=True) if not ok]
        if unsupported:
            details["unsupported"] = unsupported
        ok_citations = bool(record.cited) and not stray
        return self._result(supported if ok_citations else 0.0, details)


@dataclass(kw_only=True)
class AbstentionScorer(_Base):
    """An unanswerable question must end (or pause) at CONFIRM or ESCALATE."""

    name: str = "abstention"
    weight: float = 2.0

    def score(self, record: RunRecord) -> ScoreResult | None:
        """1 when an unanswerable question was handed to a person, else 0."""
        if record.question.answerable:
            return None
        details: dict[str, Any] = {"level": record.level, "confidence": record.confidence}
        if not record.intervened:
            details["why"] = f"answered at {record.level}: {normalise(record.answer)[:120]}"
        return self._result(1.0 if record.intervened else 0.0, details)


@dataclass(kw_only=True)
class LatencyScorer(_Base):
    """Wall-clock time of the run: 1 within ``budget_ms``, else ``budget_ms / latency``."""

    name: str = "latency"
    weight: float = 0.25
    budget_ms: float = 10_000.0

    def score(self, record: RunRecord) -> ScoreResult | None:
        """Compare the run's latency with the budget."""
        ms = record.latency_ms
        value = 1.0 if ms <= self.budget_ms else self.budget_ms / ms
        return self._result(value, {"latency_ms": ms, "budget_ms": self.budget_ms})


@dataclass(frozen=True, kw_only=True)
class Verdict:
    """Scorers combined: all applicable passed, and their weighted mean."""

    all_passed: bool
    weighted_mean: float
    failed: list[str]


def default_scorers(collection: str | None = None) -> list[Scorer]:
    """The standard scorer set (``collection``: the one every search should use)."""
    return [
        AnswerMatchScorer(),
        PlanActionScorer(),
        CollectionPrecisionScorer(expected=collection),
        CitationGroundingScorer(),
        AbstentionScorer(),
        LatencyScorer(),
    ]


def verdict(results: Sequence[ScoreResult]) -> Verdict:
    """All-pass and weighted mean of the applicable results (1.0 and True when none apply)."""
    total = sum(r.weight for r in results)
    mean = sum(r.weight * r.score for r in results) / total if total > 0 else 1.0
    failed = [r.name for r in results if not r.passed]
    return Verdict(all_passed=not failed, weighted_mean=round(mean, 4), failed=failed)


def score_run(record: RunRecord, scorers: Sequence[Scorer]) -> tuple[list[ScoreResult], Verdict]:
    """Run every scorer on ``record`` and store the details in ``record.scorer_details``."""
    results = [r for s in scorers if (r := s.score(record)) is not None]
    v = verdict(results)
    record.scorer_details = {
        "results": {
            r.name: {"score": r.score, "passed": r.passed, "details": r.details} for r in results
        },
        "all_passed": v.all_passed,
        "weighted_mean": v.weighted_mean,
        "failed": v.failed,
    }
    return results, v

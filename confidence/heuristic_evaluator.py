"""The evaluator block offline: the four evaluations from a local scoring function."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from confidence.evaluation_types import (
    DEFAULT_RUBRIC,
    Criterion,
    EvaluationResult,
    RubricBand,
    ScoringFn,
    _failure,
    _ranking,
    _sorted_bands,
    grade_for,
    normalised_weights,
)
from confidence.model_log import ModelLog, describe_error

__all__ = ["HeuristicEvaluator"]


class HeuristicEvaluator:
    """The evaluator block from a local scoring function (no model calls).

    ``score_fn(question, output, context)`` gives the score of ``scoring``, ``rubric``
    and each output of ``comparison``. For ``criteria``, a criterion with its own
    function in ``criterion_fns`` uses it; the others fall back to ``score_fn``.
    ``confidence`` is a fixed, stated trust in the heuristic. A scoring function that
    raises or returns NaN gives a failed result (never raises).
    """

    def __init__(
        self,
        score_fn: ScoringFn,
        pass_threshold: float = 0.7,
        *,
        criterion_fns: Mapping[str, ScoringFn] | None = None,
        confidence: float = 0.5,
    ) -> None:
        """Create a heuristic evaluator.

        Args:
            score_fn: ``(question, output, context) -> score`` (clamped to [0, 1]).
            pass_threshold: ``passed`` is ``overall_score ≥ pass_threshold``.
            criterion_fns: Optional per-criterion scoring functions, by criterion name.
            confidence: Confidence reported on every successful result.

        """
        if not 0.0 <= pass_threshold <= 1.0:
            raise ValueError("pass_threshold must be in [0, 1]")
        if not 0.0 <= confidence <= 1.0:
            raise ValueError("confidence must be in [0, 1]")
        self.score_fn = score_fn
        """The default scoring function."""
        self.pass_threshold = pass_threshold
        """Minimum overall score that passes."""
        self.criterion_fns: dict[str, ScoringFn] = dict(criterion_fns or {})
        """Per-criterion scoring functions."""
        self.confidence = confidence
        """Confidence reported on successful results."""

    @staticmethod
    def _score(fn: ScoringFn, question: str, output: str, context: Sequence[str]) -> float:
        value = float(fn(question, output, context))
        if value != value:  # NaN
            raise ValueError("scoring function returned NaN")
        return min(1.0, max(0.0, value))

    def _feedback(self, score: float) -> tuple[str, list[str]]:
        if score >= self.pass_threshold:
            return (f"heuristic score {score:.2f} ≥ pass threshold {self.pass_threshold:.2f}", [])
        return (
            f"heuristic score {score:.2f} < pass threshold {self.pass_threshold:.2f}",
            [
                "Answer every part of the question.",
                "Ground each claim in the retrieved passages and cite them.",
            ],
        )

    def evaluate_scoring(
        self,
        question: str,
        output: str,
        context: Sequence[str] = (),
        *,
        log: ModelLog | None = None,
    ) -> EvaluationResult:
        """Score ``output`` with ``score_fn``."""
        try:
            score = self._score(self.score_fn, question, output, context)
        except Exception as exc:  # a failing heuristic is a failed evaluation
            return _failure("scoring", f"scoring function failed ({describe_error(exc)})")
        feedback, suggestions = self._feedback(score)
        return EvaluationResult(
            evaluation_type="scoring",
            passed=score >= self.pass_threshold,
            overall_score=score,
            feedback=feedback,
            suggestions=suggestions,
            confidence=self.confidence,
        )

    def evaluate_criteria(
        self,
        question: str,
        output: str,
        criteria: Sequence[Criterion],
        *,
        context: Sequence[str] = (),
        log: ModelLog | None = None,
    ) -> EvaluationResult:
        """Score each criterion; overall = normalised weighted mean.

        Raises:
            ValueError: For no criteria, repeated names or all-zero weights.

        """
        weights = normalised_weights(criteria)
        scores: dict[str, float] = {}
        try:
            for c in criteria:
                fn = self.criterion_fns.get(c.name, self.score_fn)
                scores[c.name] = self._score(fn, question, output, context)
        except Exception as exc:  # a failing heuristic is a failed evaluation
            return _failure("criteria", f"scoring function failed ({describe_error(exc)})")
        overall = min(1.0, max(0.0, sum(weights[n] * s for n, s in scores.items())))
        feedback, _ = self._feedback(overall)
        suggestions = [
            f"Improve {c.name}: {c.description}".rstrip(": ")
            for c in criteria
            if scores[c.name] < self.pass_threshold
        ]
        return EvaluationResult(
            evaluation_type="criteria",
            passed=overall >= self.pass_threshold,
            overall_score=overall,
            criteria_scores=scores,
            feedback=feedback,
            suggestions=suggestions,
            confidence=self.confidence,
        )

    def compare(
        self,
        question: str,
        outputs: Sequence[str],
        *,
        context: Sequence[str] = (),
        log: ModelLog | None = None,
    ) -> EvaluationResult:
        """Score every output with ``score_fn`` and rank them (ties: lower index first).

        Raises:
            ValueError: For an empty ``outputs``.

        """
        if not outputs:
            raise ValueError("comparison needs at least one output")
        try:
            scores = [self._score(self.score_fn, question, o, context) for o in outputs]
        except Exception as exc:  # a failing heuristic is a failed evaluation
            return _failure("comparison", f"scoring function failed ({describe_error(exc)})")
        ranking = _ranking(scores)
        best = scores[ranking[0]]
        feedback, suggestions = self._feedback(best)
        return EvaluationResult(
            evaluation_type="comparison",
            passed=best >= self.pass_threshold,
            overall_score=best,
            criteria_scores={f"output_{i}": s for i, s in enumerate(scores)},
            feedback=f"output {ranking[0]} is best; {feedback}",
            suggestions=suggestions,
            confidence=self.confidence,
            ranking=ranking,
        )

    def evaluate_rubric(
        self,
        question: str,
        output: str,
        bands: Sequence[RubricBand] = DEFAULT_RUBRIC,
        *,
        context: Sequence[str] = (),
        log: ModelLog | None = None,
    ) -> EvaluationResult:
        """Score ``output`` with ``score_fn`` and grade it by ``bands``."""
        ordered = _sorted_bands(bands)
        result = self.evaluate_scoring(question, output, context)
        if result.failed:
            return result.model_copy(update={"evaluation_type": "rubric"})
        return result.model_copy(
            update={"evaluation_type": "rubric", "grade": grade_for(result.overall_score, ordered)}
        )

    async def aevaluate_scoring(
        self,
        question: str,
        output: str,
        context: Sequence[str] = (),
        *,
        log: ModelLog | None = None,
    ) -> EvaluationResult:
        """Asynchronous :meth:`evaluate_scoring` (runs inline)."""
        return self.evaluate_scoring(question, output, context)

    async def aevaluate_criteria(
        self,
        question: str,
        output: str,
        criteria: Sequence[Criterion],
        *,
        context: Sequence[str] = (),
        log: ModelLog | None = None,
    ) -> EvaluationResult:
        """Asynchronous :meth:`evaluate_criteria` (runs inline)."""
        return self.evaluate_criteria(question, output, criteria, context=context)

    async def acompare(
        self,
        question: str,
        outputs: Sequence[str],
        *,
        context: Sequence[str] = (),
        log: ModelLog | None = None,
    ) -> EvaluationResult:
        """Asynchronous :meth:`compare` (runs inline)."""
        return self.compare(question, outputs, context=context)

    async def aevaluate_rubric(
        self,
        question: str,
        output: str,
        bands: Sequence[RubricBand] = DEFAULT_RUBRIC,
        *,
        context: Sequence[str] = (),
        log: ModelLog | None = None,
    ) -> EvaluationResult:
        """Asynchronous :meth:`evaluate_rubric` (runs inline)."""
        return self.evaluate_rubric(question, output, bands, context=context)

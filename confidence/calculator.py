"""The confidence calculator and step inheritance (docs/architecture.md, "Confidence")."""

from __future__ import annotations

import math
from collections.abc import Iterable

from confidence.config import ConfidenceConfig, Thresholds
from confidence.factors import FactorRegistry, default_factors
from confidence.search_quality import search_quality as _search_quality
from confidence.types import (
    ActionDecision,
    ConfidenceFactors,
    ConfidenceScore,
    InterventionLevel,
    SearchStats,
)

__all__ = ["RECOMMENDED_ACTIONS", "ConfidenceCalculator", "inherit_search_quality"]

RECOMMENDED_ACTIONS: dict[InterventionLevel, str] = {
    InterventionLevel.SILENT: "proceed",
    InterventionLevel.NOTIFY: "proceed and notify the user",
    InterventionLevel.CONFIRM: "pause and ask the user to accept, edit or answer",
    InterventionLevel.ESCALATE: "pause and ask the user for the missing information",
}
"""What GRACE recommends at each intervention level."""


def _clamp01(value: float) -> float:
    return min(1.0, max(0.0, value))


def inherit_search_quality(dependency_scores: Iterable[float]) -> float | None:
    """Return the search quality a non-search step inherits from its dependencies.

    A step that does not search itself (e.g. an analysis of earlier
    results) inherits the highest confidence among the steps it depends on.

    Args:
        dependency_scores: Confidence scores of the step's dependencies.

    Returns:
        The maximum dependency score clamped to [0, 1], or ``None`` when the step has
        no dependencies (nothing to inherit: the factor is then not counted).

    """
    scores = [_clamp01(float(s)) for s in dependency_scores]
    return max(scores) if scores else None


class ConfidenceCalculator:
    """Turns a step's measured factors into a confidence score and a decision.

    Every weight, penalty and threshold comes from the :class:`ConfidenceConfig`
    (``ConfidenceConfig()`` holds the defaults); the weighted mean's terms from the
    :class:`~confidence.factors.FactorRegistry` (:attr:`factors`).
    """

    def __init__(
        self, config: ConfidenceConfig | None = None, factors: FactorRegistry | None = None
    ) -> None:
        """Create a calculator.

        Args:
            config: Weights, penalties and thresholds; the defaults when ``None``.
            factors: The weighted mean's factors; GRACE's (:func:`default_factors`) when
                ``None``. Register more with ``calculator.factors.register(...)``.

        """
        self.config: ConfidenceConfig = config if config is not None else ConfidenceConfig()
        """The configuration in use."""
        self.factors: FactorRegistry = factors if factors is not None else default_factors()
        """The non-search weighted mean's factors (a table: name, value, weight, condition)."""

    def search_quality(self, stats: SearchStats) -> float:
        """Return the search quality of a search's hit statistics, in [0, 1].

        0 when ``stats.count == 0``; otherwise (weights from ``config.search_quality``)::

            (0.5·max + 0.25·mean + 0.15·min(count, 5)/5 + 0.1·spread·max) / 1.0

        See :mod:`confidence.search_quality`. Non-decreasing in max and mean score.
        """
        return _search_quality(stats, self.config.search_quality)

    def _effective_search_quality(self, factors: ConfidenceFactors) -> float:
        if factors.search_quality is not None:
            return factors.search_quality
        if factors.search is not None:
            return self.search_quality(factors.search)
        return 0.0

    def calculate(self, factors: ConfidenceFactors) -> ConfidenceScore:
        """Return the step's confidence.

        1. Search quality is ``factors.search_quality`` when set (e.g. inherited),
           otherwise computed from ``factors.search``, otherwise 0.
        2. Search step: ``base = search_quality × tool_success``.
           Non-search step: weighted mean over the registered factors (:attr:`factors`)
           that are measured and whose condition holds — by default search_quality (only
           if > 0), tool_success (always), source_agreement (only if measured and
           ``source_count > 1``), llm_self_eval, query_coverage and answer_margin
           (whenever measured), weights from ``config.weights``; then multiplied by every
           answer check (1.0 = passed).
        3. Penalties (``config.penalties``), each listed by name (:meth:`penalties`).
        4. Clamp to [0, 1].

        ``breakdown`` lists every factor that entered step 2 with its value.
        """
        sq = self._effective_search_quality(factors)
        breakdown: dict[str, float] = {}
        if factors.is_search_step:
            breakdown["search_quality"] = sq
            breakdown["tool_success"] = factors.tool_success
            base = sq * factors.tool_success
        else:
            base = self._weighted_mean(factors, sq, breakdown)
            for name, value in factors.answer_checks.items():
                breakdown[f"check:{name}"] = value
                base *= value
        penalties = self.penalties(factors)
        score = _clamp01(base - sum(penalties.values()))
        return ConfidenceScore(score=score, breakdown=breakdown, penalties=penalties)

    def _weighted_mean(
        self, factors: ConfidenceFactors, sq: float, breakdown: dict[str, float]
    ) -> float:
        """The registered factors' weighted mean (each counted one goes to ``breakdown``)."""
        parts: list[tuple[float, float]] = []
        for factor in self.factors:
            value = factor.value(factors, sq)
            if value is None or not factor.condition(factors, value):
                continue
            breakdown[factor.name] = value
            parts.append((value, factor.weight_in(self.config)))
        total_weight = sum(w for _, w in parts)
        return sum(v * w for v, w in parts) / total_weight if total_weight > 0.0 else 0.0

    def penalties(self, factors: ConfidenceFactors) -> dict[str, float]:
        """The penalties a step's factors incur, by name (``config.penalties``).

        ``no_results`` — a search step with no hits (``search.count == 0``, or no search
        statistics and no explicit search quality); ``no_sources`` — a non-search step
        with ``source_count == 0``; ``tool_failure`` — ``tool_success == 0``;
        ``low_coverage`` — measured coverage below ``low_coverage_below``.
        """
        pen = self.config.penalties
        penalties: dict[str, float] = {}
        if factors.is_search_step:
            no_hits = (
                factors.search.count == 0
                if factors.search is not None
                else factors.search_quality is None
            )
            if no_hits:
                penalties["no_results"] = pen.no_results
        elif factors.source_count == 0:
            penalties["no_sources"] = pen.no_sources
        if factors.tool_success == 0.0:
            penalties["tool_failure"] = pen.tool_failure
        if factors.query_coverage is not None and factors.query_coverage < pen.low_coverage_below:
            penalties["low_coverage"] = pen.low_coverage
        return penalties

    def decide_action(
        self, score: ConfidenceScore | float, thresholds: Thresholds | None = None
    ) -> ActionDecision:
        """Map a score to an intervention level (boundaries inclusive).

        ``score ≥ silent`` → SILENT; ``≥ notify`` → NOTIFY; ``≥ confirm`` → CONFIRM;
        otherwise ESCALATE.

        Args:
            score: A :class:`ConfidenceScore` or a bare float (clamped to [0, 1]).
            thresholds: Per-call thresholds (e.g. learned for a user); the config's when
                ``None``.

        Raises:
            ValueError: If ``score`` is NaN.

        """
        th = thresholds if thresholds is not None else self.config.thresholds
        value = score.score if isinstance(score, ConfidenceScore) else float(score)
        if math.isnan(value):
            raise ValueError("confidence score is NaN")
        value = _clamp01(value)
        if value >= th.silent:
            level = InterventionLevel.SILENT
            reason = f"confidence {value:.4g} ≥ silent threshold {th.silent:.4g}"
        elif value >= th.notify:
            level = InterventionLevel.NOTIFY
            reason = (
                f"confidence {value:.4g} ≥ notify threshold {th.notify:.4g} "
                f"(below silent threshold {th.silent:.4g})"
            )
        elif value >= th.confirm:
            level = InterventionLevel.CONFIRM
            reason = (
                f"confidence {value:.4g} ≥ confirm threshold {th.confirm:.4g} "
                f"(below notify threshold {th.notify:.4g})"
            )
        else:
            level = InterventionLevel.ESCALATE
            reason = f"confidence {value:.4g} < confirm threshold {th.confirm:.4g}"
        return ActionDecision(
            level=level,
            reason=reason,
            recommended_action=RECOMMENDED_ACTIONS[level],
            score=value,
        )

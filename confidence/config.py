"""Configuration of the confidence system: weights, penalties, thresholds."""

from __future__ import annotations

from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from confidence.calibration import CalibrationParams, default_calibration

__all__ = [
    "AggregationMethod",
    "ConfidenceConfig",
    "FactorWeights",
    "Penalties",
    "SearchQualityParams",
    "ThresholdGuarantee",
    "Thresholds",
]

AggregationMethod = Literal["mean", "min", "weighted"]


class FactorWeights(BaseModel):
    """Weights of the non-search weighted mean (DESIGN §4)."""

    model_config = ConfigDict(extra="forbid")

    search_quality: float = Field(default=0.6, ge=0.0)
    """Weight of search quality (own or inherited), counted only when > 0."""
    tool_success: float = Field(default=0.4, ge=0.0)
    """Weight of tool success, always counted."""
    source_agreement: float = Field(default=0.2, ge=0.0)
    """Weight of source agreement, counted only with more than one source."""
    llm_self_eval: float = Field(default=0.3, ge=0.0)
    """Weight of the judge's self-evaluation, counted whenever it was measured."""
    query_coverage: float = Field(default=0.2, ge=0.0)
    """Weight of query coverage, counted whenever it was measured."""


class SearchQualityParams(BaseModel):
    """Weights of the search-quality formula (see :func:`confidence.search_quality`).

    ``q = (w_max·max + w_mean·mean + w_count·min(count, N)/N + w_spread·spread·max) / Σw``
    with ``N = count_saturation``; ``q = 0`` when there are no hits.
    """

    model_config = ConfigDict(extra="forbid")

    max_weight: float = Field(default=0.5, ge=0.0)
    """Weight of the best hit's score: the strongest single piece of evidence."""
    mean_weight: float = Field(default=0.25, ge=0.0)
    """Weight of the mean hit score: how good the retrieved set is overall."""
    count_weight: float = Field(default=0.15, ge=0.0)
    """Weight of the saturating hit-count term ``min(count, N) / N``."""
    spread_weight: float = Field(default=0.1, ge=0.0)
    """Weight of ``spread × max``: a strong best hit that clearly stands out."""
    count_saturation: int = Field(default=5, ge=1)
    """Hit count ``N`` at which the count term reaches 1."""

    @model_validator(mode="after")
    def _positive_total(self) -> Self:
        total = self.max_weight + self.mean_weight + self.count_weight + self.spread_weight
        if total <= 0.0:
            raise ValueError("search-quality weights must not all be zero")
        return self


class Penalties(BaseModel):
    """Amounts subtracted from a score when a condition holds."""

    model_config = ConfigDict(extra="forbid")

    no_results: float = Field(default=0.3, ge=0.0, le=1.0)
    """A search step returned no hits."""
    no_sources: float = Field(default=0.2, ge=0.0, le=1.0)
    """A non-search step's output rests on no source."""
    tool_failure: float = Field(default=0.3, ge=0.0, le=1.0)
    """The step's tool failed (tool_success == 0)."""
    low_coverage: float = Field(default=0.1, ge=0.0, le=1.0)
    """Measured query coverage is below ``low_coverage_below``."""
    low_coverage_below: float = Field(default=0.3, ge=0.0, le=1.0)
    """Coverage under which ``low_coverage`` applies."""


class Thresholds(BaseModel):
    """Score thresholds of :func:`decide_action`; must satisfy silent ≥ notify ≥ confirm."""

    model_config = ConfigDict(extra="forbid")

    silent: float = Field(default=0.9, ge=0.0, le=1.0)
    """At or above: SILENT."""
    notify: float = Field(default=0.7, ge=0.0, le=1.0)
    """At or above (and below silent): NOTIFY."""
    confirm: float = Field(default=0.4, ge=0.0, le=1.0)
    """At or above (and below notify): CONFIRM; below it: ESCALATE."""

    @model_validator(mode="after")
    def _ordered(self) -> Self:
        if not (self.silent >= self.notify >= self.confirm):
            raise ValueError(
                "thresholds must satisfy silent >= notify >= confirm, got "
                f"silent={self.silent}, notify={self.notify}, confirm={self.confirm}"
            )
        return self


class ThresholdGuarantee(BaseModel):
    """How ``grace calibrate --target-risk`` chose a threshold (a record; it changes nothing).

    With probability at least ``1 - delta`` over the calibration runs, the share of wrong
    answers among runs whose confidence is at or above the ``level``'s threshold is at most
    ``target_risk`` — for questions exchangeable with those runs (see
    :mod:`confidence.risk_control`).
    """

    model_config = ConfigDict(extra="forbid")

    level: Literal["silent", "notify"]
    """Whose threshold: SILENT, or everything answered without a pause (NOTIFY and up)."""
    threshold: float = Field(ge=0.0, le=1.0)
    """The threshold chosen."""
    target_risk: float = Field(gt=0.0, lt=1.0)
    """α: the error rate bounded."""
    delta: float = Field(gt=0.0, lt=1.0)
    """δ: the probability that the bound fails."""
    n: int = Field(ge=0)
    """Calibration runs."""
    selected: int = Field(ge=0)
    """Calibration runs at or above the threshold."""
    errors: int = Field(ge=0)
    """Wrong answers among them (an answer to an unanswerable question is wrong)."""
    error_upper: float = Field(ge=0.0, le=1.0)
    """Exact upper bound (level 1 − δ) of their error rate."""
    method: str = ""
    """The selection method."""
    data: str = ""
    """The calibration data (data set, part, date)."""


class ConfidenceConfig(BaseModel):
    """Every number of the confidence system, with the seed's defaults."""

    model_config = ConfigDict(extra="forbid")

    weights: FactorWeights = Field(default_factory=FactorWeights)
    """Weights of the non-search weighted mean."""
    penalties: Penalties = Field(default_factory=Penalties)
    """Penalty amounts and their conditions."""
    thresholds: Thresholds = Field(default_factory=Thresholds)
    """Decision thresholds."""
    search_quality: SearchQualityParams = Field(default_factory=SearchQualityParams)
    """Weights of the search-quality formula."""
    aggregation: AggregationMethod = "weighted"
    """How step scores combine into the run's overall confidence."""
    calibration: CalibrationParams = Field(default_factory=default_calibration)
    """Map of the run's overall confidence to P(answer correct), applied before the final
    decision (see :mod:`confidence.calibration`; ``method: none`` keeps the raw score)."""
    guarantees: list[ThresholdGuarantee] = Field(default_factory=list)
    """How the thresholds were chosen, when ``grace calibrate --target-risk`` chose them."""

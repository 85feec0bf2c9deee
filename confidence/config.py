"""Configuration of the confidence system: weights, penalties, thresholds."""

# No `from __future__ import annotations`: pydantic reads the fields' types at import; as
# objects they need no evaluating (docs/performance.md).
from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from confidence.calibration import CalibrationParams, default_calibration
from confidence.correctness_model import LearnedModel, default_model

__all__ = [
    "AggregationMethod",
    "ConfidenceConfig",
    "FactorWeights",
    "Penalties",
    "SearchQualityParams",
    "ThresholdGuarantee",
    "SEED_WEIGHTS",
    "Thresholds",
    "seed_config",
]

AggregationMethod = Literal["final", "mean", "min", "weighted"]


class FactorWeights(BaseModel):
    """Weights of the non-search weighted mean (docs/architecture.md §4).

    The defaults build an answer step's score on answer evidence: the judge's verdict on the
    stated sentence, its coverage of the question and how clearly the reader's sentence beat
    the runner-up; retrieval is a minor term (the search step's own score is not aggregated
    again, see ``aggregation: final``) and tool success, 1.0 in every answered run, is only a
    penalty when a tool fails. The original weighted mean is ``search_quality: 0.6,
    tool_success: 0.4, answer_margin: 0`` with ``aggregation: weighted``.
    """

    model_config = ConfigDict(extra="forbid")

    search_quality: float = Field(default=0.1, ge=0.0)
    """Weight of search quality (own or inherited), counted only when > 0."""
    tool_success: float = Field(default=0.0, ge=0.0)
    """Weight of tool success, always counted (a failure is also a penalty)."""
    answer_margin: float = Field(default=0.4, ge=0.0)
    """Weight of the reader's margin over the runner-up sentence, counted when measured."""
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

    model_config = ConfigDict(extra="forbid", defer_build=True)

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
    min_coverage: float = Field(default=0.0, ge=0.0, lt=1.0)
    """The least share of the runs the first test selected (``--min-coverage``; 0: the top)."""
    method: str = ""
    """The selection method."""
    data: str = ""
    """The calibration data (data set, part, date)."""


SHIPPED: dict[str, float] = {"silent": 0.98, "notify": 0.6, "confirm": 0.4}
"""The shipped decision thresholds, on the shipped calibration's P(correct).

That map is fitted on the project's own sample (30 questions it answers perfectly in order,
AUROC 1.0), so it reads optimistic on harder questions: SILENT needs P ≥ 0.98 under it. The
values were set on the dev set (SQuAD 2.0 / JSQuAD, 120 questions) to keep silent answers'
error near 5 % while at most a quarter of answerable questions pause; figures in the README.
For a threshold with a stated guarantee on your own data, run
``grace calibrate DATA --target-risk 0.10`` (it needs a few hundred labelled questions).
"""


class ConfidenceConfig(BaseModel):
    """Every number of the confidence system, with the seed's defaults."""

    model_config = ConfigDict(extra="forbid")

    weights: FactorWeights = Field(default_factory=FactorWeights)
    """Weights of the non-search weighted mean."""
    penalties: Penalties = Field(default_factory=Penalties)
    """Penalty amounts and their conditions."""
    thresholds: Thresholds = Field(default_factory=lambda: Thresholds.model_validate(SHIPPED))
    """Decision thresholds on the calibrated confidence (see :data:`SHIPPED`)."""
    search_quality: SearchQualityParams = Field(default_factory=SearchQualityParams)
    """Weights of the search-quality formula."""
    aggregation: AggregationMethod = "final"
    """How step scores combine into the run's overall confidence."""
    calibration: CalibrationParams = Field(default_factory=default_calibration)
    """Map of the run's overall confidence to P(answer correct), applied before the final
    decision (see :mod:`confidence.calibration`; ``method: none`` keeps the raw score)."""
    answer_checks: list[str] = Field(default_factory=lambda: ["polarity", "swapped_term"])
    """Answer-verification checks the offline judge runs (names in
    ``grace.providers.offline.checks.CHECKS``); an empty list runs none."""
    failed_check: float = Field(default=0.5, ge=0.0, le=1.0)
    """Factor a failed answer check multiplies the answer step's score by."""
    guarantees: list[ThresholdGuarantee] = Field(default_factory=list)
    """How the thresholds were chosen, when ``grace calibrate --target-risk`` chose them."""
    model: LearnedModel | None = Field(default_factory=default_model)
    """The learned model of P(answer correct) that takes the final decision for the engine
    it was fitted on (:mod:`confidence.correctness_model`; shipped: fitted on a labelled set
    with the offline engine), with its own certified thresholds; ``null`` keeps the calibrated
    score and ``thresholds`` above."""


SEED_WEIGHTS = FactorWeights(search_quality=0.6, tool_success=0.4, answer_margin=0.0)
"""The original design's weighted mean (search quality 0.6, tool success 0.4, source agreement
0.2, self-evaluation 0.3, coverage 0.2), kept as a setting: see :func:`seed_config`."""


def seed_config(**overrides: object) -> ConfidenceConfig:
    """The original design's confidence system, as a preset.

    Its weights, ``aggregation: weighted`` and no answer checks (``overrides`` replace
    fields, e.g. ``thresholds=...``).

    In ``grace.yaml``: ``confidence: {weights: {search_quality: 0.6, tool_success: 0.4,
    answer_margin: 0}, aggregation: weighted, answer_checks: []}``.
    """
    values: dict[str, object] = {
        "weights": SEED_WEIGHTS,
        "thresholds": Thresholds(),
        "aggregation": "weighted",
        "answer_checks": [],
        "model": None,
        **overrides,
    }
    return ConfidenceConfig.model_validate(values)

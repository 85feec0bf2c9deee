"""Value types of the confidence system: factors in, score and decision out."""

# No `from __future__ import annotations`: pydantic reads the fields' types at import; as
# objects they need no evaluating (docs/performance.md).
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "ActionDecision",
    "ConfidenceFactors",
    "ConfidenceScore",
    "InterventionLevel",
    "SearchStats",
]


class InterventionLevel(StrEnum):
    """How much a person must be involved after a step, from none to required input."""

    SILENT = "silent"
    """Proceed without telling anyone."""
    NOTIFY = "notify"
    """Proceed, but emit a notice on the ``custom`` stream."""
    CONFIRM = "confirm"
    """Pause: a person must accept, edit, respond or ignore."""
    ESCALATE = "escalate"
    """Pause: a person must give input (a plain accept is not allowed)."""


class SearchStats(BaseModel):
    """Statistics of one search's normalised (0–1) hit scores."""

    model_config = ConfigDict(frozen=True)

    count: int = Field(default=0, ge=0)
    """Number of hits returned."""
    max_score: float = Field(default=0.0, ge=0.0, le=1.0)
    """Best normalised hit score."""
    mean_score: float = Field(default=0.0, ge=0.0, le=1.0)
    """Mean normalised hit score."""
    spread: float = Field(default=0.0, ge=0.0, le=1.0)
    """``max_score - min_score`` of the hits: how clearly the best hit stands out."""


class ConfidenceFactors(BaseModel):
    """Measured inputs to :meth:`ConfidenceCalculator.calculate` for one step.

    ``None`` always means *not measured*: the factor is left out of the weighted mean
    instead of being guessed.
    """

    is_search_step: bool = False
    """True for retrieval steps (``rag_search``): scored as search_quality × tool_success."""
    search: SearchStats | None = None
    """Hit statistics of a search step; turned into ``search_quality``."""
    search_quality: float | None = Field(default=None, ge=0.0, le=1.0)
    """Explicit search quality, e.g. inherited from dependencies; overrides ``search``."""
    tool_success: float = Field(default=1.0, ge=0.0, le=1.0)
    """1.0 when the tool succeeded, 0.0 when it failed, in between for partial results."""
    source_count: int = Field(default=0, ge=0)
    """Number of distinct sources behind the step's output."""
    source_agreement: float | None = Field(default=None, ge=0.0, le=1.0)
    """Mean pairwise similarity of the sources (counted only with two or more sources)."""
    llm_self_eval: float | None = Field(default=None, ge=0.0, le=1.0)
    """Judge's estimate that the output is correct and supported."""
    query_coverage: float | None = Field(default=None, ge=0.0, le=1.0)
    """Judge's estimate of how much of the question the output answers."""
    answer_margin: float | None = Field(default=None, ge=0.0, le=1.0)
    """How clearly the answer's sentence beat the runner-up (reader's ranking, 0–1)."""
    answer_checks: dict[str, float] = Field(default_factory=dict)
    """Answer-verification checks by name (``polarity``, ``swapped_term`` …): 1.0 passed,
    less when failed. They multiply the weighted mean, so one failed check is enough to
    keep an answer from SILENT."""
    signals: dict[str, float] = Field(default_factory=dict)
    """Tool-declared confidence signals by name, read by registered factors
    (:func:`confidence.factors.signal`)."""


class ConfidenceScore(BaseModel):
    """A step's (or a run's) confidence with the evidence behind it."""

    score: float = Field(ge=0.0, le=1.0)
    """Final confidence in [0, 1] after penalties and clamping."""
    breakdown: dict[str, float] = Field(default_factory=dict)
    """Each factor that entered the score, by name."""
    penalties: dict[str, float] = Field(default_factory=dict)
    """Each penalty subtracted, by name (positive amounts)."""


class ActionDecision(BaseModel):
    """What the graph does with a score."""

    level: InterventionLevel
    """The intervention level chosen by the thresholds."""
    reason: str = ""
    """Human-readable reason, shown in notices and intervention requests."""
    recommended_action: str = ""
    """What GRACE suggests: proceed, review the answer, provide information, …"""
    score: float = Field(default=0.0, ge=0.0, le=1.0)
    """The score the decision was taken on."""

"""Types of the evaluator block (docs/architecture.md §4): requests, verdicts, results, grades."""

# No `from __future__ import annotations`: pydantic reads the fields' types at import; as
# objects they need no evaluating (docs/performance.md).
from collections.abc import Callable, Sequence
from typing import Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from confidence.model_log import ModelLog

__all__ = [
    "DEFAULT_RUBRIC",
    "ComparisonVerdict",
    "CriteriaVerdict",
    "Criterion",
    "CriterionScore",
    "EvaluationResult",
    "EvaluationType",
    "OutputScore",
    "QualityEvaluator",
    "RubricBand",
    "ScoreVerdict",
    "ScoringFn",
    "grade_for",
    "normalised_weights",
]

EvaluationType = Literal["scoring", "criteria", "comparison", "rubric"]
"""The four evaluation types of the evaluator block."""

ScoringFn = Callable[[str, str, Sequence[str]], float]
"""``score_fn(question, output, context) -> score in [0, 1]`` for offline evaluation."""


class Criterion(BaseModel):
    """One weighted criterion of a ``criteria`` evaluation."""

    model_config = ConfigDict(defer_build=True)

    name: str = Field(min_length=1)
    """Short unique name, the key in ``criteria_scores``."""
    description: str = ""
    """What the judge should check."""
    weight: float = Field(default=1.0, ge=0.0)
    """Relative weight; weights are normalised to sum to 1."""


class RubricBand(BaseModel):
    """A grade and the minimum score that earns it."""

    grade: str = Field(min_length=1)
    """Grade label, e.g. ``"A"``."""
    min_score: float = Field(ge=0.0, le=1.0)
    """Lowest score (inclusive) that earns this grade."""


DEFAULT_RUBRIC: tuple[RubricBand, ...] = (
    RubricBand(grade="A", min_score=0.9),
    RubricBand(grade="B", min_score=0.8),
    RubricBand(grade="C", min_score=0.7),
    RubricBand(grade="D", min_score=0.6),
    RubricBand(grade="F", min_score=0.0),
)
"""A ≥ 0.9, B ≥ 0.8, C ≥ 0.7, D ≥ 0.6, otherwise F."""


class EvaluationResult(BaseModel):
    """The outcome of one evaluation."""

    evaluation_type: EvaluationType = "scoring"
    """Which evaluation produced this result."""
    passed: bool = False
    """``overall_score ≥ pass_threshold`` (always False on a failed evaluation)."""
    overall_score: float = Field(default=0.0, ge=0.0, le=1.0)
    """The score: the single score, the normalised weighted criteria score, the best
    compared output's score, or the rubric score."""
    criteria_scores: dict[str, float] = Field(default_factory=dict)
    """Per-criterion scores (``criteria``), or per-output scores ``output_<i>``
    (``comparison``)."""
    feedback: str = ""
    """What is good and bad about the output; names the failure on a failed evaluation."""
    suggestions: list[str] = Field(default_factory=list)
    """Concrete improvements, usable as feedback for regeneration."""
    grade: str | None = None
    """Rubric grade (``rubric`` only)."""
    confidence: float = Field(default=0.0, ge=0.0, le=1.0)
    """How sure the evaluator is of its evaluation; 0.0 when it failed."""
    ranking: list[int] | None = None
    """Indices of the compared outputs, best first (``comparison`` only)."""
    input_tokens: int = Field(default=0, ge=0)
    """Prompt tokens spent by the judge."""
    output_tokens: int = Field(default=0, ge=0)
    """Completion tokens spent by the judge."""
    model_calls: int = Field(default=0, ge=0)
    """Judge model calls made."""
    error: str | None = None
    """Why the evaluation itself failed (malformed judge output, model error); None if
    it succeeded."""

    @property
    def failed(self) -> bool:
        """True when the evaluation itself failed (the output was not really judged)."""
        return self.error is not None


# --- structured-output schemas --------------------------------------------------------


class ScoreVerdict(BaseModel):
    """Your evaluation of the output: one score from 0 to 1."""

    model_config = ConfigDict(defer_build=True)

    score: float = Field(ge=0.0, le=1.0, description="Quality of the output, 0 (bad) to 1.")
    confidence: float = Field(
        ge=0.0, le=1.0, description="How sure you are of this evaluation, 0 to 1."
    )
    feedback: str = Field(description="What is good and what is wrong, briefly.")
    suggestions: list[str] = Field(
        default_factory=list, description="Concrete improvements to the output."
    )


class CriterionScore(BaseModel):
    """The score of one named criterion."""

    model_config = ConfigDict(defer_build=True)

    name: str = Field(description="The criterion's name, exactly as given.")
    score: float = Field(ge=0.0, le=1.0, description="0 (not met) to 1 (fully met).")


class CriteriaVerdict(BaseModel):
    """Your evaluation of the output against every given criterion."""

    model_config = ConfigDict(defer_build=True)

    scores: list[CriterionScore] = Field(description="One entry per criterion.")
    confidence: float = Field(
        ge=0.0, le=1.0, description="How sure you are of this evaluation, 0 to 1."
    )
    feedback: str = Field(description="What is good and what is wrong, briefly.")
    suggestions: list[str] = Field(
        default_factory=list, description="Concrete improvements to the output."
    )


class OutputScore(BaseModel):
    """The score of one compared output."""

    model_config = ConfigDict(defer_build=True)

    index: int = Field(ge=0, description="The output's index, as given.")
    score: float = Field(ge=0.0, le=1.0, description="Quality of that output, 0 to 1.")


class ComparisonVerdict(BaseModel):
    """Your comparison of the candidate outputs: one score per output."""

    model_config = ConfigDict(defer_build=True)

    scores: list[OutputScore] = Field(description="One entry per output index.")
    confidence: float = Field(
        ge=0.0, le=1.0, description="How sure you are of this comparison, 0 to 1."
    )
    feedback: str = Field(description="Why the best output is best, briefly.")
    suggestions: list[str] = Field(
        default_factory=list, description="Concrete improvements to the best output."
    )


# --- shared helpers --------------------------------------------------------------------


def normalised_weights(criteria: Sequence[Criterion]) -> dict[str, float]:
    """Return each criterion's weight divided by the total weight.

    Raises:
        ValueError: If there are no criteria, names repeat, or all weights are 0.

    """
    if not criteria:
        raise ValueError("criteria evaluation needs at least one criterion")
    names = [c.name for c in criteria]
    if len(set(names)) != len(names):
        raise ValueError(f"criterion names must be unique, got {names}")
    total = sum(c.weight for c in criteria)
    if total <= 0.0:
        raise ValueError("criterion weights must not all be zero")
    return {c.name: c.weight / total for c in criteria}


def _sorted_bands(bands: Sequence[RubricBand]) -> list[RubricBand]:
    if not bands:
        raise ValueError("rubric evaluation needs at least one band")
    return sorted(bands, key=lambda b: b.min_score, reverse=True)


def grade_for(score: float, bands: Sequence[RubricBand] = DEFAULT_RUBRIC) -> str:
    """Return the grade of the highest band whose ``min_score ≤ score``.

    A score below every band gets the lowest band's grade.
    """
    ordered = _sorted_bands(bands)
    for band in ordered:
        if score >= band.min_score:
            return band.grade
    return ordered[-1].grade


def _ranking(scores: Sequence[float]) -> list[int]:
    return sorted(range(len(scores)), key=lambda i: (-scores[i], i))


def _failure(kind: EvaluationType, reason: str, **usage: int) -> EvaluationResult:
    return EvaluationResult(
        evaluation_type=kind,
        passed=False,
        overall_score=0.0,
        feedback=f"evaluation failed: {reason}",
        confidence=0.0,
        error=reason,
        **usage,
    )


class _Malformed(ValueError):
    """The judge's structured output is well-formed JSON but inconsistent."""


@runtime_checkable
class QualityEvaluator(Protocol):
    """The evaluator block's interface (LLM or heuristic)."""

    pass_threshold: float

    def evaluate_scoring(
        self,
        question: str,
        output: str,
        context: Sequence[str] = (),
        *,
        log: ModelLog | None = None,
    ) -> EvaluationResult:
        """Score ``output`` with one 0–1 score."""
        ...

    def evaluate_criteria(
        self,
        question: str,
        output: str,
        criteria: Sequence[Criterion],
        *,
        context: Sequence[str] = (),
        log: ModelLog | None = None,
    ) -> EvaluationResult:
        """Score ``output`` per criterion; overall = normalised weighted mean."""
        ...

    def compare(
        self,
        question: str,
        outputs: Sequence[str],
        *,
        context: Sequence[str] = (),
        log: ModelLog | None = None,
    ) -> EvaluationResult:
        """Score and rank several outputs for the same question."""
        ...

    def evaluate_rubric(
        self,
        question: str,
        output: str,
        bands: Sequence[RubricBand] = DEFAULT_RUBRIC,
        *,
        context: Sequence[str] = (),
        log: ModelLog | None = None,
    ) -> EvaluationResult:
        """Score ``output`` and grade it by the rubric bands."""
        ...

    async def aevaluate_scoring(
        self,
        question: str,
        output: str,
        context: Sequence[str] = (),
        *,
        log: ModelLog | None = None,
    ) -> EvaluationResult:
        """Asynchronous :meth:`evaluate_scoring`."""
        ...

    async def aevaluate_criteria(
        self,
        question: str,
        output: str,
        criteria: Sequence[Criterion],
        *,
        context: Sequence[str] = (),
        log: ModelLog | None = None,
    ) -> EvaluationResult:
        """Asynchronous :meth:`evaluate_criteria`."""
        ...

    async def acompare(
        self,
        question: str,
        outputs: Sequence[str],
        *,
        context: Sequence[str] = (),
        log: ModelLog | None = None,
    ) -> EvaluationResult:
        """Asynchronous :meth:`compare`."""
        ...

    async def aevaluate_rubric(
        self,
        question: str,
        output: str,
        bands: Sequence[RubricBand] = DEFAULT_RUBRIC,
        *,
        context: Sequence[str] = (),
        log: ModelLog | None = None,
    ) -> EvaluationResult:
        """Asynchronous :meth:`evaluate_rubric`."""
        ...

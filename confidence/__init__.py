"""GRACE's confidence system: scores, decisions, judge and evaluator protocols, learned thresholds.

Math and protocols: it depends on pydantic, numpy and LangGraph's store interface only, never
on the rest of GRACE, and makes no model call (an import-linter contract). The model-backed
judge and evaluator live in :mod:`grace.providers.llm`, the offline ones in
:mod:`grace.providers.offline` and :mod:`confidence.heuristic_evaluator`.
"""

from confidence.aggregation import ConfidenceAggregator
from confidence.agreement import (
    Embedder,
    SourceAgreementCalculator,
    char_ngram_vector,
    cosine,
)
from confidence.calculator import (
    RECOMMENDED_ACTIONS,
    ConfidenceCalculator,
    inherit_search_quality,
)
from confidence.calibration import (
    CalibrationMethod,
    CalibrationParams,
    apply_calibration,
    default_calibration,
    fit_calibration_params,
)
from confidence.config import (
    AggregationMethod,
    ConfidenceConfig,
    FactorWeights,
    Penalties,
    SearchQualityParams,
    Thresholds,
    seed_config,
)
from confidence.evaluation_types import (
    DEFAULT_RUBRIC,
    Criterion,
    EvaluationResult,
    EvaluationType,
    QualityEvaluator,
    RubricBand,
    ScoringFn,
    grade_for,
    normalised_weights,
)
from confidence.factors import Factor, FactorRegistry, default_factors, signal
from confidence.heuristic_evaluator import HeuristicEvaluator
from confidence.judges import (
    AnswerJudge,
    AnswerJudgement,
    LLMSelfEvaluator,
    QueryCoverageCalculator,
)
from confidence.search_quality import search_quality
from confidence.types import (
    ActionDecision,
    ConfidenceFactors,
    ConfidenceScore,
    InterventionLevel,
    SearchStats,
)
from confidence.user_thresholds import LearnedThresholdState, Outcome, ThresholdLearner

__all__ = [
    "DEFAULT_RUBRIC",
    "RECOMMENDED_ACTIONS",
    "ActionDecision",
    "AggregationMethod",
    "AnswerJudge",
    "AnswerJudgement",
    "CalibrationMethod",
    "CalibrationParams",
    "ConfidenceAggregator",
    "ConfidenceCalculator",
    "ConfidenceConfig",
    "ConfidenceFactors",
    "ConfidenceScore",
    "Factor",
    "FactorRegistry",
    "Criterion",
    "Embedder",
    "EvaluationResult",
    "EvaluationType",
    "FactorWeights",
    "HeuristicEvaluator",
    "InterventionLevel",
    "LLMSelfEvaluator",
    "LearnedThresholdState",
    "Outcome",
    "Penalties",
    "QualityEvaluator",
    "QueryCoverageCalculator",
    "RubricBand",
    "ScoringFn",
    "SearchQualityParams",
    "SearchStats",
    "SourceAgreementCalculator",
    "ThresholdLearner",
    "Thresholds",
    "seed_config",
    "signal",
    "apply_calibration",
    "char_ngram_vector",
    "cosine",
    "default_calibration",
    "default_factors",
    "fit_calibration_params",
    "grade_for",
    "inherit_search_quality",
    "normalised_weights",
    "search_quality",
]

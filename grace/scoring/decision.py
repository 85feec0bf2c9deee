"""The run's final decision: by the learned confidence model, else on the calibrated score.

(docs/architecture.md §4.)

The ``confidence`` node calls :func:`learned_decision` after the last step: when the settings'
``confidence.model`` was fitted on the engine in force, the run's P(answer correct) is the
model's prediction from the run's features (:mod:`grace.scoring.features`), and the level is
decided on the model's own thresholds — SILENT where it was certified, NOTIFY and CONFIRM
moved by the user's learned shift.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from confidence import (
    ActionDecision,
    ConfidenceCalculator,
    InterventionLevel,
    Thresholds,
    apply_calibration,
)
from confidence.correctness_model import LearnedModel, model_thresholds, predict
from grace.errors import SettingsError
from grace.hitl.reply import rests_on_the_person
from grace.scoring.features import FEATURE_NAMES, run_features, signals_of

__all__ = [
    "calibrated_confidence",
    "calibrated_decision",
    "check_model_features",
    "decide_learned",
    "final_thresholds",
    "learned_decision",
    "model_scores",
    "thresholds_in_force",
]


def calibrated_confidence(calculator: ConfidenceCalculator, provider: str, raw: float) -> float:
    """The run's overall confidence ``raw`` mapped to P(answer correct).

    By the settings' ``confidence.calibration`` (the identity with ``method: none``, or when
    the map was fitted on another provider's scores).
    """
    calibration = calculator.config.calibration
    if not calibration.applies_to(provider):
        return raw
    return apply_calibration(raw, calibration)


def calibrated_decision(
    calculator: ConfidenceCalculator, provider: str, raw: float, thresholds: Thresholds
) -> tuple[float, ActionDecision]:
    """The calibrated overall confidence and the decision on it (the reason names the raw score)."""
    calibration = calculator.config.calibration
    overall = calibrated_confidence(calculator, provider, raw)
    decision = calculator.decide_action(overall, thresholds)
    if calibration.applies_to(provider):
        decision = decision.model_copy(
            update={
                "reason": f"{decision.reason}; P(correct) calibrated ({calibration.method}) "
                f"from the raw overall confidence {raw:.3f}"
            }
        )
    return overall, decision


def check_model_features(model: LearnedModel | None) -> None:
    """Refuse a model naming a feature no run has (:data:`~grace.scoring.features.FEATURE_NAMES`).

    Such a feature would count 0 in every run: a model none of whose names match decides
    every run on its intercept alone, whatever the evidence.

    Raises:
        SettingsError: the names no run has (at most five shown).

    """
    if model is None:
        return
    unknown = [name for name in model.features if name not in FEATURE_NAMES]
    if unknown:
        shown = ", ".join(map(repr, unknown[:5])) + (" …" if len(unknown) > 5 else "")
        raise SettingsError(
            f"confidence.model names {len(unknown)} feature(s) no run has: {shown} — a model "
            "reads the names of grace/scoring/features.py (FEATURE_NAMES); fit one with "
            "`grace calibrate`"
        )


def model_scores(model: LearnedModel | None, provider: str, drafted: Any) -> bool:
    """Whether the learned model takes the decision on a run whose answer step gave ``drafted``.

    It scores the runs of the engine it was fitted on; an answer that rests on a person's
    reply is decided as theirs (:mod:`grace.hitl.reply`).
    """
    if model is None or drafted is None or not model.applies_to(provider):
        return False
    return not rests_on_the_person(drafted.sources)


def final_thresholds(
    calculator: ConfidenceCalculator, model: LearnedModel, in_force: Thresholds
) -> Thresholds:
    """The thresholds a learned P(correct) is decided on: the model's, moved by the user's shift.

    ``in_force`` are the user's thresholds (the configured ones plus their learned shift).
    Thresholds you set yourself (``confidence.thresholds`` in ``grace.yaml``, or in code) win
    over the model's: then ``in_force`` is returned unchanged.
    """
    if "thresholds" in calculator.config.model_fields_set:
        return in_force
    shift = in_force.notify - calculator.config.thresholds.notify
    t = model_thresholds(model, shift)
    return Thresholds(silent=t.silent, notify=t.notify, confirm=t.confirm)


def thresholds_in_force(
    calculator: ConfidenceCalculator, provider: str, in_force: Thresholds
) -> tuple[Thresholds, str]:
    """The thresholds that decide a run's level, and where they come from.

    The learned model's (moved by the user's shift) when the settings' model scores this
    engine's runs and no thresholds were set by hand; else ``in_force`` (the settings' or
    code's, with the user's shift). What step notices, the pause panel, ``grace eval`` and
    ``grace config`` show.
    """
    model = calculator.config.model
    if model is None or not model.applies_to(provider):
        return in_force, "settings"
    if "thresholds" in calculator.config.model_fields_set:
        return in_force, "settings (set by hand; they win over the model's)"
    return final_thresholds(calculator, model, in_force), "learned model"


def decide_learned(
    calculator: ConfidenceCalculator,
    model: LearnedModel,
    p: float,
    thresholds: Thresholds,
    *,
    abstained: bool,
) -> ActionDecision:
    """The level for the model's ``p``; a pause on an abstention is an ESCALATE.

    An abstention has no answer to approve, so a pause on it asks for the person's input.
    """
    decision = calculator.decide_action(p, final_thresholds(calculator, model, thresholds))
    if abstained and decision.level == InterventionLevel.CONFIRM:
        decision = decision.model_copy(update={"level": InterventionLevel.ESCALATE})
    return decision


def learned_decision(
    model: LearnedModel,
    calculator: ConfidenceCalculator,
    question: str,
    steps: Sequence[Any],
    scores: Mapping[str, tuple[float, Mapping[str, float]]],
    thresholds: Thresholds,
) -> tuple[float, ActionDecision]:
    """P(correct) from the model and the decision on it (``thresholds``: the user's in force)."""
    signals = signals_of(question, steps, scores)
    p = predict(model, run_features(signals))
    decision = decide_learned(calculator, model, p, thresholds, abstained=not signals.answer)
    reason = f"{decision.reason}; P(correct) {p:.3f} from the learned confidence model"
    return p, decision.model_copy(update={"reason": reason})

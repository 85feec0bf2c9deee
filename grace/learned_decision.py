"""The final decision by the learned confidence model (docs/architecture.md §4).

The ``confidence`` node calls :func:`learned_decision` after the last step: when the settings'
``confidence.model`` was fitted on the engine in force, the run's P(answer correct) is the
model's prediction from the run's features (:mod:`grace.run_features`), and the level is
decided on the model's own thresholds — SILENT where it was certified, NOTIFY and CONFIRM
moved by the user's learned shift.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from confidence import ActionDecision, ConfidenceCalculator, Thresholds
from confidence.learned import LearnedModel, model_thresholds, predict
from grace.run_features import run_features, signals_of

__all__ = ["final_thresholds", "learned_decision"]


def final_thresholds(
    calculator: ConfidenceCalculator, model: LearnedModel, in_force: Thresholds
) -> Thresholds:
    """The thresholds a learned P(correct) is decided on: the model's, moved by the user's shift.

    ``in_force`` are the user's thresholds (the configured ones plus their learned shift).
    """
    shift = in_force.notify - calculator.config.thresholds.notify
    t = model_thresholds(model, shift)
    return Thresholds(silent=t.silent, notify=t.notify, confirm=t.confirm)


def learned_decision(
    model: LearnedModel,
    calculator: ConfidenceCalculator,
    question: str,
    steps: Sequence[Any],
    scores: Mapping[str, tuple[float, Mapping[str, float]]],
    thresholds: Thresholds,
) -> tuple[float, ActionDecision]:
    """P(correct) from the model and the decision on it (``thresholds``: the user's in force)."""
    p = predict(model, run_features(signals_of(question, steps, scores)))
    decision = calculator.decide_action(p, final_thresholds(calculator, model, thresholds))
    reason = f"{decision.reason}; P(correct) {p:.3f} from the learned confidence model"
    return p, decision.model_copy(update={"reason": reason})

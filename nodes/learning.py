"""Learned thresholds: read and update the per-user thresholds kept in the LangGraph store."""

from __future__ import annotations

from langgraph.runtime import Runtime

from confidence import Thresholds
from grace.context import GraceContext
from grace.services import Services
from nodes.common import context_of

__all__ = ["learned_thresholds", "record_outcome"]


def learned_thresholds(services: Services, runtime: Runtime[GraceContext] | None) -> Thresholds:
    """The user's learned thresholds when the graph has a store, else the settings' ones."""
    base = services.settings.confidence.thresholds
    store = runtime.store if runtime is not None else None
    if store is None:
        return base
    from confidence import ThresholdLearner

    user = context_of(runtime).user_id or services.settings.user_id
    return ThresholdLearner(store, base).thresholds_for(user)


def record_outcome(
    services: Services, runtime: Runtime[GraceContext] | None, score: float, outcome: str
) -> None:
    """Feed the person's reply at an intervention to the threshold learner (if a store exists)."""
    store = runtime.store if runtime is not None else None
    if store is None or outcome not in ("accept", "edit", "response", "ignore"):
        return
    from confidence import ThresholdLearner

    user = context_of(runtime).user_id or services.settings.user_id
    learner = ThresholdLearner(store, services.settings.confidence.thresholds)
    learner.record(user, score, outcome)  # type: ignore[arg-type]

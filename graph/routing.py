"""Conditional edges: where the run goes after ``confidence`` and after ``intervene``."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Literal

from confidence import InterventionLevel
from grace.state import State
from nodes.common import pending_steps

__all__ = [
    "CONFIDENCE_ROUTES",
    "INTERVENE_ROUTES",
    "route_after_confidence",
    "route_after_intervene",
]

AfterConfidence = Literal["SILENT/NOTIFY", "CONFIRM/ESCALATE", "step failed", "all done"]
"""Route labels out of ``confidence``: the decision's level, a failure, or the end."""
AfterIntervene = Literal["accept", "edit/response", "ignore or done"]
"""Route labels out of ``intervene``."""

CONFIDENCE_ROUTES: dict[Hashable, str] = {
    "SILENT/NOTIFY": "execute",
    "CONFIRM/ESCALATE": "intervene",
    "step failed": "replan",
    "all done": "finalize",
}
"""Where each label of :func:`route_after_confidence` leads."""
INTERVENE_ROUTES: dict[Hashable, str] = {
    "accept": "execute",
    "edit/response": "replan",
    "ignore or done": "finalize",
}
"""Where each label of :func:`route_after_intervene` leads."""


def _steps_left(state: State) -> bool:
    return bool(pending_steps(state.plan, state.results))


def route_after_confidence(state: State) -> AfterConfidence:
    """Route on the decision's :class:`InterventionLevel`.

    - ``step failed`` → ``replan``: a step failed (its fallback too) and replans remain;
    - ``CONFIRM/ESCALATE`` → ``intervene``;
    - ``SILENT/NOTIFY`` → ``execute`` the next ready steps;
    - ``all done`` → ``finalize``: SILENT / NOTIFY and no step left.
    """
    request = state.replan_request
    if request is not None and request.trigger == "step_failed":
        if state.replan_count < state.replan_budget:
            return "step failed"
    level = state.decision.level if state.decision is not None else InterventionLevel.ESCALATE
    if level in (InterventionLevel.CONFIRM, InterventionLevel.ESCALATE):
        return "CONFIRM/ESCALATE"
    return "SILENT/NOTIFY" if _steps_left(state) else "all done"


def route_after_intervene(state: State) -> AfterIntervene:
    """Route on the person's reply: accept → go on; edit / response → replan; ignore → finish."""
    if state.review == "replan":
        return "edit/response" if state.replan_count < state.replan_budget else "ignore or done"
    if state.review == "continue" and _steps_left(state):
        return "accept"
    return "ignore or done"

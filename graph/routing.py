"""Conditional edges: where the run goes after ``confidence`` and after ``intervene``."""

from __future__ import annotations

from typing import Literal

from confidence import InterventionLevel
from grace.state import State
from nodes.common import pending_steps

__all__ = ["route_after_confidence", "route_after_intervene"]

AfterConfidence = Literal["execute", "intervene", "replan", "finalize"]
AfterIntervene = Literal["execute", "replan", "finalize"]


def _next_or_finish(state: State) -> Literal["execute", "finalize"]:
    return "execute" if pending_steps(state.plan, state.results) else "finalize"


def route_after_confidence(state: State) -> AfterConfidence:
    """Route on the decision's :class:`InterventionLevel`.

    - a step failed (its fallback too) and replans remain → ``replan``;
    - CONFIRM / ESCALATE → ``intervene``;
    - SILENT / NOTIFY → ``execute`` the next ready steps, or ``finalize`` when all are done.
    """
    request = state.replan_request
    if request is not None and request.trigger == "step_failed":
        if state.replan_count < state.replan_budget:
            return "replan"
    level = state.decision.level if state.decision is not None else InterventionLevel.ESCALATE
    if level in (InterventionLevel.CONFIRM, InterventionLevel.ESCALATE):
        return "intervene"
    return _next_or_finish(state)


def route_after_intervene(state: State) -> AfterIntervene:
    """Route on the person's reply: accept → go on; edit / response → replan; ignore → finish."""
    if state.review == "replan":
        return "replan" if state.replan_count < state.replan_budget else "finalize"
    if state.review == "continue":
        return _next_or_finish(state)
    return "finalize"

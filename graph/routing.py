"""Conditional edges: where the run goes after ``confidence`` and after ``intervene``."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Literal

from langgraph.runtime import Runtime

from confidence import InterventionLevel
from grace.context import GraceContext
from grace.state import State
from nodes.common import pending_steps
from nodes.replan import low_confidence_allowance, low_confidence_replan_due

__all__ = [
    "CONFIDENCE_ROUTES",
    "INTERVENE_ROUTES",
    "route_after_confidence",
    "route_after_intervene",
]

AfterConfidence = Literal["SILENT/NOTIFY", "CONFIRM/ESCALATE", "failed/low confidence", "all done"]
"""Route labels out of ``confidence``: the decision's level, a failure, or the end."""
AfterIntervene = Literal["accept", "edit/response", "ignore or done"]
"""Route labels out of ``intervene``."""

CONFIDENCE_ROUTES: dict[Hashable, str] = {
    "SILENT/NOTIFY": "execute",
    "CONFIRM/ESCALATE": "pause",  # posts the draft to the chat, then ``intervene`` waits
    "failed/low confidence": "replan",
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


def route_after_confidence(
    state: State, runtime: Runtime[GraceContext] | None = None
) -> AfterConfidence:
    """Route on the decision's :class:`InterventionLevel`.

    - ``failed/low confidence`` → ``replan``: a step failed (its fallback too) and replans
      remain; or ESCALATE, but GRACE first broadens / reformulates (budget left and fewer
      than ``run.low_confidence_replans`` such replans so far). One label, because LangGraph
      draws one edge per (source, target); ``replan`` reads the trigger from the state;
    - ``CONFIRM/ESCALATE`` → ``pause`` → ``intervene`` (ESCALATE once automatic replans are
      used up);
    - ``SILENT/NOTIFY`` → ``execute`` the next ready steps;
    - ``all done`` → ``finalize``: SILENT / NOTIFY and no step left.

    Every way into ``replan`` needs ``replan_count < replan_budget`` and each replan adds
    one to the count, so the run cannot loop.
    """
    request = state.replan_request
    if request is not None and request.trigger == "step_failed":
        if state.replan_count < state.replan_budget:
            return "failed/low confidence"
    level = state.decision.level if state.decision is not None else InterventionLevel.ESCALATE
    if level == InterventionLevel.ESCALATE and low_confidence_replan_due(
        state, low_confidence_allowance(runtime)
    ):
        return "failed/low confidence"
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

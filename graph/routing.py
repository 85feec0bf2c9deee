"""Conditional edges: where the run goes after ``confidence`` and after ``intervene``.

Both routers are pure functions of the state. After ``confidence`` a pending replan request
(``step_failed``, or ``low_confidence`` when ``confidence`` decided to broaden the search
before asking the person) goes to ``replan`` while the budget lasts; otherwise the decision's
:class:`InterventionLevel` picks the route from a table (:data:`LEVEL_ROUTES`), which
:func:`graph.builder.make_builder` lets you override per level.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from types import MappingProxyType
from typing import Any, Literal

from langchain_core.runnables import RunnableConfig, RunnableLambda
from langgraph.types import Send

from confidence import InterventionLevel
from grace.state import State
from nodes.common import pending_steps
from nodes.execute import send_steps

__all__ = [
    "CONFIDENCE_ROUTES",
    "INTERVENE_ROUTES",
    "LEVEL_ROUTES",
    "AfterConfidence",
    "LevelRoute",
    "Route",
    "ask_the_person",
    "confidence_router",
    "go_on",
    "intervene_router",
    "route_after_confidence",
    "route_after_intervene",
    "steps_or_confidence",
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

LevelRoute = Callable[[State], AfterConfidence]
"""The route of one intervention level: a pure function of the state to a label."""


def _steps_left(state: State) -> bool:
    return bool(pending_steps(state.plan, state.results))


def go_on(state: State) -> AfterConfidence:
    """No pause: ``execute`` the next ready steps, or ``finalize`` when none is left."""
    return "SILENT/NOTIFY" if _steps_left(state) else "all done"


def ask_the_person(state: State) -> AfterConfidence:
    """Pause for the person's review: ``pause`` posts the draft, ``intervene`` waits."""
    return "CONFIRM/ESCALATE"


LEVEL_ROUTES: Mapping[InterventionLevel, LevelRoute] = MappingProxyType(
    {
        InterventionLevel.SILENT: go_on,
        InterventionLevel.NOTIFY: go_on,
        InterventionLevel.CONFIRM: ask_the_person,
        InterventionLevel.ESCALATE: ask_the_person,
    }
)
"""GRACE's route for each level (NOTIFY never pauses: ``confidence`` emitted its notice)."""

_AUTOMATIC = ("step_failed", "low_confidence")

RouteResult = str | list[Send]
"""What a router returns: a label of its edge's map, or ``execute`` tasks (``Send``)."""


class Route(RunnableLambda[State, RouteResult]):
    """A conditional edge's router — a pure function of the state — run where it is called.

    Given a plain function, LangGraph runs it on the async path (``ainvoke`` / ``astream``)
    in a worker thread (``run_in_executor``): three thread hand-offs a run for microseconds
    of work, the largest part of an async GRACE run's cost beyond a bare chain's after the
    nodes (issue 40). A router reads only the state it is given, so ``ainvoke`` calls it on
    the event loop, as ``invoke`` calls it in the caller's thread; neither adds a traced run
    of its own (the node it follows is traced). LangGraph still reads the state type the
    router takes from the function's annotation (``State``, whatever the node's input schema).
    """

    def __init__(self, func: Callable[[State], RouteResult]) -> None:
        """Wrap ``func`` (named after it)."""
        super().__init__(func, name=func.__name__)
        self.route = func

    def invoke(
        self, input: State, config: RunnableConfig | None = None, **kwargs: Any
    ) -> RouteResult:
        """The route of ``input``."""
        return self.route(input)

    async def ainvoke(
        self, input: State, config: RunnableConfig | None = None, **kwargs: Any
    ) -> RouteResult:
        """The route of ``input``, on the event loop (the router does no I/O)."""
        return self.route(input)


def route_after_confidence(
    state: State, routes: Mapping[InterventionLevel, LevelRoute] = LEVEL_ROUTES
) -> AfterConfidence:
    """Route on a pending automatic replan, else on the decision's level (``routes``).

    - ``failed/low confidence`` → ``replan``: ``confidence`` asked for one (a step failed and
      its fallback too, or ESCALATE with automatic replans left, see
      :func:`nodes.common.low_confidence_replan_due`) and the budget is not used up. One
      label, because LangGraph draws one edge per (source, target); ``replan`` reads the
      trigger from the state;
    - otherwise the level's route: by default CONFIRM / ESCALATE → ``pause`` → ``intervene``;
      SILENT / NOTIFY → ``execute`` the next ready steps, or ``finalize`` when none is left.

    Every way into ``replan`` needs ``replan_count < replan_budget`` and each replan adds
    one to the count, so the run cannot loop.
    """
    request = state.replan_request
    if request is not None and request.trigger in _AUTOMATIC:
        if state.replan_count < state.replan_budget:
            return "failed/low confidence"
    level = state.decision.level if state.decision is not None else InterventionLevel.ESCALATE
    return routes[level](state)


def _fan_out(label: str, ends: Mapping[Hashable, str], state: State) -> str | list[Send]:
    """``label``, or the ready steps as ``execute`` tasks when ``label`` leads there."""
    return send_steps(state) if ends[label] == "execute" else label


def confidence_router(
    routes: Mapping[InterventionLevel, LevelRoute] | None = None,
) -> Callable[[State], RouteResult]:
    """:func:`route_after_confidence` with ``routes`` overriding :data:`LEVEL_ROUTES`.

    Going on fans out: one ``Send`` to ``execute`` per ready step (:func:`send_steps`).
    """
    table = {**LEVEL_ROUTES, **(routes or {})}

    def route(state: State) -> RouteResult:
        return _fan_out(route_after_confidence(state, table), CONFIDENCE_ROUTES, state)

    return route


def intervene_router(state: State) -> RouteResult:
    """:func:`route_after_intervene`; ``accept`` fans the ready steps out to ``execute``."""
    return _fan_out(route_after_intervene(state), INTERVENE_ROUTES, state)


def steps_or_confidence(state: State) -> RouteResult:
    """After ``plan`` / ``replan``: the plan's ready steps as ``execute`` tasks.

    A new plan with no step left to run (a replan that only keeps completed steps) goes
    straight to ``confidence``, which decides on what the run has.
    """
    return send_steps(state) if pending_steps(state.plan, state.results) else "confidence"


def route_after_intervene(state: State) -> AfterIntervene:
    """Route on the person's reply: accept → go on; edit / response → replan; ignore → finish."""
    if state.review == "replan":
        return "edit/response" if state.replan_count < state.replan_budget else "ignore or done"
    if state.review == "continue" and _steps_left(state):
        return "accept"
    return "ignore or done"

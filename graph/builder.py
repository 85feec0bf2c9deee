"""The GRACE graph: ``builder`` (uncompiled) and ``graph`` (compiled, no checkpointer).

``graph`` is what LangGraph Studio / ``langgraph dev`` loads (the server brings its own
checkpointer). In your code compile ``builder`` with a checkpointer, or use
:class:`graph.app.GraceApp`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from langchain_core.runnables import RunnableLambda
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime, get_runtime
from langgraph.types import Checkpointer, RetryPolicy

from confidence import InterventionLevel
from grace.context import GraceContext
from grace.serde import allow_grace_types
from grace.settings import get_settings
from grace.state import InputState, OutputState, State
from graph.routing import (
    CONFIDENCE_ROUTES,
    INTERVENE_ROUTES,
    LevelRoute,
    confidence_router,
    intervene_router,
    steps_or_confidence,
)
from nodes import confidence, execute, finalize, intervene, plan, replan
from nodes.confidence import aconfidence
from nodes.execute import aexecute, is_transient_error
from nodes.finalize import afinalize
from nodes.intervene import aintervene, pause
from nodes.plan import aplan
from nodes.replan import areplan

__all__ = ["builder", "graph", "make_builder", "twins"]


def _is_transient(exc: Exception) -> bool:
    """Retry only what may succeed on a second try.

    ``TransientToolError`` from ``execute``, timeouts, connection errors, 429 / 5xx: see
    :func:`nodes.execute.is_transient_error`.
    """
    return is_transient_error(exc)


def twins(
    func: Callable[[Any, Runtime[GraceContext]], dict[str, Any]],
    afunc: Callable[[Any, Runtime[GraceContext]], Awaitable[dict[str, Any]]],
    name: str,
) -> RunnableLambda[Any, dict[str, Any]]:
    """A node with a sync and an async implementation, both ``(state, runtime)`` functions.

    LangChain's ``RunnableLambda(func, afunc)``: ``invoke`` / ``stream`` call ``func``,
    ``ainvoke`` / ``astream`` await ``afunc`` on the event loop (instead of running
    ``func`` in the loop's small thread pool: docs/architecture.md §7 says why). Each gets
    the run's ``Runtime`` from :func:`langgraph.runtime.get_runtime`.
    """

    def sync(state: Any) -> dict[str, Any]:
        return func(state, get_runtime(GraceContext))

    async def asynchronous(state: Any) -> dict[str, Any]:
        return await afunc(state, get_runtime(GraceContext))

    return RunnableLambda(sync, afunc=asynchronous, name=name)


class GraceStateGraph(StateGraph[State, GraceContext, InputState, OutputState]):
    """The GRACE ``StateGraph``: its ``compile()`` registers GRACE's state types.

    Whatever checkpointer you compile with (``InMemorySaver()``, ``SqliteSaver(...)``, a
    Postgres saver) gets GRACE's msgpack allow-list, so checkpoints load without LangGraph's
    "Deserializing unregistered type" warning and nothing outside the allow-list is revived.
    """

    def compile(
        self, checkpointer: Checkpointer = None, **kwargs: Any
    ) -> CompiledStateGraph[State, GraceContext, InputState, OutputState]:
        """Compile the graph; ``checkpointer`` is given GRACE's allow-list first."""
        if isinstance(checkpointer, BaseCheckpointSaver):
            checkpointer = allow_grace_types(checkpointer)
        compiled = super().compile(checkpointer=checkpointer, **kwargs)
        # At most ``run.max_parallel_steps`` ``execute`` tasks of a batch run at once.
        return compiled.with_config(max_concurrency=get_settings().run.max_parallel_steps)


def make_builder(
    level_routes: Mapping[InterventionLevel, LevelRoute] | None = None,
) -> GraceStateGraph:
    """Wire the six nodes and their conditional edges.

    Args:
        level_routes: Routes after ``confidence`` for some intervention levels, replacing
            GRACE's (:data:`graph.routing.LEVEL_ROUTES`): each a pure function of the state
            returning one of the labels of :data:`graph.routing.CONFIDENCE_ROUTES`.

    """
    run = get_settings().run
    retry = RetryPolicy(
        max_attempts=run.retry_max_attempts,
        initial_interval=run.retry_initial_interval,
        retry_on=_is_transient,
    )
    b = GraceStateGraph(
        State, context_schema=GraceContext, input_schema=InputState, output_schema=OutputState
    )
    b.add_node("plan", twins(plan, aplan, "plan"), retry_policy=retry)
    b.add_node("execute", twins(execute, aexecute, "execute"), retry_policy=retry)
    b.add_node("confidence", twins(confidence, aconfidence, "confidence"), retry_policy=retry)
    b.add_node("intervene", twins(intervene, aintervene, "intervene"))
    b.add_node("replan", twins(replan, areplan, "replan"), retry_policy=retry)
    b.add_node("finalize", twins(finalize, afinalize, "finalize"))
    b.add_node("pause", pause)  # posts the draft to the chat; ``intervene`` then waits
    b.add_edge(START, "plan")
    b.add_conditional_edges("plan", steps_or_confidence, ["execute", "confidence"])
    b.add_edge("execute", "confidence")  # once every task of the batch has finished
    b.add_conditional_edges("confidence", confidence_router(level_routes), CONFIDENCE_ROUTES)
    b.add_edge("pause", "intervene")
    b.add_conditional_edges("intervene", intervene_router, INTERVENE_ROUTES)
    b.add_conditional_edges("replan", steps_or_confidence, ["execute", "confidence"])
    b.add_edge("finalize", END)
    return b


builder = make_builder()
graph = builder.compile(name="grace")

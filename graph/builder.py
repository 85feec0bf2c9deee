"""The GRACE graph: ``builder`` (uncompiled) and ``graph`` (compiled, no checkpointer).

``graph`` is what LangGraph Studio / ``langgraph dev`` loads (the server brings its own
checkpointer). In your code compile ``builder`` with a checkpointer, or use
:class:`graph.app.GraceApp`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from langchain_core.runnables import Runnable, RunnableConfig
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
    route_after_intervene,
)
from nodes import confidence, execute, finalize, intervene, plan, replan
from nodes.confidence import aconfidence
from nodes.execute import aexecute, is_transient_error
from nodes.finalize import afinalize
from nodes.intervene import aintervene, pause
from nodes.plan import aplan
from nodes.replan import areplan

__all__ = ["builder", "graph", "make_builder"]


def _is_transient(exc: Exception) -> bool:
    """Retry only what may succeed on a second try.

    ``TransientToolError`` from ``execute``, timeouts, connection errors, 429 / 5xx: see
    :func:`nodes.execute.is_transient_error`.
    """
    return is_transient_error(exc)


_Node = Callable[[State, Runtime[GraceContext]], dict[str, Any]]
_ANode = Callable[[State, Runtime[GraceContext]], Awaitable[dict[str, Any]]]


class GraceNode(Runnable[State, dict[str, Any]]):
    """A node with a sync and an async implementation, on public LangChain / LangGraph APIs.

    ``invoke`` / ``stream`` call ``func``; ``ainvoke`` / ``astream`` await ``afunc`` (instead
    of running ``func`` in the event loop's thread pool). Both get the run's
    :class:`~langgraph.runtime.Runtime` from :func:`langgraph.runtime.get_runtime`. Untraced,
    like a plain function given to ``add_node``: LangGraph traces the node itself.
    """

    def __init__(self, name: str, func: _Node, afunc: _ANode) -> None:
        """Wrap ``func`` (sync) and ``afunc`` (async) as the node called ``name``."""
        self.name = name
        self.func = func
        self.afunc = afunc

    def invoke(
        self, input: State, config: RunnableConfig | None = None, **kwargs: Any
    ) -> dict[str, Any]:
        """Run the sync implementation."""
        return self.func(input, get_runtime(GraceContext))

    async def ainvoke(
        self, input: State, config: RunnableConfig | None = None, **kwargs: Any
    ) -> dict[str, Any]:
        """Await the async implementation."""
        return await self.afunc(input, get_runtime(GraceContext))


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
        return super().compile(checkpointer=checkpointer, **kwargs)


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
    nodes: list[tuple[str, _Node, _ANode, RetryPolicy | None]] = [
        ("plan", plan, aplan, retry),
        ("execute", execute, aexecute, retry),
        ("confidence", confidence, aconfidence, retry),
        ("intervene", intervene, aintervene, None),
        ("replan", replan, areplan, retry),
        ("finalize", finalize, afinalize, None),
    ]
    for name, func, afunc, policy in nodes:
        b.add_node(name, GraceNode(name, func, afunc), retry_policy=policy)
    b.add_node("pause", pause)  # posts the draft to the chat; ``intervene`` then waits
    b.add_edge(START, "plan")
    b.add_edge("plan", "execute")
    b.add_edge("execute", "confidence")
    b.add_conditional_edges("confidence", confidence_router(level_routes), CONFIDENCE_ROUTES)
    b.add_edge("pause", "intervene")
    b.add_conditional_edges("intervene", route_after_intervene, INTERVENE_ROUTES)
    b.add_edge("replan", "execute")
    b.add_edge("finalize", END)
    return b


builder = make_builder()
graph = builder.compile(name="grace")

"""The GRACE graph: ``builder`` (uncompiled) and ``graph`` (compiled, no checkpointer).

``graph`` is what LangGraph Studio / ``langgraph dev`` loads (the server brings its own
checkpointer). In your code compile ``builder`` with a checkpointer, or use
:func:`graph.build_graph`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial, wraps
from typing import Any, cast

from langchain_core.runnables.config import run_in_executor
from langgraph._internal._runnable import RunnableCallable
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime
from langgraph.types import Checkpointer, RetryPolicy

from grace.context import GraceContext
from grace.serde import allow_grace_types
from grace.settings import get_settings
from grace.state import InputState, OutputState, State
from graph.routing import (
    CONFIDENCE_ROUTES,
    INTERVENE_ROUTES,
    route_after_confidence,
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


def _node(name: str, func: _Node, afunc: _ANode | None) -> RunnableCallable:
    """A node with a sync and an async implementation.

    ``invoke`` / ``stream`` call ``func``; ``ainvoke`` / ``astream`` await ``afunc`` instead
    of running ``func`` in the event loop's thread pool (without ``afunc`` they still do).
    Untraced, like a plain function given to ``add_node``.
    """
    if afunc is None:  # what ``add_node`` does with a sync function
        afunc = cast(_ANode, wraps(func)(partial(run_in_executor, None, func)))  # type: ignore[call-arg]
    return RunnableCallable(func, afunc, name=name, trace=False)


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


def make_builder() -> GraceStateGraph:
    """Wire the six nodes and their conditional edges."""
    run = get_settings().run
    retry = RetryPolicy(
        max_attempts=run.retry_max_attempts,
        initial_interval=run.retry_initial_interval,
        retry_on=_is_transient,
    )
    b = GraceStateGraph(
        State, context_schema=GraceContext, input_schema=InputState, output_schema=OutputState
    )
    b.add_node("plan", _node("plan", plan, aplan), retry_policy=retry)
    b.add_node("execute", _node("execute", execute, aexecute), retry_policy=retry)
    b.add_node("confidence", _node("confidence", confidence, aconfidence), retry_policy=retry)
    b.add_node("pause", pause)  # posts the draft to the chat; ``intervene`` then waits
    b.add_node("intervene", _node("intervene", intervene, aintervene))
    b.add_node("replan", _node("replan", replan, areplan), retry_policy=retry)
    b.add_node("finalize", _node("finalize", finalize, afinalize))
    b.add_edge(START, "plan")
    b.add_edge("plan", "execute")
    b.add_edge("execute", "confidence")
    b.add_conditional_edges("confidence", route_after_confidence, CONFIDENCE_ROUTES)
    b.add_edge("pause", "intervene")
    b.add_conditional_edges("intervene", route_after_intervene, INTERVENE_ROUTES)
    b.add_edge("replan", "execute")
    b.add_edge("finalize", END)
    return b


builder = make_builder()
graph = builder.compile(name="grace")

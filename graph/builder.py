"""The GRACE graph: ``builder`` (uncompiled) and ``graph`` (compiled, no checkpointer).

``graph`` is what LangGraph Studio / ``langgraph dev`` loads (the server brings its own
checkpointer). In your code compile ``builder`` with a checkpointer, or use
:func:`graph.build_graph`.
"""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph
from langgraph.types import RetryPolicy

from grace.context import GraceContext
from grace.settings import get_settings
from grace.state import InputState, OutputState, State
from graph.routing import (
    CONFIDENCE_ROUTES,
    INTERVENE_ROUTES,
    route_after_confidence,
    route_after_intervene,
)
from nodes import confidence, execute, finalize, intervene, plan, replan
from nodes.execute import is_transient_error

__all__ = ["builder", "graph", "make_builder"]


def _is_transient(exc: Exception) -> bool:
    """Retry only what may succeed on a second try.

    ``TransientToolError`` from ``execute``, timeouts, connection errors, 429 / 5xx: see
    :func:`nodes.execute.is_transient_error`.
    """
    return is_transient_error(exc)


def make_builder() -> StateGraph[State, GraceContext, InputState, OutputState]:
    """Wire the six nodes and their conditional edges."""
    run = get_settings().run
    retry = RetryPolicy(
        max_attempts=run.retry_max_attempts,
        initial_interval=run.retry_initial_interval,
        retry_on=_is_transient,
    )
    b = StateGraph(
        State, context_schema=GraceContext, input_schema=InputState, output_schema=OutputState
    )
    b.add_node(plan, retry_policy=retry)
    b.add_node(execute, retry_policy=retry)
    b.add_node(confidence, retry_policy=retry)
    b.add_node(intervene)
    b.add_node(replan, retry_policy=retry)
    b.add_node(finalize)
    b.add_edge(START, "plan")
    b.add_edge("plan", "execute")
    b.add_edge("execute", "confidence")
    b.add_conditional_edges("confidence", route_after_confidence, CONFIDENCE_ROUTES)
    b.add_conditional_edges("intervene", route_after_intervene, INTERVENE_ROUTES)
    b.add_edge("replan", "execute")
    b.add_edge("finalize", END)
    return b


builder = make_builder()
graph = builder.compile(name="grace")

"""The GRACE graph factory: ``make_graph`` / ``make_builder``, and ``builder`` / ``graph``.

``make_graph(services=…, tools=[…], factors=[…], checkpointer=…)`` binds the nodes'
dependencies into every node. ``builder`` (uncompiled) and ``graph`` (compiled, no
checkpointer) are made on first access — importing this module compiles nothing — and own
services built from the settings on first use. ``graph.studio`` holds the graph LangGraph
Studio / ``langgraph dev`` loads. In your code use ``make_graph``, compile ``builder`` with a
checkpointer, or use :class:`graph.app.GraceApp`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

from langchain_core.runnables import Runnable, RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.errors import NodeError
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime, get_runtime
from langgraph.types import Checkpointer, Command, RetryPolicy

from confidence import Factor, InterventionLevel
from confidence.model_log import ModelLog
from grace.context import GraceContext
from grace.notes.models import with_model_notes
from grace.providers.base import Reader
from grace.retrieval import CorpusStore
from grace.services import LazyServices, Services, ServicesSource, build_services
from grace.state import InputState, InterveneInput, OutputState, PauseInput, State, changed_only
from grace.storage.serde import allow_grace_types
from grace.tools import Tool
from graph.routing import (
    CONFIDENCE_ROUTES,
    INTERVENE_ROUTES,
    LevelRoute,
    Route,
    confidence_router,
    intervene_router,
    steps_or_confidence,
)
from graph.run_budgets import RunBudgets
from nodes import confidence, execute, finalize, intervene, plan, replan
from nodes.confidence import aconfidence
from nodes.execute import aexecute, is_transient_error, step_failed
from nodes.finalize import afinalize
from nodes.intervene import aintervene, pause
from nodes.plan import aplan
from nodes.replan import areplan

if TYPE_CHECKING:
    from langchain_core.tools import BaseTool

__all__ = ["Node", "builder", "graph", "make_builder", "make_graph"]


def _is_transient(exc: Exception) -> bool:
    """Retry only what may succeed on a second try.

    ``TransientToolError`` from ``execute``, timeouts, connection errors, 429 / 5xx: see
    :func:`nodes.execute.is_transient_error`. What it does not retry goes to the node's error
    handler, if it has one (:data:`ERROR_HANDLERS`); else it fails the run.
    """
    return is_transient_error(exc)


_Node = Callable[[Any, Runtime[GraceContext], ServicesSource, ModelLog], dict[str, Any]]
_ANode = Callable[[Any, Runtime[GraceContext], ServicesSource, ModelLog], Awaitable[dict[str, Any]]]
_Handler = Callable[
    [Any, BaseException | str, Runtime[GraceContext], ServicesSource, ModelLog], dict[str, Any]
]
"""A node's error handler body: ``(task, the error, runtime, services, log)``."""

ERROR_HANDLERS: dict[str, tuple[_Handler, str]] = {"execute": (step_failed, "confidence")}
"""The failure path of a node's tasks, by node: the handler LangGraph calls with a task's input
and its error once the node's ``RetryPolicy`` gives up (``add_node(error_handler=…)``), and
the node the run goes on to — the failed node's edge, which a handler's writes do not take."""


_KEPT_ERRORS = 1024
"""How many of the most recent handled node errors :func:`_keep_alive` keeps."""
_HANDLED_ERRORS: deque[BaseException] = deque(maxlen=_KEPT_ERRORS)


def _keep_alive(error: BaseException) -> None:
    """Keep an error LangGraph handed to an error handler from being freed while its run goes on.

    LangGraph's runner (1.2) remembers an error it routed to a node's ``error_handler`` by
    its ``id()`` for the rest of the invocation, and takes a later exception with the same
    id as already handled. CPython gives a freed object's id to the next object allocated
    there, so the ``GraphInterrupt`` of a pause later in the same run (the pause after a
    failed search) could take the freed error's id and be dropped: the caller is shown the
    pause, the run does not stop there, and a resume finds nothing to resume — the turn is
    lost (in 2 of 400 such runs with the saver's writes delayed at random). While the error
    object lives its id cannot be reused. The most recent :data:`_KEPT_ERRORS` are kept,
    process-wide: far more than the failed steps of the runs that can overlap one invocation.
    """
    _HANDLED_ERRORS.append(error)


def _written(update: dict[str, Any], input: Any, log: ModelLog) -> dict[str, Any]:
    """What a node writes: its update with the notes of its model calls, less what changes nothing.

    (:func:`grace.state.changed_only`: a write that changes nothing still costs a pending
    write, a channel version and a value in the next checkpoint.)
    """
    notes = with_model_notes(update, log.events, getattr(input, "notes", ()))
    return changed_only(notes, input)


class Node(Runnable[Any, dict[str, Any]]):
    """A graph node with a sync and an async body, ``(state, runtime, services, log)`` functions.

    A plain LangChain :class:`~langchain_core.runnables.Runnable` (public API): ``invoke``
    calls ``func``, ``ainvoke`` awaits ``afunc`` on the event loop instead of running
    ``func`` in the loop's small thread pool (docs/architecture.md §7 says why). Each gets
    the run's ``Runtime`` from :func:`langgraph.runtime.get_runtime`, the ``services``
    given to the graph factory and a fresh :class:`~confidence.model_log.ModelLog` holding
    the run's model time: the node passes it to every model call it makes, and what those
    calls report becomes the run's notes. LangGraph traces the node itself, so this adds no run of
    its own to the trace (``RunnableLambda`` did, and inspected its function's signature on
    every call: the cost the overhead benchmark measured).
    """

    def __init__(
        self,
        func: _Node,
        afunc: _ANode,
        name: str,
        services: ServicesSource,
        budgets: RunBudgets,
    ) -> None:
        """Bind the two bodies, the graph's services and its runs' model time.

        ``budgets`` is the graph's one table, shared by all its nodes
        (``graph.run_budgets``): a node with a table of its own would start a second
        budget for the same run.
        """
        self.func, self.afunc, self.name, self.services = func, afunc, name, services
        self.budgets = budgets

    def invoke(
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> dict[str, Any]:
        """Run the sync body (``invoke`` / ``stream``)."""
        runtime = get_runtime(GraceContext)
        # model failures and methods become the run's notes; calls keep to the run's time
        log = ModelLog(self.budgets.get(runtime, self.services))
        update = self.func(input, runtime, self.services, log)
        return _written(update, input, log)

    async def ainvoke(
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> dict[str, Any]:
        """Await the async body (``ainvoke`` / ``astream``)."""
        runtime = get_runtime(GraceContext)
        log = ModelLog(await self.budgets.aget(runtime, self.services))
        update = await self.afunc(input, runtime, self.services, log)
        return _written(update, input, log)

    def error_handler(self, body: _Handler, then: str) -> Callable[..., Command[str]]:
        """``body`` as this node's ``error_handler``, with the node's services and model time.

        The run goes on to ``then``. A plain function: LangGraph injects ``error`` (a
        ``NodeError``) and ``runtime`` into a function's parameters of those names, not into a
        ``Runnable``.
        """

        def handler(input: Any, error: NodeError, runtime: Runtime[GraceContext]) -> Command[str]:
            _keep_alive(error.error)
            log = ModelLog(self.budgets.get(runtime, self.services))
            update = body(input, error.error, runtime, self.services, log)
            return Command(update=_written(update, input, log), goto=then)

        handler.__name__ = handler.__qualname__ = f"{self.name}_failed"
        return handler


class GraceStateGraph(StateGraph[State, GraceContext, InputState, OutputState]):
    """The GRACE ``StateGraph``: its ``compile()`` registers GRACE's state types.

    Whatever checkpointer you compile with (``InMemorySaver()``, ``SqliteSaver(...)``, a
    Postgres saver) gets GRACE's msgpack allow-list, so checkpoints load without LangGraph's
    "Deserializing unregistered type" warning and nothing outside the allow-list is revived.
    """

    services: ServicesSource
    """The services bound into every node (``make_builder``'s, or the builder's own)."""
    max_concurrency: int = 4
    """At most this many ``execute`` tasks of a batch run at once (``run.max_parallel_steps``
    of the services' settings)."""

    def compile(
        self, checkpointer: Checkpointer = None, **kwargs: Any
    ) -> CompiledStateGraph[State, GraceContext, InputState, OutputState]:
        """Compile the graph; ``checkpointer`` is given GRACE's allow-list first.

        The one place a GRACE graph's serializer and concurrency are set.
        """
        if isinstance(checkpointer, BaseCheckpointSaver):
            checkpointer = allow_grace_types(checkpointer)
        compiled = super().compile(checkpointer=checkpointer, **kwargs)
        return compiled.with_config(max_concurrency=self.max_concurrency)


def make_builder(
    level_routes: Mapping[InterventionLevel, LevelRoute] | None = None,
    *,
    services: ServicesSource | None = None,
) -> GraceStateGraph:
    """Wire the nodes and their conditional edges, with ``services`` bound into every node.

    Args:
        level_routes: Routes after ``confidence`` for some intervention levels, replacing
            GRACE's (:data:`graph.routing.LEVEL_ROUTES`): each a pure function of the state
            returning one of the labels of :data:`graph.routing.CONFIDENCE_ROUTES`.
        services: The nodes' dependencies (store, tools, factors, reader …), built or
            built on first use (:class:`~grace.services.LazyServices`); without them, the
            builder's own, built from the settings on first use. Their settings decide the
            retries (``run.retry_*``) and the concurrency (``run.max_parallel_steps``).

    """
    if services is None:
        services = LazyServices()
    run = services.settings.run
    retry = RetryPolicy(
        max_attempts=run.retry_max_attempts,
        initial_interval=run.retry_initial_interval,
        retry_on=_is_transient,
    )
    b = GraceStateGraph(
        State, context_schema=GraceContext, input_schema=InputState, output_schema=OutputState
    )
    b.services, b.max_concurrency = services, run.max_parallel_steps
    budgets = RunBudgets()  # one per graph: its nodes share each run's model time
    nodes: list[tuple[str, _Node, _ANode, RetryPolicy | None]] = [
        ("plan", plan, aplan, retry),
        ("execute", execute, aexecute, retry),  # one task per ready step (``Send``)
        ("confidence", confidence, aconfidence, retry),
        ("intervene", intervene, aintervene, None),
        ("replan", replan, areplan, retry),
        ("finalize", finalize, afinalize, None),
    ]
    inputs = {"intervene": InterveneInput}  # the nodes whose reads are their input schema
    for name, func, afunc, policy in nodes:
        node = Node(func, afunc, name, services, budgets)
        failed = ERROR_HANDLERS.get(name)
        handler = node.error_handler(*failed) if failed is not None else None
        b.add_node(
            name, node, retry_policy=policy, input_schema=inputs.get(name), error_handler=handler
        )
    # posts the draft to the chat; ``intervene`` then waits
    b.add_node("pause", pause, input_schema=PauseInput)
    b.add_edge(START, "plan")
    # routers run where they are called, on the async path too (``Route``)
    b.add_conditional_edges("plan", Route(steps_or_confidence), ["execute", "confidence"])
    b.add_edge("execute", "confidence")  # once every task of the batch has finished
    after_confidence = Route(confidence_router(level_routes))
    b.add_conditional_edges("confidence", after_confidence, CONFIDENCE_ROUTES)
    b.add_edge("pause", "intervene")
    b.add_conditional_edges("intervene", Route(intervene_router), INTERVENE_ROUTES)
    b.add_conditional_edges("replan", Route(steps_or_confidence), ["execute", "confidence"])
    b.add_edge("finalize", END)
    return b


def make_graph(
    *,
    services: ServicesSource | None = None,
    store: CorpusStore | None = None,
    reader: Reader | None = None,
    tools: Sequence[Tool | BaseTool] = (),
    factors: Sequence[Factor] = (),
    level_routes: Mapping[InterventionLevel, LevelRoute] | None = None,
    checkpointer: Checkpointer = None,
    **compile_kwargs: Any,
) -> CompiledStateGraph[State, GraceContext, InputState, OutputState]:
    """The compiled GRACE graph over the dependencies you pass in.

    Args:
        services: Start from these services (built, or a
            :class:`~grace.services.LazyServices`); default: the graph's own, built from
            the settings (:func:`grace.services.build_services`) over ``store`` on its first
            run.
        store: The document store (default: the settings').
        reader: The answer generator instead of the engine's.
        tools: Tools to register as plan actions (GRACE tools, or LangChain tools with the
            role ``other``; see ``ToolRegistry.register`` for a role).
        factors: Confidence factors to register (:class:`confidence.Factor`).
        level_routes: Routes after ``confidence`` per level (:func:`make_builder`).
        checkpointer: Given GRACE's msgpack allow-list, as in ``builder.compile``.
        **compile_kwargs: Further ``compile`` arguments (``name``, ``interrupt_before`` …;
            LangGraph's ``store`` through ``make_builder(...).compile(store=…)``).

    A run's ``context`` (:class:`~grace.context.GraceContext`) carries its per-run choices:
    model, user, collection, top-k. A run naming another model keeps these tools and factors.

    """
    extend = partial(_extended, reader=reader, tools=tools, factors=factors)
    source: ServicesSource
    if services is None:  # the graph's own, built on its first run
        source = LazyServices(lambda: extend(build_services(store=store)))
    elif isinstance(services, LazyServices):
        lazy = services
        wrapped = LazyServices(lambda: extend(lazy.get()), settings=lazy.settings)
        source = wrapped if reader or tools or factors else lazy
    else:
        source = extend(services)
    b = make_builder(level_routes, services=source)
    return b.compile(checkpointer=checkpointer, **compile_kwargs)


def _extended(
    services: Services,
    *,
    reader: Reader | None,
    tools: Sequence[Tool | BaseTool],
    factors: Sequence[Factor],
) -> Services:
    """``services`` with ``reader`` instead of theirs and ``tools`` / ``factors`` registered."""
    if reader is not None:
        services = replace(services, reader=reader)
    for tool in tools:
        services.tools.register(tool)
    for factor in factors:
        services.calculator.factors.register(factor)
    return services


if TYPE_CHECKING:
    builder: GraceStateGraph
    """The GRACE ``StateGraph``, uncompiled; its compiled graphs share its own services."""
    graph: CompiledStateGraph[State, GraceContext, InputState, OutputState]
    """The compiled GRACE graph without a checkpointer, with services of its own."""


def __getattr__(name: str) -> Any:
    """``builder`` and ``graph``, made on first access (then plain module attributes)."""
    if name == "builder":
        value: Any = make_builder()
    elif name == "graph":
        value = make_graph(name="grace")  # services of its own, not the builder's
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value

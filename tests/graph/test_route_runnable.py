"""Routers run where they are called: on the event loop under ``ainvoke`` (issue 40).

LangGraph runs a plain function given as a conditional edge in a worker thread on the async
path; :class:`graph.routing.Route` calls the router on the loop (it does no I/O) and keeps
``State`` as what LangGraph reads for it, whatever the source node's input schema.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from langgraph.checkpoint.memory import InMemorySaver

import graph.builder as builder_module
from grace.state import State
from grace.storage.serde import use_grace_serializer
from graph.builder import make_builder, make_graph
from graph.routing import Route, steps_or_confidence
from tests.graph.conftest import cfg

QUESTION = "When did the horse tram line open in Lumen Bay?"


def test_every_branch_is_a_route_that_reads_the_whole_state() -> None:
    builder = make_builder()
    branches = [spec for specs in builder.branches.values() for spec in specs.values()]
    assert {"plan", "confidence", "intervene", "replan"} == set(builder.branches)
    assert all(isinstance(spec.path, Route) for spec in branches)
    assert all(spec.input_schema is State for spec in branches)  # intervene's input is not


def test_a_route_gives_its_functions_answer_both_ways() -> None:
    route = Route(steps_or_confidence)
    state = State()
    assert route.name == "steps_or_confidence"
    assert route.invoke(state) == steps_or_confidence(state) == "confidence"
    assert asyncio.run(route.ainvoke(state)) == "confidence"


def test_an_async_run_routes_on_the_event_loop(offline_services: Any, monkeypatch: Any) -> None:
    threads: list[int] = []

    def watched(state: State) -> Any:
        threads.append(threading.get_ident())
        return steps_or_confidence(state)

    monkeypatch.setattr(builder_module, "steps_or_confidence", watched)
    saver = use_grace_serializer(InMemorySaver())  # the sync SqliteSaver has no async methods
    app: Any = make_graph(services=offline_services, checkpointer=saver)

    async def run() -> tuple[int, Any]:
        result = await app.ainvoke({"query": QUESTION}, cfg("loop"))
        return threading.get_ident(), result

    loop_thread, result = asyncio.run(run())
    assert result["answer"]
    assert threads == [loop_thread]  # after plan: on the loop, not in a worker thread

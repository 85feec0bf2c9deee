"""Independent plan steps really run at the same time (sync and async), dependents after them.

Overlap is read from each ``StepResult``'s ``started_at`` / ``finished_at``, never from a
wall-clock threshold: every search is slowed by a fixed latency, so parallel steps must have
overlapping intervals and a dependent step must start after all its dependencies finished.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from bench.models import LatentStore, independent_search_plan
from grace.schemas import StepResult, StepStatus
from grace.services import build_services
from grace.storage.serde import use_grace_serializer
from graph.builder import make_graph
from tests.fakes import ScriptedChatModel

QUERIES = [
    "horse tram line opened",
    "Wren Point Lighthouse designer",
    "lantern festival",
    "university founded",
]
QUESTION = (
    "When did the horse tram line open, who designed the Wren Point Lighthouse, when is the "
    "lantern festival held and when was the university founded?"
)
VERDICT = {"self_evaluation": 0.95, "query_coverage": 0.9, "rationale": "supported"}
LATENCY = 0.15


def _model() -> ScriptedChatModel:
    return ScriptedChatModel.of(
        plans=[independent_search_plan(QUERIES, QUESTION)],
        answers=["The line opened in 1874 [S1]."],
        verdicts=[VERDICT],
    )


@pytest.fixture
def slow_search(offline_services: Any) -> Iterator[tuple[Any, ScriptedChatModel]]:
    """Model-backed services whose every search takes ``LATENCY`` seconds."""
    model = _model()
    services = build_services(
        offline_services.settings,
        chat_model=model,
        store=LatentStore.wrap(offline_services.store, LATENCY),
    )
    app = make_graph(services=services, checkpointer=use_grace_serializer(InMemorySaver()))
    yield app, model


def _check_overlap(results: dict[str, StepResult]) -> None:
    searches = [results[f"s{i}"] for i in range(1, len(QUERIES) + 1)]
    assert all(r.status == StepStatus.SUCCESS for r in searches)
    for r in searches:
        assert r.started_at is not None and r.finished_at is not None
        assert r.finished_at - r.started_at >= LATENCY * 0.9  # the latency really applied
    for a, b in itertools.combinations(searches, 2):
        assert a.started_at < b.finished_at and b.started_at < a.finished_at, (a, b)
    # All four were in flight at one moment: the latest start precedes the earliest end.
    assert max(r.started_at for r in searches) < min(r.finished_at for r in searches)
    answer = results[f"s{len(QUERIES) + 1}"]
    assert answer.started_at is not None
    assert answer.started_at >= max(r.finished_at for r in searches)


def test_independent_searches_overlap_with_invoke(slow_search: tuple[Any, Any]) -> None:
    app, model = slow_search
    cfg = {"configurable": {"thread_id": "perf-par-sync"}}
    out = app.invoke({"query": QUESTION}, cfg)
    assert out["answer"]
    assert model.count("PlanDraft") == 1
    _check_overlap(app.get_state(cfg).values["results"])


async def test_independent_searches_overlap_with_ainvoke(slow_search: tuple[Any, Any]) -> None:
    app, _ = slow_search
    cfg = {"configurable": {"thread_id": "perf-par-async"}}
    out = await app.ainvoke({"query": QUESTION}, cfg)
    assert out["answer"]
    _check_overlap((await app.aget_state(cfg)).values["results"])


def test_parallelism_is_bounded_by_max_parallel_steps(
    offline_services: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With ``max_parallel_steps = 2`` at most two searches are in flight at any moment.

    The bound is the compiled graph's ``max_concurrency`` (LangGraph runs at most that many
    ``execute`` tasks of a batch at once), taken from the settings at ``compile()``.
    """
    from grace.settings import GraceSettings, get_settings

    settings = GraceSettings(
        data_dir=offline_services.settings.data_dir,
        provider="offline",
        run={"max_parallel_steps": 2},
    )
    services = build_services(
        settings, chat_model=_model(), store=LatentStore.wrap(offline_services.store, LATENCY)
    )
    monkeypatch.setenv("GRACE_RUN__MAX_PARALLEL_STEPS", "2")
    get_settings.cache_clear()
    try:
        app = make_graph(services=services, checkpointer=use_grace_serializer(InMemorySaver()))
    finally:
        get_settings.cache_clear()
    cfg = {"configurable": {"thread_id": "perf-par-bounded"}}
    app.invoke({"query": QUESTION}, cfg)
    results = app.get_state(cfg).values["results"]
    searches = [results[f"s{i}"] for i in range(1, len(QUERIES) + 1)]
    for r in searches:
        in_flight = sum(1 for o in searches if o.started_at <= r.started_at < o.finished_at)
        assert in_flight <= 2
    assert max(r.started_at for r in searches) >= min(r.finished_at for r in searches)


class _Crash(BaseException):
    """Stands in for the process dying mid-batch (no ``except Exception`` catches it)."""


def test_a_finished_step_is_not_run_again_after_a_sibling_crashed(offline_services: Any) -> None:
    """Each ready step is its own ``execute`` task (``Send``): its writes are checkpointed.

    Two independent searches run at once; the second crashes after the first finished. On
    resume only the crashed step runs again: the first one's result was saved with its
    task's writes. (With one ``execute`` node running the whole batch, both ran again.)
    """
    from dataclasses import replace

    from grace.schemas import ToolResult
    from grace.tools import ToolCall, ToolEnv, ToolRegistry

    model = ScriptedChatModel.of(
        plans=[independent_search_plan(QUERIES[:2], QUESTION)],
        answers=["The line opened in 1874 [S1]."],
        verdicts=[VERDICT],
    )
    services = build_services(
        offline_services.settings, chat_model=model, store=offline_services.store
    )
    real = services.tools.get("rag_search")
    runs: list[str] = []
    first_done = threading.Event()
    crashed: list[bool] = []

    class CrashOnce:
        name, description = real.name, real.description
        role, signals = real.role, real.signals

        def runs_inline(self, env: ToolEnv) -> bool:
            return True

        def run(self, call: ToolCall, env: ToolEnv) -> ToolResult:
            runs.append(call.step.query)
            if call.step.query == QUERIES[1] and not crashed:
                assert first_done.wait(5.0)
                time.sleep(0.3)  # the sibling's task has returned and its writes are saved
                crashed.append(True)
                raise _Crash("the process died")
            result: ToolResult = real.run(call, env)
            if call.step.query == QUERIES[0]:
                first_done.set()
            return result

    others = [services.tools.get(n) for n in services.tools.names() if n != "rag_search"]
    services = replace(services, tools=ToolRegistry([CrashOnce(), *others]))
    app = make_graph(services=services, checkpointer=use_grace_serializer(InMemorySaver()))
    cfg = {"configurable": {"thread_id": "crash-mid-batch"}}
    with pytest.raises(_Crash):
        app.invoke({"query": QUESTION}, cfg)
    out = app.invoke(None, cfg)  # resume from the last checkpoint
    assert out["answer"]
    assert runs.count(QUERIES[0]) == 1, runs  # never run again
    assert runs.count(QUERIES[1]) == 2, runs
    results = app.get_state(cfg).values["results"]
    assert results["s1"].status == StepStatus.SUCCESS
    assert results["s2"].status == StepStatus.SUCCESS

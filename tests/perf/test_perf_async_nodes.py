"""Async end to end: ``ainvoke`` runs the async node functions, nothing blocks the loop.

Each node is registered with a sync and an async implementation (``graph/builder.py``:
``Node(func, afunc, …)``, a plain ``Runnable`` over two ``(state, runtime)`` functions).
Under ``ainvoke`` the tools' ``arun``, the planner's ``aplan`` and the models' async calls
run on the event loop's own thread: the sync ``run`` of every tool and the sync model call
raise here, so a run that finishes proves they were never used. The sync path (``invoke``)
still uses the sync implementations.
"""

from __future__ import annotations

import asyncio
import itertools
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any

import pytest
from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatResult
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.runtime import Runtime

from bench.models import independent_search_plan
from checkpoints import open_async_checkpointer, open_checkpointer
from confidence.model_log import ModelLog
from grace.context import GraceContext
from grace.schemas import PlanStep, StepResult, StepStatus, ToolResult
from grace.services import Services, build_services
from grace.settings import GraceSettings, get_settings
from grace.state import StepTask
from grace.storage.serde import use_grace_serializer
from grace.tools import ToolCall, ToolEnv, ToolRegistry
from graph.builder import Node, make_builder, make_graph
from nodes.confidence import aconfidence, confidence
from nodes.execute import TransientToolError, aexecute, arun_step, execute, step_failed
from nodes.finalize import afinalize, finalize
from nodes.intervene import aintervene, intervene
from nodes.plan import aplan, plan
from nodes.replan import areplan, replan
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
SIMPLE = "When did the horse tram line open in Lumen Bay?"
VERDICT = {"self_evaluation": 0.95, "query_coverage": 0.9, "rationale": "supported"}
LATENCY = 0.15


class AsyncOnlyModel(ScriptedChatModel):
    """A scripted model whose sync call raises: only ``ainvoke`` may call it."""

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        raise AssertionError("sync model call under ainvoke")

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        assert not self.script.latency, "scripted latency would sleep in the event loop"
        return ScriptedChatModel._generate(self, messages)


@dataclass
class AsyncOnlyTool:
    """A registered tool whose ``run`` raises; ``arun`` records its thread and delays."""

    inner: Any
    latency: float = 0.0
    threads: list[int] = field(default_factory=list)
    hang: bool = False

    @property
    def name(self) -> str:
        return str(self.inner.name)

    @property
    def description(self) -> str:
        return str(self.inner.description)

    @property
    def role(self) -> str:
        return str(self.inner.role)

    @property
    def signals(self) -> tuple[str, ...]:
        return tuple(self.inner.signals)

    def runs_inline(self, env: ToolEnv) -> bool:
        return False

    def run(self, call: ToolCall, env: ToolEnv) -> ToolResult:
        raise AssertionError(f"sync {self.name}.run under ainvoke")

    async def arun(self, call: ToolCall, env: ToolEnv) -> ToolResult:
        self.threads.append(threading.get_ident())
        if self.hang:
            await asyncio.sleep(3600)
        if self.latency:
            await asyncio.sleep(self.latency)
        result: ToolResult = await self.inner.arun(call, env)
        return result


def _async_only(
    offline_services: Any, model: ScriptedChatModel, *, latency: float = 0.0, **settings: Any
) -> tuple[Services, dict[str, AsyncOnlyTool]]:
    config = GraceSettings(
        data_dir=offline_services.settings.data_dir, provider="offline", **settings
    )
    services = build_services(config, chat_model=model, store=offline_services.store)
    tools = {
        n: AsyncOnlyTool(services.tools.get(n), latency=latency if n == "rag_search" else 0.0)
        for n in services.tools.names()
    }
    return replace(services, tools=ToolRegistry(list(tools.values()))), tools


def _cfg(thread: str) -> Any:
    return {"configurable": {"thread_id": thread}}


def test_every_node_has_a_sync_and_an_async_implementation() -> None:
    expected = {
        "plan": (plan, aplan),
        "execute": (execute, aexecute),
        "intervene": (intervene, aintervene),
        "replan": (replan, areplan),
        "finalize": (finalize, afinalize),
        "confidence": (confidence, aconfidence),
    }
    for name, (func, afunc) in expected.items():
        runnable = make_builder().nodes[name].runnable
        assert isinstance(runnable, Node), name
        # ``invoke`` calls exactly this sync function, ``ainvoke`` this async one.
        assert (runnable.func, runnable.afunc) == (func, afunc), name


async def test_ainvoke_never_calls_a_sync_tool_or_model(offline_services: Any) -> None:
    model = AsyncOnlyModel.of(
        plans=[independent_search_plan(QUERIES, QUESTION)],
        answers=["The line opened in 1874 [S1]."],
        verdicts=[VERDICT],
    )
    services, tools = _async_only(offline_services, model)
    app = make_graph(services=services, checkpointer=use_grace_serializer(InMemorySaver()))
    out = await app.ainvoke({"query": QUESTION}, _cfg("async-only"))
    assert out["answer"]
    assert model.count("PlanDraft") == 1 and model.count("AnswerVerdict") == 1
    loop_thread = threading.get_ident()
    used = [t for tool in tools.values() for t in tool.threads]
    assert len(used) == len(QUERIES) + 1  # four searches and the answer
    assert set(used) == {loop_thread}  # awaited on the event loop, not in a worker thread


def test_invoke_still_uses_the_sync_implementations(offline_services: Any) -> None:
    services, _ = _async_only(offline_services, ScriptedChatModel.of())
    app = make_graph(services=services, checkpointer=use_grace_serializer(InMemorySaver()))
    out = app.invoke({"query": SIMPLE}, _cfg("sync-path"))
    # The tools' sync ``run`` raised: both steps failed (the answer step's fallback is
    # ``ask_user``, whose ``run`` raises too), so the run asks the person.
    values = app.get_state(_cfg("sync-path")).values
    assert values["results"]["s1"].status == StepStatus.FAILED
    assert "sync rag_search.run under ainvoke" in (values["results"]["s1"].error or "")
    assert "__interrupt__" in out  # no step succeeded: the run asks the person


def _check_overlap(results: dict[str, StepResult], limit: int | None = None) -> None:
    searches = [results[f"s{i}"] for i in range(1, len(QUERIES) + 1)]
    assert all(r.status == StepStatus.SUCCESS for r in searches)
    for r in searches:
        assert r.started_at is not None and r.finished_at is not None
        assert r.finished_at - r.started_at >= LATENCY * 0.9
    if limit is None:
        for a, b in itertools.combinations(searches, 2):
            assert a.started_at < b.finished_at and b.started_at < a.finished_at, (a, b)
        assert max(r.started_at for r in searches) < min(r.finished_at for r in searches)
    else:
        for r in searches:
            in_flight = sum(1 for o in searches if o.started_at <= r.started_at < o.finished_at)
            assert in_flight <= limit
        assert max(r.started_at for r in searches) >= min(r.finished_at for r in searches)
    answer = results[f"s{len(QUERIES) + 1}"]
    assert answer.started_at is not None
    assert answer.started_at >= max(r.finished_at for r in searches)


@pytest.mark.parametrize("limit", [None, 2])
async def test_async_searches_overlap_within_max_parallel_steps(
    offline_services: Any, limit: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = AsyncOnlyModel.of(
        plans=[independent_search_plan(QUERIES, QUESTION)],
        answers=["The line opened in 1874 [S1]."],
        verdicts=[VERDICT],
    )
    run = {"max_parallel_steps": limit} if limit else {}
    services, _ = _async_only(offline_services, model, latency=LATENCY, run=run)
    if limit:  # the compiled graph's max_concurrency, from the settings at compile()
        monkeypatch.setenv("GRACE_RUN__MAX_PARALLEL_STEPS", str(limit))
    get_settings.cache_clear()
    try:
        app = make_graph(services=services, checkpointer=use_grace_serializer(InMemorySaver()))
    finally:
        get_settings.cache_clear()
    await app.ainvoke({"query": QUESTION}, _cfg(f"async-overlap-{limit}"))
    values = (await app.aget_state(_cfg(f"async-overlap-{limit}"))).values
    _check_overlap(values["results"], limit)


async def test_call_budget_holds_with_async_model_calls(offline_services: Any) -> None:
    model = AsyncOnlyModel.of(answers=["It is stated in [S1]."], verdicts=[VERDICT])
    services, _ = _async_only(offline_services, model)
    app = make_graph(services=services, checkpointer=use_grace_serializer(InMemorySaver()))
    await app.ainvoke({"query": SIMPLE}, _cfg("async-budget"))
    usage = (await app.aget_state(_cfg("async-budget"))).values["usage"]
    assert model.count("PlanDraft") == 0 and model.count("text") == 1
    assert model.count("AnswerVerdict") == 1
    assert len(model.calls) <= 3 and usage.model_calls == len(model.calls)


async def test_a_hung_async_tool_times_out_and_runs_its_fallback(offline_services: Any) -> None:
    services, tools = _async_only(offline_services, ScriptedChatModel.of())
    tools["rag_search"].hang = True
    env = services.tool_env(GraceContext())
    step = PlanStep(
        step_id="s1",
        action="rag_search",
        query="horse tram",
        timeout_seconds=0.1,
        fallback="rag_search",
    )
    # The tool hangs for an hour: were it waited on, the generous outer limit would raise
    # TimeoutError instead of the step's own timeout.
    with pytest.raises(TransientToolError, match="timed out after 0.1s") as failed:
        await asyncio.wait_for(
            arun_step(services, step, ToolCall(step=step), env, default_timeout=60.0), 60.0
        )
    # The step's error handler (after the last retry) records it and runs the fallback; this
    # tool's sync ``run`` (the handler's) raises, so the fallback fails too, at once.
    task = StepTask(step=step)
    update = step_failed(task, failed.value, Runtime(context=GraceContext()), services, ModelLog())
    result = update["results"]["s1"]
    assert result.status == StepStatus.FAILED and result.used_fallback


async def test_a_transient_failure_is_retried_under_ainvoke_keeping_finished_steps(
    offline_services: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = AsyncOnlyModel.of(
        plans=[independent_search_plan(QUERIES[:2], QUESTION)],
        answers=["The line opened in 1874 [S1]."],
        verdicts=[VERDICT],
    )
    services, tools = _async_only(offline_services, model)
    search = tools["rag_search"]
    seen: list[str] = []
    real = search.inner

    class Flaky:
        name, description = real.name, real.description
        role, signals = real.role, real.signals

        def runs_inline(self, env: ToolEnv) -> bool:
            return False

        def run(self, call: ToolCall, env: ToolEnv) -> ToolResult:
            raise AssertionError("sync run under ainvoke")

        async def arun(self, call: ToolCall, env: ToolEnv) -> ToolResult:
            seen.append(call.step.query)
            if "Lighthouse" in call.step.query and seen.count(call.step.query) == 1:
                raise ConnectionError("reset")
            result: ToolResult = await real.arun(call, env)
            return result

    services = replace(
        services,
        tools=ToolRegistry([Flaky(), *(t for n, t in tools.items() if n != "rag_search")]),
    )
    monkeypatch.setenv("GRACE_RUN__RETRY_INITIAL_INTERVAL", "0.01")
    get_settings.cache_clear()
    try:  # the RetryPolicy reads the settings when the graph is made
        app = make_graph(services=services, checkpointer=use_grace_serializer(InMemorySaver()))
    finally:
        get_settings.cache_clear()
    out = await app.ainvoke({"query": QUESTION}, _cfg("async-retry"))
    values = (await app.aget_state(_cfg("async-retry"))).values
    assert seen.count(QUERIES[0]) == 1 and seen.count(QUERIES[1]) == 2, seen
    assert values["results"]["s1"].status == StepStatus.SUCCESS
    assert values["results"]["s2"].status == StepStatus.SUCCESS
    assert out["answer"] and values["replans"] == []


def test_sqlite_checkpointer_runs_wal_with_synchronous_normal(tmp_path: Any) -> None:
    with open_checkpointer("sqlite", sqlite_path=tmp_path / "cp.sqlite") as saver:
        conn = saver.conn  # type: ignore[attr-defined]
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL


async def test_async_sqlite_checkpointer_runs_wal_with_synchronous_normal(tmp_path: Any) -> None:
    async with open_async_checkpointer("sqlite", sqlite_path=tmp_path / "cp.sqlite") as saver:
        conn = saver.conn  # type: ignore[attr-defined]
        assert (await (await conn.execute("PRAGMA journal_mode")).fetchone())[0] == "wal"
        assert (await (await conn.execute("PRAGMA synchronous")).fetchone())[0] == 1


def test_embedded_store_writes_survive_reopening(tmp_path: Any) -> None:
    from grace.retrieval import StoreOptions, open_store

    texts = [f"The horse tram line number {i} opened in 1874." for i in range(20)]
    ids = [f"00000000-0000-0000-0000-{i:012d}" for i in range(20)]
    metas = [{"source": "trams.md", "title": "Trams", "chunk_index": i} for i in range(20)]
    with open_store("edge", StoreOptions(path=tmp_path / "q")) as store:
        store.add_chunks("c", texts, metas, ids)
        store.delete_points("c", ids[:5])
    with open_store("edge", StoreOptions(path=tmp_path / "q")) as store:
        assert store.count("c") == 15
        assert store.search("horse tram", collection="c").hits


def test_a_hung_sync_tool_never_blocks_another_call(offline_services: Any) -> None:
    """A tool hung past its timeout keeps only its own daemon thread; the next call runs."""
    from nodes.execute import run_step

    release = threading.Event()
    inner = offline_services.store
    waiting: list[int] = []

    class Hanging:
        searches_in_process = False  # may wait on the network: runs in a thread

        def search(self, *args: Any, **kwargs: Any) -> Any:
            waiting.append(1)
            release.wait(60.0)
            waiting.pop()
            return inner.search(*args, **kwargs)

        def __getattr__(self, name: str) -> Any:
            return getattr(inner, name)

    env = replace(offline_services.tool_env(GraceContext()), store=Hanging())
    step = PlanStep(step_id="s1", action="rag_search", query="horse tram", timeout_seconds=0.1)
    try:
        with pytest.raises(TransientToolError, match="timed out after 0.1s"):
            run_step(offline_services, step, ToolCall(step=step), env, default_timeout=60.0)
        fine_env = offline_services.tool_env(GraceContext())
        fine = run_step(offline_services, step, ToolCall(step=step), fine_env, default_timeout=60.0)
        assert fine.status == StepStatus.SUCCESS
        assert waiting == [1]  # the hung call still waits: abandoned, not awaited
    finally:
        release.set()


def test_an_in_process_search_runs_in_the_callers_thread(offline_services: Any) -> None:
    from nodes.execute import run_step

    seen: list[int] = []
    inner = offline_services.store

    class Watched:
        searches_in_process = True

        def search(self, *args: Any, **kwargs: Any) -> Any:
            seen.append(threading.get_ident())
            return inner.search(*args, **kwargs)

        def __getattr__(self, name: str) -> Any:
            return getattr(inner, name)

    assert offline_services.store.searches_in_process  # local, no dense embeddings
    env = replace(offline_services.tool_env(GraceContext()), store=Watched())
    step = PlanStep(step_id="s1", action="rag_search", query="horse tram")
    result = run_step(offline_services, step, ToolCall(step=step), env, default_timeout=60.0)
    assert result.status == StepStatus.SUCCESS and result.sources
    assert seen == [threading.get_ident()]  # no thread hand-off


def test_an_in_process_search_over_its_timeout_still_times_out(offline_services: Any) -> None:
    from nodes.execute import run_step

    inner = offline_services.store

    class Slow:
        searches_in_process = True

        def search(self, *args: Any, **kwargs: Any) -> Any:
            time.sleep(0.15)
            return inner.search(*args, **kwargs)

        def __getattr__(self, name: str) -> Any:
            return getattr(inner, name)

    env = replace(offline_services.tool_env(GraceContext()), store=Slow())
    step = PlanStep(step_id="s1", action="rag_search", query="horse tram", timeout_seconds=0.1)
    with pytest.raises(TransientToolError, match="timed out after 0.1s") as failed:
        run_step(offline_services, step, ToolCall(step=step), env, default_timeout=60.0)
    assert not failed.value.result.success and not failed.value.result.sources


def test_a_search_that_may_wait_on_the_network_runs_off_thread(offline_services: Any) -> None:
    from bench.models import LatentStore
    from nodes.execute import run_step

    seen: list[int] = []
    inner = offline_services.store

    class Remote:
        searches_in_process = False

        def search(self, *args: Any, **kwargs: Any) -> Any:
            seen.append(threading.get_ident())
            return inner.search(*args, **kwargs)

        def __getattr__(self, name: str) -> Any:
            return getattr(inner, name)

    assert not LatentStore(inner, 0.1).searches_in_process  # stands in for a remote backend
    env = replace(offline_services.tool_env(GraceContext()), store=Remote())
    step = PlanStep(step_id="s1", action="rag_search", query="horse tram")
    result = run_step(offline_services, step, ToolCall(step=step), env, default_timeout=60.0)
    assert result.status == StepStatus.SUCCESS
    assert seen and seen[0] != threading.get_ident()


def test_the_offline_reader_runs_in_the_callers_thread_a_model_reader_does_not(
    offline_services: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from grace.providers.offline.reader import ExtractiveReader
    from nodes.execute import run_step

    seen: list[int] = []
    answer = ExtractiveReader.answer

    def watched(self: ExtractiveReader, *args: Any, **kwargs: Any) -> Any:
        seen.append(threading.get_ident())
        return answer(self, *args, **kwargs)

    monkeypatch.setattr(ExtractiveReader, "answer", watched)
    env = offline_services.tool_env(GraceContext())
    search = PlanStep(step_id="s1", action="rag_search", query="horse tram line opened")
    found = run_step(offline_services, search, ToolCall(step=search), env, default_timeout=60.0)
    step = PlanStep(
        step_id="s2", action="reasoning", query="When did the horse tram open?", depends_on=["s1"]
    )
    call = ToolCall(step=step, dependencies=[found])
    result = run_step(offline_services, step, call, env, default_timeout=60.0)
    assert result.status != StepStatus.FAILED
    assert seen == [threading.get_ident()]

    from grace.providers.llm.reader import LLMReader

    model_env = replace(env, reader=LLMReader(ScriptedChatModel.of(answers=["[S1]"])))
    assert not offline_services.tools.get("reasoning").runs_inline(model_env)

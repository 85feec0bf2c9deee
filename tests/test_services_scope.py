"""Services belong to the graph they were given to: no ``ContextVar``, no process default.

Two graphs in one process with different services — run at the same time from two threads,
or as two tasks on one event loop — each see their own. A graph given none owns services
built on its first run (once, in a worker thread under ``ainvoke``), not shared with another
graph and closed with it.
"""

from __future__ import annotations

import asyncio
import importlib
import threading
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from langgraph.checkpoint.memory import InMemorySaver

import grace.services as services_module
from confidence.model_log import ModelLog
from grace.providers.base import ReaderAnswer
from grace.providers.offline import ExtractiveReader
from grace.schemas import Source
from grace.services import LazyServices, Services
from graph.builder import make_builder, make_graph

QUESTION = "When did the horse tram line open in Lumen Bay?"
OTHER = "霧ヶ丘で最初の器械製糸工場を開いた実業家は誰か。"
"""A question the offline engine answers without a pause (the level is the model's call: with
the refitted model 「霧ヶ丘の祭りはいつ？」 pauses at CONFIRM, and a graph without a checkpointer
then returns no answer)."""


def _cfg(thread: str) -> Any:
    return {"configurable": {"thread_id": thread}}


class MeetingReader(ExtractiveReader):
    """The offline reader; waits at ``barrier`` so that two runs are inside it at once."""

    def __init__(self, barrier: threading.Barrier) -> None:
        super().__init__()
        self.barrier = barrier
        self.questions: list[str] = []

    def answer(
        self,
        question: str,
        passages: Sequence[Source],
        *,
        feedback: str | None = None,
        log: ModelLog | None = None,
    ) -> ReaderAnswer:
        self.questions.append(question)
        if len(self.questions) == 1:  # the first answer of each run: both runs are here
            self.barrier.wait(timeout=30)
        return super().answer(question, passages, feedback=feedback, log=log)


def test_two_graphs_in_two_threads_at_once_each_use_their_own(offline_services: Any) -> None:
    both_inside = threading.Barrier(2)
    mine, theirs = MeetingReader(both_inside), MeetingReader(both_inside)
    graphs = {
        "mine": make_graph(services=replace(offline_services, reader=mine), checkpointer=None),
        "theirs": make_graph(services=replace(offline_services, reader=theirs), checkpointer=None),
    }
    questions = {"mine": QUESTION, "theirs": OTHER}
    answers: dict[str, Any] = {}

    def run(name: str) -> None:
        answers[name] = graphs[name].invoke({"query": questions[name]})

    workers = [threading.Thread(target=run, args=(name,)) for name in graphs]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=60)
    assert set(answers) == {"mine", "theirs"}  # both met at the barrier: they overlapped
    assert mine.questions and set(mine.questions) == {questions["mine"]}
    assert theirs.questions and set(theirs.questions) == {questions["theirs"]}


class TaskReader(ExtractiveReader):
    """The offline reader; records the questions it is awaited with, yielding once."""

    def __init__(self) -> None:
        super().__init__()
        self.questions: list[str] = []

    async def aanswer(
        self,
        question: str,
        passages: Sequence[Source],
        *,
        feedback: str | None = None,
        log: ModelLog | None = None,
    ) -> ReaderAnswer:
        self.questions.append(question)
        await asyncio.sleep(0.01)  # the other task runs meanwhile
        return await super().aanswer(question, passages, feedback=feedback, log=log)


async def test_two_graphs_as_two_tasks_each_use_their_own(offline_services: Any) -> None:
    mine, theirs = TaskReader(), TaskReader()
    first = make_graph(services=replace(offline_services, reader=mine))
    second = make_graph(services=replace(offline_services, reader=theirs))
    other = OTHER
    a, b = await asyncio.gather(
        first.ainvoke({"query": QUESTION}), second.ainvoke({"query": other})
    )
    assert a["answer"] and b["answer"]
    assert set(mine.questions) == {QUESTION} and set(theirs.questions) == {other}


def test_the_services_module_keeps_no_services_of_its_own() -> None:
    for name in ("use_services", "get_services", "ready_services", "close_default_services"):
        assert not hasattr(services_module, name), name
    held = [
        name
        for name, value in vars(services_module).items()
        if isinstance(value, Services | LazyServices) or type(value).__name__ == "ContextVar"
    ]
    assert held == []


def test_no_module_of_grace_holds_a_context_variable() -> None:
    """Nothing reaches a node's code ambiently: a step's model log and the run's model time
    are passed down as ``log`` (``confidence.model_log.ModelLog``), not set in a
    ``ContextVar`` the model-calling code reads."""
    import contextvars
    import importlib
    import pkgutil

    held = []
    for package in ("checkpoints", "confidence", "grace", "nodes", "graph"):
        root = importlib.import_module(package)
        for info in pkgutil.walk_packages(root.__path__, prefix=f"{package}."):
            module = importlib.import_module(info.name)
            held += [
                f"{info.name}.{name}"
                for name, value in vars(module).items()
                if isinstance(value, contextvars.ContextVar)
            ]
    assert held == []


class Counted:
    """A ``LazyServices`` build function: the given services, counting its calls and threads."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.threads: list[int] = []

    def __call__(self) -> Services:
        self.threads.append(threading.get_ident())
        # a copy sharing the session's store, with a store close that only counts
        return replace(self.services, store=_Unclosed(self.services.store))


class _Unclosed:
    """The session's store, whose ``close`` is counted instead of done."""

    def __init__(self, store: Any) -> None:
        self._store = store
        self.closed = 0

    def close(self) -> None:
        self.closed += 1

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


def test_a_graph_without_services_builds_its_own_once_on_its_first_run(
    offline_services: Any,
) -> None:
    built_a, built_b = Counted(offline_services), Counted(offline_services)
    a, b = LazyServices(built_a), LazyServices(built_b)
    graph_a = make_builder(services=a).compile(checkpointer=InMemorySaver())
    graph_b = make_builder(services=b).compile(checkpointer=InMemorySaver())
    assert a.ready() is None and b.ready() is None  # compiling built nothing
    graph_a.invoke({"query": QUESTION}, _cfg("lazy-1"))
    graph_a.invoke({"query": QUESTION}, _cfg("lazy-2"))
    assert len(built_a.threads) == 1 and built_b.threads == []  # once; not the other graph's
    assert graph_b.get_state(_cfg("lazy-1")).values == {}  # b's run state is its own too
    services = a.ready()
    assert services is not None
    a.close()
    assert services.store.closed == 1 and a.ready() is None  # type: ignore[attr-defined]
    a.close()  # closing twice closes once
    assert services.store.closed == 1  # type: ignore[attr-defined]


async def test_under_ainvoke_the_graphs_services_are_built_in_a_worker_thread(
    offline_services: Any,
) -> None:
    built = Counted(offline_services)
    graph = make_graph(services=LazyServices(built))
    loop_thread = threading.get_ident()
    out = await graph.ainvoke({"query": QUESTION})
    assert out["answer"]
    assert len(built.threads) == 1 and built.threads[0] != loop_thread  # the loop never blocked


def test_concurrent_first_runs_build_the_services_once(offline_services: Any) -> None:
    built = Counted(offline_services)
    lazy = LazyServices(built)
    start = threading.Barrier(4)

    def first_use() -> None:
        start.wait(timeout=30)
        lazy.get()

    workers = [threading.Thread(target=first_use) for _ in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=30)
    assert len(built.threads) == 1


def test_the_module_level_graphs_own_services_that_nobody_else_shares() -> None:
    module = importlib.import_module("graph.builder")  # the module, not the package's export

    builder, compiled = module.builder, module.graph  # made on first access
    assert module.builder is builder and module.graph is compiled  # then kept
    sources = [builder.services, compiled.builder.services]
    assert all(isinstance(s, LazyServices) for s in sources)
    assert sources[0] is not sources[1]  # the compiled graph's are not the builder's
    assert make_builder().services is not sources[0]  # nor a new builder's

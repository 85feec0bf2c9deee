"""The five GRACE benchmarks (issue 5). Each function returns a JSON-ready dict.

All runs are offline: the model-backed (Gemini) code path is driven by
:func:`bench.models.bench_model` (the tests' scripted model with a configurable latency) and
retrieval uses the embedded Qdrant over the bundled sample corpus. Decision thresholds are
the product defaults; with the double's verdicts these runs finish SILENT without pausing.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import operator
import resource
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Annotated, Any, TypedDict

from langchain_core.callbacks import BaseCallbackHandler
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph

from bench.models import LatentStore, bench_model, independent_search_plan
from checkpoints import open_async_checkpointer, open_checkpointer
from grace.data import sample_dir
from grace.services import Services, build_services
from grace.settings import GraceSettings
from grace.storage.serde import use_grace_serializer
from graph.builder import GraceStateGraph, Node, make_builder, make_graph
from tests.fakes import ScriptedChatModel

__all__ = [
    "COMPLEX",
    "SIMPLE",
    "Env",
    "NodeReplay",
    "bare_graph",
    "bench_env",
    "concurrency",
    "overhead",
    "parallel",
    "peak_rss_mib",
    "retrieval_ingest",
    "retrieval_queries",
    "retrieval_verdict",
]

SIMPLE = "When did the horse tram line open in Lumen Bay?"
"""A simple question: template plan (search → answer), the planner call is skipped."""
PARALLEL_QUERIES = [
    "horse tram line opened",
    "Wren Point Lighthouse designer",
    "lantern festival date",
    "university founded",
]
COMPLEX = (
    "When did the horse tram line open, who designed the Wren Point Lighthouse, when is the "
    "lantern festival held and when was the university founded?"
)
"""A compound question: the planner is called and returns four independent searches."""


def peak_rss_mib() -> float:
    """Peak resident set size of this process so far, in MiB (Linux reports KiB)."""
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024


@dataclass
class Env:
    """A private data directory with the sample corpus ingested."""

    dir: Path
    """Temporary directory (Qdrant files, checkpoint databases)."""
    base: Services
    """Offline services owning the document store."""

    def services(self, model: ScriptedChatModel, *, search_latency: float = 0.0) -> Services:
        """Model-backed services over the shared store (with optional search latency)."""
        store = self.base.store
        if search_latency:
            store = LatentStore.wrap(store, search_latency)
        return build_services(self.base.settings, chat_model=model, store=store)

    @contextlib.contextmanager
    def sqlite_saver(self, name: str) -> Iterator[BaseCheckpointSaver[str]]:
        """A ``SqliteSaver`` over a fresh file, opened as GRACE's default opens it."""
        with open_checkpointer("sqlite", sqlite_path=self.dir / f"{name}.sqlite") as saver:
            yield use_grace_serializer(saver)


@contextlib.contextmanager
def bench_env() -> Iterator[Env]:
    """Build the offline store over the sample corpus in a temporary directory."""
    with tempfile.TemporaryDirectory(prefix="grace-bench-") as tmp:
        settings = GraceSettings(data_dir=Path(tmp), provider="offline")
        base = build_services(settings)
        try:
            yield Env(dir=Path(tmp), base=base)
        finally:
            base.close()


def _cfg(thread_id: str) -> Any:
    return {"configurable": {"thread_id": thread_id}}


# ---------------------------------------------------------------- 1. orchestration overhead


class BareState(TypedDict):
    """State of the bare graph: one counter."""

    n: Annotated[int, operator.add]


def _chain(steps: list[Any], checkpointer: Any) -> Any:
    """A LangGraph chain of ``steps`` (node functions, in order), compiled on ``checkpointer``."""
    b: StateGraph[BareState, None, BareState, BareState] = StateGraph(BareState)
    names = [f"n{i}" for i in range(len(steps))]
    for name, step in zip(names, steps, strict=True):
        b.add_node(name, step)
    b.add_edge(START, names[0])
    for a, c in zip(names, names[1:], strict=False):
        b.add_edge(a, c)
    b.add_edge(names[-1], END)
    return b.compile(checkpointer=checkpointer)


def bare_graph(nodes: int, checkpointer: BaseCheckpointSaver[str]) -> Any:
    """A LangGraph chain of ``nodes`` trivial nodes (each adds 1), same checkpointer."""

    def step(state: BareState) -> dict[str, int]:
        return {"n": 1}

    return _chain([step] * nodes, checkpointer)


def _time_runs(run: Any, runs: int, warmup: int) -> list[float]:
    for _ in range(warmup):
        run()
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        run()
        out.append((time.perf_counter() - t0) * 1000)
    return out


class NodeTaskTimer(BaseCallbackHandler):
    """Wall time of a graph run spent inside its node tasks (the graph run's direct children).

    Given as a run's callback: the time between each node task's start and end (the node
    and its channel writes) is summed into ``task_s``; the rest of the run is LangGraph's
    own stepping, checkpointing and routing.
    """

    def __init__(self) -> None:
        """Start with no run seen."""
        self.root: Any = None
        self.started: dict[Any, float] = {}
        self.task_s = 0.0

    def on_chain_start(
        self, serialized: Any, inputs: Any, *, run_id: Any, parent_run_id: Any = None, **kw: Any
    ) -> None:
        """Note the graph run, and the start of each of its node tasks."""
        if parent_run_id is None:
            self.root = run_id
        elif parent_run_id == self.root:
            self.started[run_id] = time.perf_counter()

    def on_chain_end(self, outputs: Any, *, run_id: Any, **kw: Any) -> None:
        """Add a finished node task's time."""
        if (t0 := self.started.pop(run_id, None)) is not None:
            self.task_s += time.perf_counter() - t0

    on_chain_error = on_chain_end  # an interrupted or failed task counts as well


def _split(app: Any, payload: dict[str, Any], runs: int) -> dict[str, float]:
    """Median ms per run inside node tasks and outside them (a traced pass, not the timed one)."""
    inside: list[float] = []
    outside: list[float] = []
    for _ in range(runs):
        timer = NodeTaskTimer()
        config = {**_cfg(uuid.uuid4().hex), "callbacks": [timer]}
        t0 = time.perf_counter()
        app.invoke(payload, config)
        total = time.perf_counter() - t0
        inside.append(timer.task_s * 1000)
        outside.append((total - timer.task_s) * 1000)
    return {"in_nodes_ms": statistics.median(inside), "outside_ms": statistics.median(outside)}


class NodeReplay:
    """GRACE's node bodies swapped for the updates of one recorded run: orchestration alone.

    :meth:`install` wraps the body of each of a builder's :class:`~graph.builder.Node`
    nodes. While ``recording``, a body runs and its update is kept, per node in call order;
    afterwards each run (after :meth:`rewind`) gets the same updates back without running
    the body. Such a run still costs LangGraph's stepping, GRACE's channels, routes, ``Send``
    and node wrappers (model log, notes) and its checkpoints, and none of the nodes' own work
    (search, model calls through LangChain, scoring).
    """

    def __init__(self) -> None:
        """Start recording, with nothing recorded."""
        self.recording = True
        self.updates: dict[str, list[dict[str, Any]]] = {}
        self.calls: dict[str, int] = {}

    def install(self, builder: GraceStateGraph) -> None:
        """Wrap the body of every GRACE node of ``builder`` (before it is compiled)."""
        for name, spec in builder.nodes.items():
            if isinstance(spec.runnable, Node):
                spec.runnable.func = self._body(name, spec.runnable.func)

    def rewind(self) -> None:
        """Start a run: each node replays its first recorded update again."""
        self.calls.clear()

    def _body(self, name: str, func: Any) -> Any:
        def body(state: Any, runtime: Any, services: Any, log: Any) -> dict[str, Any]:
            i = self.calls.get(name, 0)
            self.calls[name] = i + 1
            if self.recording:
                update: dict[str, Any] = func(state, runtime, services, log)
                self.updates.setdefault(name, []).append(update)
                return update
            return self.updates[name][i]

        return body


def _ask(app: Any) -> None:
    """One GRACE run of the simple question on a new thread; an error if it gives no answer."""
    result = app.invoke({"query": SIMPLE}, _cfg(uuid.uuid4().hex))
    if not result.get("answer"):
        raise RuntimeError(f"GRACE run did not finish: {result}")


def _replayed_graph(services: Services, saver: BaseCheckpointSaver[str]) -> Any:
    """A GRACE graph whose node bodies replay one recorded run (a function of no arguments)."""
    replay = NodeReplay()
    builder = make_builder(services=services)
    replay.install(builder)
    app = builder.compile(checkpointer=saver)
    _ask(app)
    replay.recording = False

    def run() -> None:
        replay.rewind()
        _ask(app)

    return run


def _overhead_runs(
    services: Services, saver: BaseCheckpointSaver[str], runs: int, warmup: int
) -> tuple[dict[str, list[float]], int]:
    """Per-run ms of GRACE, of GRACE replayed and of the bare chain on ``saver``; node count."""
    app = make_graph(services=services, checkpointer=saver)
    chunks = list(app.stream({"query": SIMPLE}, _cfg(uuid.uuid4().hex), stream_mode="updates"))
    nodes = sum(1 for c in chunks if "__interrupt__" not in c)
    bare = bare_graph(nodes, saver)

    def bare_run() -> None:
        bare.invoke({"n": 0}, _cfg(uuid.uuid4().hex))

    runners = {
        "grace": partial(_ask, app),
        "replayed": _replayed_graph(services, saver),
        "bare": bare_run,
    }
    for _ in range(warmup):
        for run in runners.values():
            run()
    # Interleave so that drift (disk cache, CPU frequency, other load) hits all equally.
    ms: dict[str, list[float]] = {name: [] for name in runners}
    for _ in range(runs):
        for name, run in runners.items():
            ms[name] += _time_runs(run, 1, 0)
    return ms, nodes


def _overhead_split(services: Services, saver: BaseCheckpointSaver[str], runs: int) -> Any:
    """Where a run's time goes, GRACE and bare: inside node tasks, and LangGraph's own rest."""
    app = make_graph(services=services, checkpointer=saver)
    bare = bare_graph(6, saver)
    return {
        "grace": _split(app, {"query": SIMPLE}, runs),
        "bare": _split(bare, {"n": 0}, runs),
        "note": "traced pass (callbacks on): each figure includes the tracing's own cost",
    }


def overhead(env: Env, runs: int = 30, warmup: int = 3) -> dict[str, Any]:
    """A full GRACE run (zero-latency models) vs a bare graph with as many node executions.

    The headline uses ``SqliteSaver`` (GRACE's default backend, WAL journal) for both; the
    same pair on ``InMemorySaver`` is reported too, to separate CPU from disk syncs.
    ``orchestration`` is the same GRACE graph with its node bodies replaying one recorded
    run (:class:`NodeReplay`): the part of the ratio that is not the nodes' own work.
    """
    model = bench_model()
    services = env.services(model)
    with env.sqlite_saver("overhead") as saver:
        ms, nodes = _overhead_runs(services, saver, runs, warmup)
        calls_per_run = model.count() / (1 + warmup + runs)
        split = _overhead_split(services, saver, runs)
    memory = use_grace_serializer(InMemorySaver())
    mem, _ = _overhead_runs(services, memory, runs, warmup)
    g, r, b = (statistics.median(ms[k]) for k in ("grace", "replayed", "bare"))
    mg, mr, mb = (statistics.median(mem[k]) for k in ("grace", "replayed", "bare"))
    return {
        "node_executions": nodes,
        "model_calls_per_run": calls_per_run,
        "runs": runs,
        "checkpointer": "SqliteSaver",
        "grace_ms_per_run": g,
        "bare_ms_per_run": b,
        "grace_ms_p95": _percentile(ms["grace"], 0.95),
        "bare_ms_p95": _percentile(ms["bare"], 0.95),
        "ratio": g / b,
        "orchestration": {
            "replayed_ms_per_run": r,
            "ratio": r / b,
            "node_work_ms_per_run": g - r,
            "note": "node bodies replay one recorded run's updates (bench.scenarios.NodeReplay)",
        },
        "memory_saver": {
            "grace_ms_per_run": mg,
            "bare_ms_per_run": mb,
            "ratio": mg / mb,
            "orchestration_ratio": mr / mb,
        },
        "split": split,
        "goal": "ratio <= 1.3",
        "met": g / b <= 1.3,
    }


# ---------------------------------------------------------------- 2. parallel steps


def _parallel_figures(values: dict[str, Any], wall: float, latency: float) -> dict[str, float]:
    results = [values["results"][f"s{i}"] for i in range(1, len(PARALLEL_QUERIES) + 1)]
    span = max(r.finished_at for r in results) - min(r.started_at for r in results)
    return {"wall_s": wall, "search_batch_s": span, "wall_over_latency": wall / latency}


def parallel(env: Env, latency: float = 0.2, repeats: int = 3) -> dict[str, Any]:
    """Time a plan of 4 independent ``rag_search`` steps of ``latency`` s each + an answer."""
    plan = independent_search_plan(PARALLEL_QUERIES, COMPLEX)
    model = bench_model(plan=plan)
    services = env.services(model, search_latency=latency)
    sync_runs: list[dict[str, float]] = []
    with env.sqlite_saver("parallel") as saver:
        app = make_graph(services=services, checkpointer=saver)
        for _ in range(repeats):
            tid = uuid.uuid4().hex
            t0 = time.perf_counter()
            app.invoke({"query": COMPLEX}, _cfg(tid))
            wall = time.perf_counter() - t0
            sync_runs.append(_parallel_figures(app.get_state(_cfg(tid)).values, wall, latency))
        async_runs = asyncio.run(_parallel_async(env, services, latency, repeats))
    best = min(sync_runs, key=lambda r: r["wall_s"])
    median_ratio = statistics.median(r["wall_over_latency"] for r in sync_runs)
    return {
        "k": len(PARALLEL_QUERIES),
        "latency_s": latency,
        "plan": "4 independent rag_search + 1 reasoning step (zero-latency model)",
        "wall_over_latency": median_ratio,
        "wall_s": statistics.median(r["wall_s"] for r in sync_runs),
        "search_batch_over_latency": statistics.median(
            r["search_batch_s"] / latency for r in sync_runs
        ),
        "best_wall_s": best["wall_s"],
        "async_wall_over_latency": statistics.median(r["wall_over_latency"] for r in async_runs),
        "serial_would_be": float(len(PARALLEL_QUERIES)),
        "goal": "wall / latency <= 1.2",
        "met": median_ratio <= 1.2,
    }


async def _parallel_async(
    env: Env, services: Services, latency: float, repeats: int
) -> list[dict[str, float]]:
    out = []
    async with open_async_checkpointer("sqlite", sqlite_path=env.dir / "parallel-a.sqlite") as cp:
        app = make_graph(services=services, checkpointer=use_grace_serializer(cp))
        for _ in range(repeats):
            tid = uuid.uuid4().hex
            t0 = time.perf_counter()
            await app.ainvoke({"query": COMPLEX}, _cfg(tid))
            wall = time.perf_counter() - t0
            values = (await app.aget_state(_cfg(tid))).values
            out.append(_parallel_figures(values, wall, latency))
    return out


# ---------------------------------------------------------------- 3. concurrency


async def _concurrent(
    env: Env, services: Services, threads: int
) -> tuple[list[float], list[str], float]:
    path = env.dir / "concurrency.sqlite"
    async with open_async_checkpointer("sqlite", sqlite_path=path) as cp:
        app = make_graph(services=services, checkpointer=use_grace_serializer(cp))
        await app.ainvoke({"query": SIMPLE}, _cfg("warmup"))

        async def one(i: int) -> float:
            t0 = time.perf_counter()
            result = await app.ainvoke({"query": SIMPLE}, _cfg(f"c{i}-{uuid.uuid4().hex}"))
            if not result.get("answer") or "__interrupt__" in result:
                raise RuntimeError(f"run {i} did not finish with an answer")
            return (time.perf_counter() - t0) * 1000

        t0 = time.perf_counter()
        outcomes = await asyncio.gather(*(one(i) for i in range(threads)), return_exceptions=True)
        total = time.perf_counter() - t0
    latencies = [o for o in outcomes if isinstance(o, float)]
    errors = [f"{type(o).__name__}: {o}" for o in outcomes if isinstance(o, BaseException)]
    return latencies, errors, total


def bare_async_graph(nodes: int, waits: int, latency: float, checkpointer: Any) -> Any:
    """A chain of ``nodes`` async nodes, the first ``waits`` of which await ``latency`` s."""

    async def step(state: BareState) -> dict[str, int]:
        return {"n": 1}

    async def wait(state: BareState) -> dict[str, int]:
        await asyncio.sleep(latency)
        return {"n": 1}

    return _chain([wait] * waits + [step] * (nodes - waits), checkpointer)


async def _concurrent_bare(env: Env, threads: int, waits: int, latency: float) -> float:
    """Seconds for ``threads`` bare 6-node chains at once, on the same kind of saver."""
    async with open_async_checkpointer("sqlite", sqlite_path=env.dir / "bare.sqlite") as cp:
        app = bare_async_graph(6, waits, latency, cp)
        await app.ainvoke({"n": 0}, _cfg("warmup"))
        t0 = time.perf_counter()
        runs = (app.ainvoke({"n": 0}, _cfg(uuid.uuid4().hex)) for _ in range(threads))
        await asyncio.gather(*runs)
        return time.perf_counter() - t0


def concurrency(env: Env, threads: int = 50, model_latency: float = 0.1) -> dict[str, Any]:
    """``threads`` runs at once through ``ainvoke`` with ``AsyncSqliteSaver``.

    Beside it, the same number of bare 6-node async chains whose nodes await as many
    ``model_latency`` waits as a GRACE run makes model calls: LangGraph's own floor here.
    """
    model = bench_model(latency=model_latency)
    latencies, errors, total = asyncio.run(_concurrent(env, env.services(model), threads))
    calls = model.count() / (threads + 1)
    bare = asyncio.run(_concurrent_bare(env, threads, round(calls), model_latency))
    return {
        "threads": threads,
        "checkpointer": "AsyncSqliteSaver",
        "model_latency_s": model_latency,
        "model_calls_per_run": calls,
        "critical_path_s": calls * model_latency,
        "errors": len(errors),
        "error_samples": errors[:3],
        "total_s": total,
        "bare_total_s": bare,
        "runs_per_s": threads / total,
        "run_ms_p50": _percentile(latencies, 0.5) if latencies else None,
        "run_ms_p95": _percentile(latencies, 0.95) if latencies else None,
        "goal": "0 errors",
        "met": not errors,
    }


# ---------------------------------------------------------------- 4. offline retrieval


RETRIEVAL_CURVE = (10_000, 100_000, 1_000_000)
"""Collection sizes of the retrieval scale curve (up to ``--scale``)."""
RETRIEVAL_GOALS = {"ingest_chunks_per_s": 3000.0, "query_ms_p50": 1.0, "peak_rss_mib": 450.0}
"""Goals of the embedded store at 100,000 chunks (ingest at least, p50 and RSS at most)."""


def _retrieval_args(scale: int) -> argparse.Namespace:
    from grace.retrieval.sparse import DEFAULT_AVGDL, DEFAULT_B, DEFAULT_K1

    # The defaults of ``python -m bench.retrieval_recall`` (the product's tokenizer settings).
    return argparse.Namespace(
        scale=scale,
        ja_mode="both",
        split_mode="B",
        keep_interrogatives=False,
        k1=DEFAULT_K1,
        b=DEFAULT_B,
        avgdl=DEFAULT_AVGDL,
        chunk_size=800,
        chunk_overlap=100,
    )


def retrieval_ingest(scale: int, root: Path) -> dict[str, Any]:
    """Ingest ``scale`` synthetic chunks (+ the sample corpus) into a store under ``root``."""
    from bench.retrieval_recall import measure_ingest

    out = measure_ingest(sample_dir(), _retrieval_args(scale), root)
    return {
        "backend": "edge",
        "chunks": out["chunks"],
        "ingest_chunks_per_s": out["ingest_chunks_per_s"],
        "ingest_s": out["ingest_seconds"],
        "compact_s": out["compact_seconds"],
    }


def retrieval_queries(scale: int, root: Path) -> dict[str, Any]:
    """Query latency on the store :func:`retrieval_ingest` wrote under ``root``."""
    from bench.retrieval_recall import measure_queries

    out = measure_queries(sample_dir(), _retrieval_args(scale), root)
    return {
        "chunks": out["chunks"],
        "queries": out["latency_ms"]["queries"],
        "query_ms_p50": out["latency_ms"]["p50"],
        "query_ms_p95": out["latency_ms"]["p95"],
        "open_s": out["open_seconds"],
    }


def retrieval_verdict(figures: dict[str, Any]) -> dict[str, Any]:
    """Goals and whether ``figures`` (with ``rss_mib``) meet them."""
    goal = RETRIEVAL_GOALS
    met = (
        figures["ingest_chunks_per_s"] >= goal["ingest_chunks_per_s"]
        and figures["query_ms_p50"] <= goal["query_ms_p50"]
        and figures["rss_mib"]["peak"] <= goal["peak_rss_mib"]
    )
    return {
        "goal": (
            f"at 100k chunks: ingest >= {goal['ingest_chunks_per_s']:.0f} chunks/s, "
            f"p50 <= {goal['query_ms_p50']:g} ms, peak RSS <= {goal['peak_rss_mib']:.0f} MiB"
        ),
        "met": met,
    }


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    idx = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[idx]

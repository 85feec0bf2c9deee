"""No silently lost turn: concurrent runs on one thread through the graph API, on GRACE's
checkpointer (``checkpoints.open_checkpointer`` / ``open_async_checkpointer``).

Before the guard, ten ``ainvoke`` on one thread with ``AsyncSqliteSaver`` all returned an
answer and nine turns were not in the thread. Now every run either is in the thread or
raised :class:`~checkpoints.guard.ThreadMovedOnError` — none reports success and is gone.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any, Literal

import pytest
from langgraph.types import StateSnapshot

from checkpoints import open_async_checkpointer, open_checkpointer
from checkpoints.guard import FORK_KEY, ThreadMovedOnError, guarded
from grace.storage.serde import use_grace_serializer
from graph.builder import make_graph

TURNS = [
    f"{q} (turn {i})"
    for i, q in enumerate(
        [
            "When did the horse tram line open in Lumen Bay?",
            "Who designed the Wren Point Lighthouse?",
        ]
        * 5
    )
]


def _lineage(history: list[StateSnapshot]) -> list[StateSnapshot]:
    """The thread's newest checkpoint and its ancestors (what the thread holds), newest first."""
    by_id = {h.config["configurable"]["checkpoint_id"]: h for h in history}
    chain, node = [], history[0] if history else None
    while node is not None:
        chain.append(node)
        parent = node.parent_config
        node = by_id.get(parent["configurable"]["checkpoint_id"]) if parent else None
    return chain


def _check_nothing_lost(results: list[Any], history: list[StateSnapshot], durability: str) -> None:
    """Every run that returned is in the thread's lineage; every other raised the one-liner.

    Under ``exit`` a run writes once, so the thread ends on exactly one run's outcome. Under
    ``sync`` a run that starts from another's step (not its end) carries that run's partial
    work (docs/python.md): the turn is in the thread, but the two runs' state is mixed.
    """
    held = {h.values.get("query") for h in _lineage(history)}
    returned = {q: r for q, r in zip(TURNS, results, strict=True) if isinstance(r, dict)}
    refused = [r for r in results if isinstance(r, BaseException)]
    assert returned, results  # one run at least goes through
    assert len(returned) + len(refused) == len(TURNS)
    assert all(isinstance(r, ThreadMovedOnError) for r in refused), refused
    assert all("run it again" in str(r) and "\n" not in str(r) for r in refused)
    assert set(returned) <= held  # no run reported success and went missing
    if durability != "exit":
        return
    newest = history[0].values  # the thread ends on a run that returned, with its outcome
    assert newest["query"] in returned
    assert newest.get("answer") == returned[newest["query"]].get("answer")


@pytest.mark.parametrize("kind", ["sqlite", "memory"])
@pytest.mark.parametrize("durability", ["sync", "exit"])
def test_ten_concurrent_ainvoke_lose_nothing(
    kind: Literal["sqlite", "memory"], durability: str, offline: Any, tmp_path: Path
) -> None:
    async def main() -> tuple[list[Any], list[StateSnapshot]]:
        async with open_async_checkpointer(kind, sqlite_path=tmp_path / "a.sqlite") as saver:
            graph = make_graph(services=offline, checkpointer=use_grace_serializer(saver))
            cfg: Any = {"configurable": {"thread_id": "one"}}
            runs = [graph.ainvoke({"query": q}, cfg, durability=durability) for q in TURNS]
            results = await asyncio.gather(*runs, return_exceptions=True)
            return list(results), [h async for h in graph.aget_state_history(cfg)]

    results, history = asyncio.run(main())
    _check_nothing_lost(results, history, durability)


@pytest.mark.parametrize("durability", ["sync", "exit"])
def test_ten_concurrent_invoke_and_stream_lose_nothing(
    durability: str, offline: Any, tmp_path: Path
) -> None:
    with open_checkpointer("sqlite", sqlite_path=tmp_path / "s.sqlite") as saver:
        graph = make_graph(services=offline, checkpointer=use_grace_serializer(saver))
        cfg: Any = {"configurable": {"thread_id": "one"}}
        results: list[Any] = [None] * len(TURNS)

        def run(i: int) -> None:
            try:
                if i % 2:
                    results[i] = graph.invoke({"query": TURNS[i]}, cfg, durability=durability)
                else:  # stream: the last values chunk is the run's outcome
                    chunks = graph.stream(
                        {"query": TURNS[i]}, cfg, stream_mode="values", durability=durability
                    )
                    results[i] = list(chunks)[-1]
            except Exception as exc:  # noqa: BLE001 - the refusal is what the test checks
                results[i] = exc

        workers = [threading.Thread(target=run, args=(i,)) for i in range(len(TURNS))]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        _check_nothing_lost(results, list(graph.get_state_history(cfg)), durability)


def test_one_run_at_a_time_is_never_refused(offline: Any, tmp_path: Path) -> None:
    with open_checkpointer("sqlite", sqlite_path=tmp_path / "s.sqlite") as saver:
        graph = make_graph(services=offline, checkpointer=use_grace_serializer(saver))
        cfg: Any = {"configurable": {"thread_id": "one"}}
        for q in TURNS[:3]:
            graph.invoke({"query": q}, cfg, durability="sync")  # raises if refused
        lineage = _lineage(list(graph.get_state_history(cfg)))
        assert {h.values.get("query") for h in lineage} >= set(TURNS[:3])


def test_a_fork_from_an_older_checkpoint_needs_the_fork_key(offline: Any) -> None:
    from langgraph.checkpoint.memory import InMemorySaver

    saver = use_grace_serializer(guarded(InMemorySaver()))
    graph = make_graph(services=offline, checkpointer=saver)
    cfg: Any = {"configurable": {"thread_id": "t"}}
    graph.invoke({"query": TURNS[0]}, cfg)
    first = graph.get_state(cfg).config
    graph.invoke({"query": TURNS[1]}, cfg)
    old: Any = {"configurable": {**first["configurable"]}}
    with pytest.raises(ThreadMovedOnError):
        graph.update_state(old, {"query": TURNS[2]})
    old["configurable"][FORK_KEY] = True
    graph.update_state(old, {"query": TURNS[2]})  # a deliberate fork is written
    assert graph.get_state(cfg).values["query"] == TURNS[2]


def test_one_guarded_saver_serves_several_event_loops(offline: Any) -> None:
    """An asyncio lock belongs to one loop: the guard keeps one per loop."""
    from langgraph.checkpoint.memory import InMemorySaver

    saver = use_grace_serializer(guarded(InMemorySaver()))
    graph = make_graph(services=offline, checkpointer=saver)

    async def two_at_once(thread: str) -> list[Any]:
        cfg: Any = {"configurable": {"thread_id": thread}}
        runs = [graph.ainvoke({"query": q}, cfg, durability="exit") for q in TURNS[:2]]
        return list(await asyncio.gather(*runs, return_exceptions=True))

    for loop_run in ("a", "b"):  # a second asyncio.run: a new event loop, the same saver
        results = asyncio.run(two_at_once(loop_run))
        assert any(isinstance(r, dict) for r in results)
        assert all(isinstance(r, dict | ThreadMovedOnError) for r in results), results


def test_two_connections_to_one_sqlite_file_make_one_writer(tmp_path: Path) -> None:
    """As two processes: the SQLite check is part of the insert, one statement."""
    from langgraph.checkpoint.base import empty_checkpoint

    db, cfg = tmp_path / "two.sqlite", {"configurable": {"thread_id": "t", "checkpoint_ns": ""}}
    with open_checkpointer("sqlite", sqlite_path=db) as one, open_checkpointer(
        "sqlite", sqlite_path=db
    ) as two:
        first = one.put(cfg, empty_checkpoint(), {}, {})  # type: ignore[arg-type]
        with pytest.raises(ThreadMovedOnError):  # also started from the empty thread
            two.put(cfg, empty_checkpoint(), {}, {})  # type: ignore[arg-type]
        second = two.put(first, empty_checkpoint(), {}, {})  # from the newest: written
        assert one.get_tuple(cfg).config == second  # type: ignore[union-attr]


def test_two_async_connections_to_one_sqlite_file_make_one_writer(tmp_path: Path) -> None:
    from langgraph.checkpoint.base import empty_checkpoint

    db, cfg = tmp_path / "two.sqlite", {"configurable": {"thread_id": "t", "checkpoint_ns": ""}}

    async def main() -> None:
        async with open_async_checkpointer("sqlite", sqlite_path=db) as one:
            async with open_async_checkpointer("sqlite", sqlite_path=db) as two:
                first = await one.aput(cfg, empty_checkpoint(), {}, {})  # type: ignore[arg-type]
                with pytest.raises(ThreadMovedOnError):
                    await two.aput(cfg, empty_checkpoint(), {}, {})  # type: ignore[arg-type]
                second = await two.aput(first, empty_checkpoint(), {}, {})  # type: ignore[arg-type]
                assert (await one.aget_tuple(cfg)).config == second  # type: ignore[union-attr]

    asyncio.run(main())

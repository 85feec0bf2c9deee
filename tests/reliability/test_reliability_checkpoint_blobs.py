"""GRACE's SQLite checkpointers store each channel's value once per version (checkpoints.blobs).

The values read back are those a plain ``SqliteSaver`` reads back for the same runs; a value
that did not change is not written again; a database written by a plain ``SqliteSaver``
(values inline) reads as it is and its threads go on; deleting a thread deletes its blobs; a
write the one-writer guard refuses leaves no blob.
"""

from __future__ import annotations

import asyncio
import operator
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Annotated, Any, TypedDict

import pytest
from langgraph.checkpoint.base import BaseCheckpointSaver, empty_checkpoint
from langgraph.checkpoint.base.id import uuid6
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from langgraph.graph import START, StateGraph

from checkpoints import open_async_checkpointer, open_checkpointer
from checkpoints.blobs import WRITTEN_THREADS, BlobSqliteSaver, WrittenWhole, next_version
from checkpoints.guard import ThreadMovedOnError
from grace.services import build_services
from grace.settings import GraceSettings
from grace.storage.serde import use_grace_serializer
from graph.app import GraceApp

BIG = "passage " * 200
CFG: Any = {"configurable": {"thread_id": "t"}}


class _State(TypedDict, total=False):
    items: Annotated[list[str], operator.add]
    turns: int
    big: str


def _graph(saver: BaseCheckpointSaver[Any]) -> Any:
    """Two steps per run; ``big`` is written by the first run only."""

    def first(state: _State) -> _State:
        return {"items": ["a"], "turns": state.get("turns", 0) + 1}

    def second(state: _State) -> _State:
        return {"items": ["b"]} if state.get("big") else {"items": ["b"], "big": BIG}

    builder = StateGraph(_State).add_sequence([first, second]).add_edge(START, "first")
    return builder.compile(checkpointer=saver)


@contextmanager
def _plain(path: Path) -> Iterator[SqliteSaver]:
    with SqliteSaver.from_conn_string(str(path)) as saver:
        yield saver


def _runs(graph: Any, words: list[str]) -> list[dict[str, Any]]:
    """Run once per word; the thread's history (values of every checkpoint, newest first)."""
    for word in words:
        graph.invoke({"items": [word]}, CFG)
    return [snap.values for snap in graph.get_state_history(CFG)]


async def _aruns(graph: Any, words: list[str]) -> list[dict[str, Any]]:
    for word in words:
        await graph.ainvoke({"items": [word]}, CFG)
    return [snap.values async for snap in graph.aget_state_history(CFG)]


def _rows(path: Path, sql: str) -> list[Any]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def test_values_read_back_as_a_plain_saver_reads_them_and_are_written_once(
    tmp_path: Path,
) -> None:
    with _plain(tmp_path / "plain.sqlite") as plain:
        expected = _runs(_graph(plain), ["x", "y", "z"])
    db = tmp_path / "blobs.sqlite"
    with open_checkpointer("sqlite", sqlite_path=db) as saver:
        assert isinstance(saver, BlobSqliteSaver)
        graph = _graph(saver)
        assert _runs(graph, ["x", "y", "z"]) == expected
        history = saver.get_delta_channel_history(
            config=graph.get_state(CFG).config, channels=["big"]
        )
        assert history["big"].get("seed") == BIG
    with open_checkpointer("sqlite", sqlite_path=db) as saver:  # a new connection
        assert [s.values for s in _graph(saver).get_state_history(CFG)] == expected
    checkpoints = _rows(db, "SELECT checkpoint FROM checkpoints")
    assert len(checkpoints) == len(expected) == 12
    assert not any(BIG.encode() in row for (row,) in checkpoints)  # no value inline
    stored = _rows(db, "SELECT type, length(blob) FROM checkpoint_blobs WHERE channel = 'big'")
    assert len(stored) == 1 and stored[0][0].endswith("+zlib") and stored[0][1] < len(BIG) / 10


def test_the_async_saver_reads_back_what_the_plain_async_saver_reads(tmp_path: Path) -> None:
    async def main() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        async with AsyncSqliteSaver.from_conn_string(str(tmp_path / "plain.sqlite")) as plain:
            expected = await _aruns(_graph(plain), ["x", "y", "z"])
        async with open_async_checkpointer("sqlite", sqlite_path=tmp_path / "b.sqlite") as saver:
            got = await _aruns(_graph(saver), ["x", "y", "z"])
        return expected, got

    expected, got = asyncio.run(main())
    assert got == expected and len(got) == 12
    blobs = _rows(
        tmp_path / "b.sqlite", "SELECT count(*) FROM checkpoint_blobs WHERE channel = 'big'"
    )
    assert blobs == [(1,)]


def test_an_old_database_reads_as_it_is_and_its_thread_goes_on(tmp_path: Path) -> None:
    with _plain(tmp_path / "ref.sqlite") as plain:
        expected = _runs(_graph(plain), ["x", "y", "z"])
    db = tmp_path / "old.sqlite"
    with _plain(db) as plain:
        old = _runs(_graph(plain), ["x", "y"])
    with open_checkpointer("sqlite", sqlite_path=db) as saver:
        graph = _graph(saver)
        assert [s.values for s in graph.get_state_history(CFG)] == old
        assert _runs(graph, ["z"]) == expected
    # The new rows hold no value inline: ``big`` (unchanged since the old rows) became a blob.
    assert _rows(db, "SELECT count(*) FROM checkpoint_blobs WHERE channel = 'big'") == [(1,)]
    new_rows = _rows(db, "SELECT checkpoint FROM checkpoints ORDER BY checkpoint_id DESC LIMIT 4")
    assert not any(BIG.encode() in row for (row,) in new_rows)


def test_an_old_database_reads_with_the_async_saver(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    with _plain(db) as plain:
        old = _runs(_graph(plain), ["x", "y"])

    async def main() -> list[dict[str, Any]]:
        async with open_async_checkpointer("sqlite", sqlite_path=db) as saver:
            graph = _graph(saver)
            return [s.values async for s in graph.aget_state_history(CFG)]

    assert asyncio.run(main()) == old


def test_a_read_only_old_database_is_read(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    with _plain(db) as plain:
        old = _runs(_graph(plain), ["x"])
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, check_same_thread=False)
    try:
        saver = BlobSqliteSaver(conn)
        assert [s.values for s in _graph(saver).get_state_history(CFG)] == old
        assert not saver.has_blobs
    finally:
        conn.close()


def test_a_pause_saved_by_a_plain_saver_resumes_on_the_new_one(
    offline: Any, tmp_path: Path
) -> None:
    pause_all = {"thresholds": {"silent": 1.0, "notify": 1.0, "confirm": 0.0}}
    settings = GraceSettings(data_dir=tmp_path / "d", provider="offline", confidence=pause_all)
    pausing = build_services(settings, store=offline.store)  # every run pauses
    db = tmp_path / "cp.sqlite"
    with _plain(db) as plain:
        app = GraceApp(settings, use_grace_serializer(plain), services=pausing)
        paused = app.ask("When did the horse tram line open in Lumen Bay?", thread_id="p")
    assert paused.status == "interrupted"
    with open_checkpointer("sqlite", sqlite_path=db) as saver:
        app = GraceApp(settings, use_grace_serializer(saver), services=pausing)
        assert app.pending_request("p")["confidence"] == paused.confidence
        assert "1874" in (_accepted(app, paused).answer or "")
        _accepted(app, app.ask("Who designed the Wren Point Lighthouse?", thread_id="p"))
        humans = [m.content for m in app.transcript("p") if m.type == "human"]
        assert humans[0].startswith("When did the horse tram") and len(humans) == 2


def _accepted(app: GraceApp, outcome: Any) -> Any:
    """The outcome once every pause of thread ``p`` is accepted (it must complete)."""
    for _ in range(5):
        if outcome.status != "interrupted":
            break
        outcome = app.resume("p", {"type": "accept"})
    assert outcome.status == "completed"
    return outcome


@pytest.mark.parametrize("run", ["sync", "async"])
def test_deleting_a_thread_deletes_its_blobs(run: str, tmp_path: Path) -> None:
    db = tmp_path / "cp.sqlite"
    other: Any = {"configurable": {"thread_id": "other"}}
    if run == "sync":
        with open_checkpointer("sqlite", sqlite_path=db) as saver:
            graph = _graph(saver)
            _runs(graph, ["x"])
            graph.invoke({"items": ["o"]}, other)
            saver.delete_thread("t")
            assert saver.get_tuple(CFG) is None and saver.get_tuple(other) is not None
    else:

        async def main() -> None:
            async with open_async_checkpointer("sqlite", sqlite_path=db) as saver:
                graph = _graph(saver)
                await _aruns(graph, ["x"])
                await graph.ainvoke({"items": ["o"]}, other)
                await saver.adelete_thread("t")
                assert await saver.aget_tuple(CFG) is None
                assert await saver.aget_tuple(other) is not None

        asyncio.run(main())
    for table in ("checkpoints", "writes", "checkpoint_blobs"):
        assert _rows(db, f"SELECT count(*) FROM {table} WHERE thread_id = 't'") == [(0,)]
    assert _rows(db, "SELECT count(*) FROM checkpoint_blobs WHERE thread_id = 'other'")[0][0] > 0


def _checkpoint(n: int, value: list[str]) -> Any:
    checkpoint = empty_checkpoint()
    checkpoint["id"] = str(uuid6(clock_seq=n))
    checkpoint["channel_values"] = {"items": value, "turns": n}
    checkpoint["channel_versions"] = {"items": f"{n}", "turns": f"{n}"}
    return checkpoint


def test_a_refused_write_leaves_no_blob(tmp_path: Path) -> None:
    db = tmp_path / "cp.sqlite"
    start: Any = {"configurable": {"thread_id": "t", "checkpoint_ns": ""}}
    versions = {"items": "", "turns": ""}
    with (
        open_checkpointer("sqlite", sqlite_path=db) as one,
        open_checkpointer("sqlite", sqlite_path=db) as two,
    ):
        parent = one.put(start, _checkpoint(1, ["a"]), {}, dict.fromkeys(versions, "1"))
        one.put(parent, _checkpoint(2, ["b"]), {}, dict.fromkeys(versions, "2"))
        with pytest.raises(ThreadMovedOnError):
            two.put(parent, _checkpoint(3, ["c"]), {}, dict.fromkeys(versions, "3"))
        found = two.get_tuple(start)
        assert found is not None
        assert found.checkpoint["channel_values"] == {"items": ["b"], "turns": 2}
    assert _rows(db, "SELECT version FROM checkpoint_blobs ORDER BY version") == [("1",), ("2",)]


def test_versions_are_short_and_sort_after_sqlite_savers_in_number_order() -> None:
    old = None
    with closing(sqlite3.connect(":memory:")) as conn:
        plain = SqliteSaver(conn)
        for _ in range(120):  # a thread SqliteSaver wrote, at version 120
            old = plain.get_next_version(old, None)
    chain = [next_version(old)]
    for _ in range(1500):
        chain.append(next_version(chain[-1]))
    assert chain[0].startswith("13121.") and len(chain[0]) == 14
    assert chain[-1].startswith("141621.")
    assert all(a < b for a, b in zip([old, *chain], chain, strict=False))  # as LangGraph compares
    assert next_version(None).startswith("111.") and next_version(9).startswith("1210.")
    with pytest.raises(ValueError, match="beyond 999,999,999"):
        next_version(999_999_999)


def test_a_thread_another_saver_wrote_goes_on_with_every_value(tmp_path: Path) -> None:
    """The second saver did not write the parent: it looks for the values it lacks."""
    with _plain(tmp_path / "ref.sqlite") as plain:
        expected = _runs(_graph(plain), ["x", "y", "z"])
    db = tmp_path / "cp.sqlite"
    with open_checkpointer("sqlite", sqlite_path=db) as one:
        _runs(_graph(one), ["x", "y"])
        one.delete_thread("nobody")  # forgets nothing of thread t
    with open_checkpointer("sqlite", sqlite_path=db) as two:
        assert _runs(_graph(two), ["z"]) == expected
    assert _rows(db, "SELECT count(*) FROM checkpoint_blobs WHERE channel = 'big'") == [(1,)]


def test_the_checkpoints_written_whole_are_bounded() -> None:
    written = WrittenWhole()
    for i in range(WRITTEN_THREADS + 10):
        written.add(f"t{i}", "", f"c{i}")
    assert not written.has("t0", "", "c0") and written.has("t4100", "", "c4100")
    assert not written.has("t4100", "", "c0") and not written.has("t4100", "", None)
    written.forget("t4100")
    assert not written.has("t4100", "", "c4100")

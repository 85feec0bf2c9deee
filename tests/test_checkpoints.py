"""Tests for the checkpoints package: checkpointer and store factories."""

from __future__ import annotations

import sqlite3
import sys
import uuid
from pathlib import Path
from typing import Any, TypedDict

import pytest
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore
from langgraph.types import Command, interrupt

import checkpoints
from checkpoints import (
    POSTGRES_URL_ENV,
    SQLITE_PATH_ENV,
    open_async_checkpointer,
    open_async_store,
    open_checkpointer,
    open_store,
)


class State(TypedDict, total=False):
    question: str
    answer: str
    final: str


def ask_human(state: State) -> State:
    answer = interrupt({"question": state["question"]})
    return {"answer": str(answer)}


def finish(state: State) -> State:
    return {"final": f"{state['question']} -> {state['answer']}"}


def _builder() -> StateGraph[State]:
    builder = StateGraph(State)
    builder.add_node("ask_human", ask_human)
    builder.add_node("finish", finish)
    builder.add_edge(START, "ask_human")
    builder.add_edge("ask_human", "finish")
    builder.add_edge("finish", END)
    return builder


def _config() -> RunnableConfig:
    return {"configurable": {"thread_id": f"t-{uuid.uuid4().hex}"}}


def _run_to_interrupt(saver: BaseCheckpointSaver[str], cfg: RunnableConfig) -> None:
    graph = _builder().compile(checkpointer=saver)
    out = graph.invoke({"question": "colour?"}, cfg)
    assert "__interrupt__" in out
    assert out["__interrupt__"][0].value == {"question": "colour?"}
    assert graph.get_state(cfg).next == ("ask_human",)


def _resume(saver: BaseCheckpointSaver[str], cfg: RunnableConfig) -> dict[str, Any]:
    graph = _builder().compile(checkpointer=saver)
    assert graph.get_state(cfg).next == ("ask_human",)
    out = graph.invoke(Command(resume="blue"), cfg)
    assert graph.get_state(cfg).next == ()
    return dict(out)


async def _arun_to_interrupt(saver: BaseCheckpointSaver[str], cfg: RunnableConfig) -> None:
    graph = _builder().compile(checkpointer=saver)
    out = await graph.ainvoke({"question": "colour?"}, cfg)
    assert "__interrupt__" in out
    assert (await graph.aget_state(cfg)).next == ("ask_human",)


async def _aresume(saver: BaseCheckpointSaver[str], cfg: RunnableConfig) -> dict[str, Any]:
    graph = _builder().compile(checkpointer=saver)
    assert (await graph.aget_state(cfg)).next == ("ask_human",)
    return dict(await graph.ainvoke(Command(resume="blue"), cfg))


FINAL = {"question": "colour?", "answer": "blue", "final": "colour? -> blue"}


# --- public surface -----------------------------------------------------------------


def test_public_api() -> None:
    assert set(checkpoints.__all__) >= {
        "CheckpointerKind",
        "StoreKind",
        "open_checkpointer",
        "open_async_checkpointer",
        "open_store",
        "open_async_store",
    }
    for name in checkpoints.__all__:
        assert hasattr(checkpoints, name)


# --- memory -------------------------------------------------------------------------


def test_memory_checkpointer_interrupt_and_resume() -> None:
    cfg = _config()
    with open_checkpointer("memory") as saver:
        assert isinstance(saver, InMemorySaver)
        _run_to_interrupt(saver, cfg)
        assert _resume(saver, cfg) == FINAL


def test_memory_checkpointers_are_independent() -> None:
    cfg = _config()
    with open_checkpointer("memory") as first:
        _run_to_interrupt(first, cfg)
    with open_checkpointer("memory") as second:
        graph = _builder().compile(checkpointer=second)
        assert graph.get_state(cfg).next == ()


def test_memory_store() -> None:
    with open_store("memory") as store:
        assert isinstance(store, InMemoryStore)
        store.put(("users", "u1"), "prefs", {"lang": "ja"})
        item = store.get(("users", "u1"), "prefs")
        assert item is not None and item.value == {"lang": "ja"}


async def test_async_memory_checkpointer_and_store() -> None:
    cfg = _config()
    async with open_async_checkpointer("memory") as saver:
        await _arun_to_interrupt(saver, cfg)
        assert await _aresume(saver, cfg) == FINAL
    async with open_async_store("memory") as store:
        await store.aput(("ns",), "k", {"v": 1})
        item = await store.aget(("ns",), "k")
        assert item is not None and item.value == {"v": 1}


# --- sqlite -------------------------------------------------------------------------


def test_sqlite_checkpointer_resume_in_second_instance(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "dir" / "checkpoints.sqlite"
    cfg = _config()
    with open_checkpointer("sqlite", sqlite_path=path) as first:
        _run_to_interrupt(first, cfg)
    assert path.is_file()
    with open_checkpointer("sqlite", sqlite_path=path) as second:
        assert second is not first
        assert _resume(second, cfg) == FINAL


def test_sqlite_checkpointer_two_open_instances(tmp_path: Path) -> None:
    path = tmp_path / "cp.sqlite"
    cfg = _config()
    with (
        open_checkpointer("sqlite", sqlite_path=path) as first,
        open_checkpointer("sqlite", sqlite_path=path) as second,
    ):
        _run_to_interrupt(first, cfg)
        assert _resume(second, cfg) == FINAL


def test_sqlite_checkpointer_uses_wal_and_closes(tmp_path: Path) -> None:
    path = tmp_path / "cp.sqlite"
    with open_checkpointer("sqlite", sqlite_path=str(path)) as saver:
        conn = saver.conn  # type: ignore[attr-defined]
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    with pytest.raises(sqlite3.ProgrammingError):
        conn.execute("SELECT 1")


def test_sqlite_store_put_then_get_in_second_instance(tmp_path: Path) -> None:
    path = tmp_path / "store" / "store.sqlite"
    with open_store("sqlite", sqlite_path=path) as first:
        first.put(("users", "u1"), "prefs", {"lang": "ja", "n": 3})
    with open_store("sqlite", sqlite_path=path) as second:
        assert second is not first
        item = second.get(("users", "u1"), "prefs")
        assert item is not None
        assert item.value == {"lang": "ja", "n": 3}
        assert [i.key for i in second.search(("users",))] == ["prefs"]


def test_sqlite_store_and_checkpointer_share_a_file(tmp_path: Path) -> None:
    path = tmp_path / "grace.sqlite"
    cfg = _config()
    with (
        open_checkpointer("sqlite", sqlite_path=path) as saver,
        open_store("sqlite", sqlite_path=path) as store,
    ):
        store.put(("ns",), "k", {"v": 1})
        _run_to_interrupt(saver, cfg)
    with (
        open_checkpointer("sqlite", sqlite_path=path) as saver,
        open_store("sqlite", sqlite_path=path) as store,
    ):
        assert _resume(saver, cfg) == FINAL
        item = store.get(("ns",), "k")
        assert item is not None and item.value == {"v": 1}


def test_sqlite_store_closes_connection(tmp_path: Path) -> None:
    with open_store("sqlite", sqlite_path=tmp_path / "s.sqlite") as store:
        conn = store.conn  # type: ignore[attr-defined]
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    with pytest.raises(sqlite3.ProgrammingError):
        conn.execute("SELECT 1")


async def test_async_sqlite_checkpointer_resume_in_second_instance(tmp_path: Path) -> None:
    path = tmp_path / "a" / "cp.sqlite"
    cfg = _config()
    async with open_async_checkpointer("sqlite", sqlite_path=path) as first:
        await _arun_to_interrupt(first, cfg)
    async with open_async_checkpointer("sqlite", sqlite_path=path) as second:
        assert await _aresume(second, cfg) == FINAL


async def test_async_and_sync_sqlite_checkpointers_share_a_file(tmp_path: Path) -> None:
    path = tmp_path / "cp.sqlite"
    cfg = _config()
    async with open_async_checkpointer("sqlite", sqlite_path=path) as saver:
        await _arun_to_interrupt(saver, cfg)
    with open_checkpointer("sqlite", sqlite_path=path) as sync_saver:
        assert _resume(sync_saver, cfg) == FINAL


async def test_async_sqlite_store_put_then_get_in_second_instance(tmp_path: Path) -> None:
    path = tmp_path / "a" / "store.sqlite"
    async with open_async_store("sqlite", sqlite_path=path) as first:
        await first.aput(("users", "u1"), "prefs", {"lang": "en"})
    async with open_async_store("sqlite", sqlite_path=path) as second:
        item = await second.aget(("users", "u1"), "prefs")
        assert item is not None and item.value == {"lang": "en"}


# --- errors -------------------------------------------------------------------------


@pytest.mark.parametrize("factory", [open_checkpointer, open_store])
def test_sqlite_needs_path(factory: Any) -> None:
    with pytest.raises(ValueError, match=r"needs sqlite_path \("):
        factory("sqlite")
    with pytest.raises(ValueError, match="sqlite_path"):
        factory("sqlite", sqlite_path="")


@pytest.mark.parametrize("factory", [open_checkpointer, open_store])
def test_postgres_needs_url(factory: Any) -> None:
    with pytest.raises(ValueError, match=rf"needs postgres_url \({POSTGRES_URL_ENV}\)"):
        factory("postgres")
    with pytest.raises(ValueError, match="postgres_url"):
        factory("postgres", postgres_url="  ")


def test_error_messages_name_the_setting() -> None:
    with pytest.raises(ValueError, match=rf"\({SQLITE_PATH_ENV}\)"):
        open_checkpointer("sqlite")
    with pytest.raises(ValueError) as exc_info:
        open_checkpointer("postgres")
    assert str(exc_info.value) == (
        "postgres checkpointer needs postgres_url (GRACE_CHECKPOINT__POSTGRES_URL)"
    )
    with pytest.raises(ValueError) as exc_info:
        open_store("sqlite")
    assert str(exc_info.value) == (
        "sqlite store needs sqlite_path (Settings.store_path, under GRACE_DATA_DIR)"
    )
    with pytest.raises(ValueError) as exc_info:
        open_checkpointer("sqlite")
    assert str(exc_info.value) == (
        "sqlite checkpointer needs sqlite_path (GRACE_CHECKPOINT__SQLITE_PATH)"
    )


@pytest.mark.parametrize("factory", [open_async_checkpointer, open_async_store])
async def test_async_factories_validate_settings(factory: Any) -> None:
    with pytest.raises(ValueError, match="sqlite_path"):
        factory("sqlite")
    with pytest.raises(ValueError, match="postgres_url"):
        factory("postgres")


@pytest.mark.parametrize(
    "factory", [open_checkpointer, open_store, open_async_checkpointer, open_async_store]
)
def test_unknown_kind(factory: Any) -> None:
    with pytest.raises(ValueError, match=r"unknown .* kind 'redis'; expected one of"):
        factory("redis")


@pytest.mark.parametrize(
    ("factory", "blocked"),
    [
        (open_checkpointer, "langgraph.checkpoint.postgres"),
        (open_async_checkpointer, "langgraph.checkpoint.postgres.aio"),
        (open_store, "langgraph.store.postgres"),
        (open_async_store, "langgraph.store.postgres.aio"),
    ],
)
def test_missing_postgres_extra(
    factory: Any, blocked: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, blocked, None)
    with pytest.raises(ImportError, match=r"grace-agent\[postgres\]"):
        factory("postgres", postgres_url="postgresql://localhost/grace")


def test_missing_psycopg(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)
    monkeypatch.delitem(sys.modules, "langgraph.checkpoint.postgres", raising=False)
    with pytest.raises(ImportError, match="postgres extra"):
        open_checkpointer("postgres", postgres_url="postgresql://localhost/grace")


# --- postgres (the private cluster of the session, or GRACE_TEST_POSTGRES_URL) ---


@pytest.mark.slow
def test_postgres_checkpointer_resume_in_second_instance(postgres_url: str) -> None:
    cfg = _config()
    with open_checkpointer("postgres", postgres_url=postgres_url) as first:
        _run_to_interrupt(first, cfg)
    with open_checkpointer("postgres", postgres_url=postgres_url) as second:
        assert _resume(second, cfg) == FINAL


@pytest.mark.slow
def test_postgres_store_put_then_get_in_second_instance(postgres_url: str) -> None:
    ns = ("grace-test", uuid.uuid4().hex)
    with open_store("postgres", postgres_url=postgres_url) as first:
        first.put(ns, "k", {"v": 1})
    with open_store("postgres", postgres_url=postgres_url) as second:
        item = second.get(ns, "k")
        assert item is not None and item.value == {"v": 1}
        second.delete(ns, "k")


@pytest.mark.slow
async def test_async_postgres_checkpointer_and_store(postgres_url: str) -> None:
    cfg = _config()
    async with open_async_checkpointer("postgres", postgres_url=postgres_url) as first:
        await _arun_to_interrupt(first, cfg)
    async with open_async_checkpointer("postgres", postgres_url=postgres_url) as second:
        assert await _aresume(second, cfg) == FINAL
    ns = ("grace-test", uuid.uuid4().hex)
    async with open_async_store("postgres", postgres_url=postgres_url) as store:
        await store.aput(ns, "k", {"v": 2})
    async with open_async_store("postgres", postgres_url=postgres_url) as store:
        item = await store.aget(ns, "k")
        assert item is not None and item.value == {"v": 2}
        await store.adelete(ns, "k")


def test_store_types() -> None:
    with open_store("memory") as store:
        assert isinstance(store, BaseStore)

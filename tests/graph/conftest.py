"""Fixtures for graph tests: compiled graphs with their own checkpointers."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite import SqliteSaver

from grace.storage.serde import use_grace_serializer
from graph.builder import make_graph


@pytest.fixture(params=["memory", "sqlite"])
def checkpointer(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    """A memory and a SQLite checkpointer (each test runs with both)."""
    if request.param == "memory":
        yield use_grace_serializer(InMemorySaver())
        return
    conn = sqlite3.connect(tmp_path / "cp.sqlite", check_same_thread=False)
    try:
        yield use_grace_serializer(SqliteSaver(conn))
    finally:
        conn.close()


@pytest.fixture
def app(offline_services: Any, checkpointer: Any) -> Any:
    """The GRACE graph over the session's offline services, with the test's checkpointer."""
    return make_graph(services=offline_services, checkpointer=checkpointer)


def cfg(thread: str) -> dict[str, Any]:
    return {"configurable": {"thread_id": thread}}


def services_with_thresholds(
    offline_services: Any,
    silent: float,
    notify: float,
    confirm: float,
    run: dict[str, Any] | None = None,
) -> Any:
    """Offline services sharing the session store, with other decision thresholds."""
    from grace.services import build_services
    from grace.settings import GraceSettings

    settings = GraceSettings(
        data_dir=offline_services.settings.data_dir,
        provider="offline",
        confidence={"thresholds": {"silent": silent, "notify": notify, "confirm": confirm}},
        run=run or {},
    )
    return build_services(settings, store=offline_services.store)

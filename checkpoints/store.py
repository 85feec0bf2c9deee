"""Long-term memory store factories: in-memory, SQLite (the default) and Postgres.

Each factory returns a context manager yielding a ``langgraph.store.base.BaseStore`` whose
tables are created (``setup()``) on open and whose connection is closed on exit::

    with open_store("sqlite", sqlite_path=Path(".grace/store.sqlite")) as store:
        graph = builder.compile(checkpointer=saver, store=store)

The SQLite stores need an autocommit connection (``isolation_level=None``) because they
issue their own ``BEGIN`` / ``COMMIT``; the journal is switched to WAL so several processes
can share the file. The file may be the same one the SQLite checkpointer uses.
"""

from __future__ import annotations

import importlib.util
import sqlite3
import sys
import threading
import types
from collections.abc import AsyncIterator, Iterator
from contextlib import (
    AbstractAsyncContextManager,
    AbstractContextManager,
    asynccontextmanager,
    closing,
    contextmanager,
)
from pathlib import Path
from typing import TypeAlias

from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore

from checkpoints._common import (
    STORE_SQLITE_PATH_HINT,
    BackendKind,
    apostgres_connection,
    postgres_connection,
    postgres_import_error,
    prepare_sqlite_path,
    require_postgres_url,
    validate_kind,
)

__all__ = ["StoreKind", "open_async_store", "open_store"]

StoreKind: TypeAlias = BackendKind
"""Store backend: ``"memory"``, ``"sqlite"`` or ``"postgres"``."""

_WHAT = "store"


def open_store(
    kind: StoreKind,
    *,
    sqlite_path: Path | str | None = None,
    postgres_url: str | None = None,
) -> AbstractContextManager[BaseStore]:
    """Open a synchronous store.

    Settings are checked when this function is called; the connection is opened when the
    returned context manager is entered and closed when it exits.

    Args:
        kind: ``"memory"`` (an ``InMemoryStore``, lost on exit), ``"sqlite"`` (a
            ``SqliteStore`` over ``sqlite_path``) or ``"postgres"`` (a ``PostgresStore``).
        sqlite_path: Database file for ``"sqlite"``; its parent directory is created.
        postgres_url: Connection string for ``"postgres"``.

    Returns:
        A context manager yielding the store.

    Raises:
        ValueError: If ``kind`` is unknown or the setting it needs is missing.
        ImportError: If ``kind`` is ``"postgres"`` and the postgres extra is not installed.

    """
    validate_kind(kind, _WHAT)
    if kind == "sqlite":
        return _sqlite_store(prepare_sqlite_path(sqlite_path, _WHAT, STORE_SQLITE_PATH_HINT))
    if kind == "postgres":
        return _postgres_store(require_postgres_url(postgres_url, _WHAT))
    return _memory_store()


def open_async_store(
    kind: StoreKind,
    *,
    sqlite_path: Path | str | None = None,
    postgres_url: str | None = None,
) -> AbstractAsyncContextManager[BaseStore]:
    """Open an asynchronous store, for use with ``ainvoke`` / ``astream``.

    Settings are checked when this function is called; the connection is opened when the
    returned context manager is entered (inside the running event loop) and closed on exit.

    Args:
        kind: ``"memory"`` (an ``InMemoryStore``), ``"sqlite"`` (an ``AsyncSqliteStore``
            over aiosqlite) or ``"postgres"`` (an ``AsyncPostgresStore``).
        sqlite_path: Database file for ``"sqlite"``; its parent directory is created.
        postgres_url: Connection string for ``"postgres"``.

    Returns:
        An async context manager yielding the store.

    Raises:
        ValueError: If ``kind`` is unknown or the setting it needs is missing.
        ImportError: If ``kind`` is ``"postgres"`` and the postgres extra is not installed,
            or ``"sqlite"`` and aiosqlite is not installed.

    """
    validate_kind(kind, _WHAT)
    if kind == "sqlite":
        return _async_sqlite_store(prepare_sqlite_path(sqlite_path, _WHAT, STORE_SQLITE_PATH_HINT))
    if kind == "postgres":
        return _async_postgres_store(require_postgres_url(postgres_url, _WHAT))
    return _async_memory_store()


@contextmanager
def _memory_store() -> Iterator[BaseStore]:
    yield InMemoryStore()


@asynccontextmanager
async def _async_memory_store() -> AsyncIterator[BaseStore]:
    yield InMemoryStore()


def _defer_sqlite_vec() -> None:
    """Put a stand-in for ``sqlite_vec`` in ``sys.modules`` that loads it on first use.

    ``langgraph.store.sqlite`` imports ``sqlite_vec`` when it is imported, and ``sqlite_vec``
    imports numpy — about 0.1 s of a warm ``grace ask`` — although the store calls it only
    for a vector index, which GRACE's store does not configure. The stand-in carries the
    module's spec; the first name read from it runs the real module (unchanged) and puts it
    in ``sys.modules``. The standard library's ``importlib.util.LazyLoader`` cannot do this
    on Python 3.11: the ``import`` statement reads ``__spec__``, which loads a lazy module.
    Nothing happens when ``sqlite_vec`` is already imported or not installed.
    """
    if "sqlite_vec" in sys.modules:
        return
    spec = importlib.util.find_spec("sqlite_vec")
    if spec is None or spec.loader is None:
        return
    loader = spec.loader
    stand_in = types.ModuleType("sqlite_vec", "sqlite_vec, loaded on first use")
    stand_in.__spec__ = spec
    lock = threading.Lock()

    def load(name: str) -> object:
        with lock:
            if "__file__" not in stand_in.__dict__:
                real = importlib.util.module_from_spec(spec)
                loader.exec_module(real)
                stand_in.__dict__.update(real.__dict__)
                sys.modules["sqlite_vec"] = real
        if name not in stand_in.__dict__:
            raise AttributeError(f"module 'sqlite_vec' has no attribute {name!r}")
        return stand_in.__dict__[name]

    setattr(stand_in, "__getattr__", load)  # noqa: B010 - a module's PEP 562 hook
    sys.modules["sqlite_vec"] = stand_in


def _sqlite_store(path: Path) -> AbstractContextManager[BaseStore]:
    _defer_sqlite_vec()
    from langgraph.store.sqlite import SqliteStore

    @contextmanager
    def _open() -> Iterator[BaseStore]:
        conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        with closing(conn):
            conn.execute("PRAGMA journal_mode=WAL")
            store = SqliteStore(conn)
            store.setup()
            yield store

    return _open()


def _async_sqlite_store(path: Path) -> AbstractAsyncContextManager[BaseStore]:
    _defer_sqlite_vec()
    try:
        import aiosqlite
        from langgraph.store.sqlite.aio import AsyncSqliteStore
    except ImportError as exc:  # pragma: no cover - aiosqlite ships with the sqlite saver
        raise ImportError(
            f"async sqlite store needs aiosqlite ({exc}); pip install aiosqlite"
        ) from exc

    @asynccontextmanager
    async def _open() -> AsyncIterator[BaseStore]:
        async with aiosqlite.connect(path, isolation_level=None) as conn:
            await conn.execute("PRAGMA journal_mode=WAL")
            async with AsyncSqliteStore(conn) as store:
                await store.setup()
                yield store

    return _open()


def _postgres_store(url: str) -> AbstractContextManager[BaseStore]:
    try:
        from langgraph.store.postgres import PostgresStore
    except ImportError as exc:
        raise postgres_import_error(_WHAT, exc) from exc

    @contextmanager
    def _open() -> Iterator[BaseStore]:
        with postgres_connection(url) as conn:
            store = PostgresStore(conn)
            store.setup()
            yield store

    return _open()


def _async_postgres_store(url: str) -> AbstractAsyncContextManager[BaseStore]:
    try:
        from langgraph.store.postgres.aio import AsyncPostgresStore
    except ImportError as exc:
        raise postgres_import_error(_WHAT, exc) from exc

    @asynccontextmanager
    async def _open() -> AsyncIterator[BaseStore]:
        async with apostgres_connection(url) as conn:
            async with AsyncPostgresStore(conn) as store:
                await store.setup()
                yield store

    return _open()

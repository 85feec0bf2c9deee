"""Checkpointer factories: in-memory, SQLite (the default) and Postgres.

Each factory returns a context manager that opens the backend, prepares its tables and
closes the connection on exit::

    with open_checkpointer("sqlite", sqlite_path=Path(".grace/checkpoints.sqlite")) as saver:
        graph = builder.compile(checkpointer=saver)

The SQLite savers (:mod:`checkpoints.blobs`: ``SqliteSaver`` / ``AsyncSqliteSaver`` storing
each channel's value once per version) use their own long-lived connection
(``check_same_thread=False``, WAL journal), so a second process or a later run over the same
file resumes the same threads.

They run with ``PRAGMA synchronous=NORMAL`` (:data:`SQLITE_PRAGMAS`): in WAL mode a commit
then appends to the write-ahead log without an fsync, and the log is synced at each
checkpoint of the WAL instead. A commit is durable against a crash or SIGKILL of the
process (the log is in the OS page cache, and the next connection replays it); only a
power loss or OS crash can lose the last commits (never corrupt the database). That saves
one fsync per LangGraph checkpoint. For power-loss durability set
``PRAGMA synchronous=FULL`` on the saver's connection (``saver.conn``).
The Postgres savers use a psycopg connection with ``autocommit=True`` and
``row_factory=dict_row`` and run ``setup()`` (idempotent migrations) on open.
"""

from __future__ import annotations

import sqlite3
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

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver

from checkpoints._common import (
    BackendKind,
    apostgres_connection,
    postgres_connection,
    postgres_import_error,
    prepare_sqlite_path,
    require_postgres_url,
    validate_kind,
)
from checkpoints.guard import guarded

__all__ = ["SQLITE_PRAGMAS", "CheckpointerKind", "open_async_checkpointer", "open_checkpointer"]

CheckpointerKind: TypeAlias = BackendKind
"""Checkpointer backend: ``"memory"``, ``"sqlite"`` or ``"postgres"``."""

_WHAT = "checkpointer"

SQLITE_PRAGMAS: tuple[str, ...] = (
    "PRAGMA page_size=8192",
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=NORMAL",
)
"""Run on every SQLite checkpointer connection: 8 KiB pages for a new file (a checkpoint row
is ~2.3 KB: one fits a 4 KiB page with 1.7 KB left empty, three fit 8 KiB; an existing file
keeps its page size), WAL journal, fsync at WAL checkpoints only (safe against process
crashes and SIGKILL; a power loss may drop the last commits)."""


def open_checkpointer(
    kind: CheckpointerKind,
    *,
    sqlite_path: Path | str | None = None,
    postgres_url: str | None = None,
) -> AbstractContextManager[BaseCheckpointSaver[str]]:
    """Open a synchronous checkpointer.

    Settings are checked when this function is called; the connection is opened when the
    returned context manager is entered and closed when it exits.

    Args:
        kind: ``"memory"`` (an ``InMemorySaver``, lost on exit), ``"sqlite"`` (a
            :class:`~checkpoints.blobs.BlobSqliteSaver` over ``sqlite_path``) or
            ``"postgres"`` (a ``PostgresSaver`` over ``postgres_url``).
        sqlite_path: Database file for ``"sqlite"``; its parent directory is created.
        postgres_url: Connection string for ``"postgres"``.

    Returns:
        A context manager yielding the checkpointer.

    Raises:
        ValueError: If ``kind`` is unknown or the setting it needs is missing.
        ImportError: If ``kind`` is ``"postgres"`` and the postgres extra is not installed.

    """
    validate_kind(kind, _WHAT)
    if kind == "sqlite":
        return _sqlite_saver(prepare_sqlite_path(sqlite_path, _WHAT))
    if kind == "postgres":
        return _postgres_saver(require_postgres_url(postgres_url, _WHAT))
    return _memory_saver()


def open_async_checkpointer(
    kind: CheckpointerKind,
    *,
    sqlite_path: Path | str | None = None,
    postgres_url: str | None = None,
) -> AbstractAsyncContextManager[BaseCheckpointSaver[str]]:
    """Open an asynchronous checkpointer, for ``ainvoke`` / ``astream``.

    Settings are checked when this function is called; the connection is opened when the
    returned context manager is entered (inside the running event loop) and closed on exit.

    Args:
        kind: ``"memory"`` (an ``InMemorySaver``), ``"sqlite"`` (an
            :class:`~checkpoints.blobs.AsyncBlobSqliteSaver` over aiosqlite) or
            ``"postgres"`` (an ``AsyncPostgresSaver``).
        sqlite_path: Database file for ``"sqlite"``; its parent directory is created.
        postgres_url: Connection string for ``"postgres"``.

    Returns:
        An async context manager yielding the checkpointer.

    Raises:
        ValueError: If ``kind`` is unknown or the setting it needs is missing.
        ImportError: If ``kind`` is ``"postgres"`` and the postgres extra is not installed,
            or ``"sqlite"`` and aiosqlite is not installed.

    """
    validate_kind(kind, _WHAT)
    if kind == "sqlite":
        return _async_sqlite_saver(prepare_sqlite_path(sqlite_path, _WHAT))
    if kind == "postgres":
        return _async_postgres_saver(require_postgres_url(postgres_url, _WHAT))
    return _async_memory_saver()


@contextmanager
def _memory_saver() -> Iterator[BaseCheckpointSaver[str]]:
    yield guarded(InMemorySaver())


@asynccontextmanager
async def _async_memory_saver() -> AsyncIterator[BaseCheckpointSaver[str]]:
    yield guarded(InMemorySaver())


def _sqlite_saver(path: Path) -> AbstractContextManager[BaseCheckpointSaver[str]]:
    from checkpoints.blobs import BlobSqliteSaver

    @contextmanager
    def _open() -> Iterator[BaseCheckpointSaver[str]]:
        with closing(sqlite3.connect(path, check_same_thread=False)) as conn:
            for pragma in SQLITE_PRAGMAS:
                conn.execute(pragma)
            saver = guarded(BlobSqliteSaver(conn))
            saver.setup()
            yield saver

    return _open()


def _async_sqlite_saver(path: Path) -> AbstractAsyncContextManager[BaseCheckpointSaver[str]]:
    try:
        import aiosqlite

        from checkpoints.blobs import AsyncBlobSqliteSaver
    except ImportError as exc:  # pragma: no cover - aiosqlite ships with the sqlite saver
        raise ImportError(
            f"async sqlite checkpointer needs aiosqlite ({exc}); pip install aiosqlite"
        ) from exc

    @asynccontextmanager
    async def _open() -> AsyncIterator[BaseCheckpointSaver[str]]:
        async with aiosqlite.connect(path) as conn:
            for pragma in SQLITE_PRAGMAS:
                await conn.execute(pragma)
            saver = guarded(AsyncBlobSqliteSaver(conn))
            await saver.setup()
            yield saver

    return _open()


def _postgres_saver(url: str) -> AbstractContextManager[BaseCheckpointSaver[str]]:
    try:
        from langgraph.checkpoint.postgres import PostgresSaver
    except ImportError as exc:
        raise postgres_import_error(_WHAT, exc) from exc

    @contextmanager
    def _open() -> Iterator[BaseCheckpointSaver[str]]:
        with postgres_connection(url) as conn:
            saver = guarded(PostgresSaver(conn))
            saver.setup()
            yield saver

    return _open()


def _async_postgres_saver(url: str) -> AbstractAsyncContextManager[BaseCheckpointSaver[str]]:
    try:
        from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
    except ImportError as exc:
        raise postgres_import_error(_WHAT, exc) from exc

    @asynccontextmanager
    async def _open() -> AsyncIterator[BaseCheckpointSaver[str]]:
        async with apostgres_connection(url) as conn:
            saver = guarded(AsyncPostgresSaver(conn))
            await saver.setup()
            yield saver

    return _open()

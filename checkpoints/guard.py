"""One writer per thread: a checkpoint whose parent is no longer the thread's newest is refused.

LangGraph hands ``put`` / ``aput`` the config of the checkpoint a run started from (or of its
own previous one) as ``configurable.checkpoint_id``: the new checkpoint's parent. Two runs
on one thread at once both start from the same checkpoint; without a guard both are saved
as children of it, the thread's newest is whichever came last, and the other turn is gone
although its caller was told it succeeded. The guarded savers compare the parent with the
thread's newest checkpoint (in that namespace) and raise :class:`ThreadMovedOnError` when
they differ, so the later run fails with one line instead of being lost.

On the SQLite savers the check is part of the insert (one ``INSERT … SELECT … WHERE``
statement), so it holds between processes sharing the file too; on the others the check and
the write are atomic per saver object (a lock around both): every run of one process —
``invoke``, ``ainvoke``, ``stream``, ``astream`` — but not two machines on one Postgres
database. ``GraceApp`` and the CLI also take a per-thread file lock (a second run on a busy
thread is refused before it starts).

Under ``sync`` / ``async`` durability a run's steps are visible while it works: a run that
starts from another's step, not its end, is saved and the other is refused at its next
write (its question may then stay in the thread without an answer). Under ``exit`` a run
writes once, so two runs never interleave. A deliberate fork from an older checkpoint (time
travel, ``update_state`` on a past ``checkpoint_id``) passes ``configurable[FORK_KEY] = True``.
"""

from __future__ import annotations

import asyncio
import json
import threading
import weakref
from collections.abc import Callable
from typing import Any, TypeVar, cast

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    BaseCheckpointSaver,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    get_checkpoint_metadata,
)
from langgraph.checkpoint.memory import InMemorySaver

__all__ = ["FORK_KEY", "ChecksItsParent", "ThreadMovedOnError", "guarded"]

FORK_KEY = "grace_fork"
"""A ``configurable`` key: ``True`` lets a run write a fork from an older checkpoint."""

SaverT = TypeVar("SaverT", bound=BaseCheckpointSaver[str])

_LATEST_SQL = (
    "SELECT checkpoint_id FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = ? "
    "ORDER BY checkpoint_id DESC LIMIT 1"
)
_GUARDED_INSERT_SQL = (
    "INSERT OR REPLACE INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, "
    "parent_checkpoint_id, type, checkpoint, metadata) SELECT ?, ?, ?, ?, ?, ?, ? "
    f"WHERE ? OR coalesce(({_LATEST_SQL}), ?) IN (?, ?)"
)
"""SqliteSaver's own insert, made only if the thread's newest checkpoint is the parent (or
this very checkpoint, written again): one statement, so atomic across processes too. It
writes the row ``SqliteSaver.put`` writes (langgraph-checkpoint-sqlite 3.x: same table,
serializer and metadata); the savers' own ``get_tuple`` reads it back (tests)."""


class ThreadMovedOnError(RuntimeError):
    """Another run wrote to the thread while this one was working: this run was not saved."""

    def __init__(self, thread_id: str, parent: str | None, newest: str | None) -> None:
        """Name the thread and the two checkpoints in one line."""
        started = f"checkpoint {parent}" if parent else "an empty thread"
        super().__init__(
            f"thread '{thread_id}' was written by another run while this one worked (it started "
            f"from {started}, the thread is now at {newest}): this run's turn is not saved; "
            "run it again when the other run has finished (one run per thread at a time)"
        )
        self.thread_id, self.parent, self.newest = thread_id, parent, newest


def _memory_latest(saver: Any, thread_id: str, ns: str) -> str | None:
    stored = saver.storage.get(thread_id, {}).get(ns, {})
    return max(stored) if stored else None


def sqlite_latest(saver: Any, thread_id: str, ns: str) -> str | None:
    with saver.cursor(transaction=False) as cur:
        row = cur.execute(_LATEST_SQL, (thread_id, ns)).fetchone()
    return str(row[0]) if row else None


def sqlite_insert(
    saver: Any, config: RunnableConfig, checkpoint: Checkpoint, metadata: Any, *, check: bool = True
) -> tuple[str, tuple[Any, ...]]:
    """The SQLite savers' checkpoint insert (SQL, parameters), the parent checked if ``check``.

    Serialised as the SQLite savers do; unchecked (or a fork), the row is written as
    ``SqliteSaver.put`` writes it.
    """
    thread_id, ns, parent, fork = _where(config)
    type_, blob = saver.serde.dumps_typed(checkpoint)
    meta = json.dumps(get_checkpoint_metadata(config, metadata), ensure_ascii=False)
    row = (thread_id, ns, checkpoint["id"], parent, type_, blob, meta.encode("utf-8", "ignore"))
    where = (fork or not check, thread_id, ns, parent or "", parent or "", checkpoint["id"])
    return _GUARDED_INSERT_SQL, (*row, *where)


def sqlite_refused(saver: Any, config: RunnableConfig) -> ThreadMovedOnError:
    """The error for a refused SQLite insert, naming the thread's newest checkpoint."""
    thread_id, ns, parent, _ = _where(config)
    return ThreadMovedOnError(thread_id, parent, sqlite_latest(saver, thread_id, ns))


async def async_sqlite_refused(saver: Any, config: RunnableConfig) -> ThreadMovedOnError:
    """:func:`sqlite_refused` for the async SQLite savers."""
    thread_id, ns, parent, _ = _where(config)
    return ThreadMovedOnError(thread_id, parent, await _async_sqlite_latest(saver, thread_id, ns))


def saved_config(config: RunnableConfig, checkpoint: Checkpoint) -> RunnableConfig:
    """The config of the checkpoint just written (what ``put`` returns)."""
    thread_id, ns, _, _ = _where(config)
    conf = {"thread_id": thread_id, "checkpoint_ns": ns, "checkpoint_id": checkpoint["id"]}
    return {"configurable": conf}


def _sqlite_put(saver: Any, config: RunnableConfig, checkpoint: Checkpoint, metadata: Any) -> Any:
    """``SqliteSaver.put`` made only if the parent is the thread's newest (else raise)."""
    with saver.cursor() as cur:
        written = cur.execute(*sqlite_insert(saver, config, checkpoint, metadata)).rowcount
    if not written:
        raise sqlite_refused(saver, config)
    return saved_config(config, checkpoint)


async def _async_sqlite_put(
    saver: Any, config: RunnableConfig, checkpoint: Checkpoint, metadata: Any
) -> Any:
    """``AsyncSqliteSaver.aput`` made only if the parent is the thread's newest (else raise)."""
    await saver.setup()
    sql, params = sqlite_insert(saver, config, checkpoint, metadata)
    async with saver.lock, saver.conn.execute(sql, params) as cur:
        written = cur.rowcount
        await saver.conn.commit()
    if not written:
        raise await async_sqlite_refused(saver, config)
    return saved_config(config, checkpoint)


def _tuple_latest(saver: Any, thread_id: str, ns: str) -> str | None:
    found = saver.get_tuple({"configurable": {"thread_id": thread_id, "checkpoint_ns": ns}})
    return str(found.config["configurable"]["checkpoint_id"]) if found else None


async def _async_sqlite_latest(saver: Any, thread_id: str, ns: str) -> str | None:
    await saver.setup()
    async with saver.lock, saver.conn.execute(_LATEST_SQL, (thread_id, ns)) as cur:
        row = await cur.fetchone()
    return str(row[0]) if row else None


async def _async_tuple_latest(saver: Any, thread_id: str, ns: str) -> str | None:
    found = await saver.aget_tuple({"configurable": {"thread_id": thread_id, "checkpoint_ns": ns}})
    return str(found.config["configurable"]["checkpoint_id"]) if found else None


def _latest_lookup(saver: object) -> Callable[[Any, str, str], str | None]:
    """How to read a thread's newest checkpoint id from ``saver`` (not SQLite: see put)."""
    return _memory_latest if isinstance(saver, InMemorySaver) else _tuple_latest


def _where(config: RunnableConfig) -> tuple[str, str, str | None, bool]:
    """(thread id, namespace, parent checkpoint id, fork allowed) of a ``put``'s config."""
    conf = config.get("configurable", {})
    thread_id, ns = str(conf["thread_id"]), str(conf.get("checkpoint_ns", ""))
    return thread_id, ns, conf.get("checkpoint_id"), bool(conf.get(FORK_KEY))


_AsyncLocks = weakref.WeakValueDictionary[tuple[str, str], asyncio.Lock]
"""One event loop's locks, by (thread id, namespace); a lock no run holds is dropped."""


class _ThreadWriteGuard(BaseCheckpointSaver[str]):
    """Mixed in before a saver class: ``put`` / ``aput`` refuse a stale parent (see module)."""

    _guard_lock: threading.Lock
    _guard_alocks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _AsyncLocks]

    def _guard_alock(self, thread_id: str, ns: str) -> asyncio.Lock:
        """The thread's lock in this event loop (an asyncio lock belongs to one loop).

        One lock per thread, not per saver: runs on other threads write meanwhile.
        """
        loop = asyncio.get_running_loop()
        with self._guard_lock:
            locks = self._guard_alocks.setdefault(loop, weakref.WeakValueDictionary())
            return locks.setdefault((thread_id, ns), asyncio.Lock())

    def _check_parent(self, config: RunnableConfig, own_id: str, newest: str | None) -> None:
        """Raise unless the newest is the parent (or ``own_id``, a checkpoint written again)."""
        thread_id, _, parent, fork = _where(config)
        if newest not in (None, parent, own_id) and not fork:
            raise ThreadMovedOnError(thread_id, parent, newest)

    def put(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        """Save the checkpoint if its parent is the thread's newest; else raise."""
        from langgraph.checkpoint.sqlite import SqliteSaver

        if isinstance(self, SqliteSaver):  # one statement: atomic across processes
            return cast(RunnableConfig, _sqlite_put(self, config, checkpoint, metadata))
        thread_id, ns, _, _ = _where(config)
        with self._guard_lock:
            newest = _latest_lookup(self)(self, thread_id, ns)
            self._check_parent(config, checkpoint["id"], newest)
            return super().put(config, checkpoint, metadata, new_versions)

    async def aput(
        self, config: RunnableConfig, checkpoint: Checkpoint,
        metadata: CheckpointMetadata, new_versions: ChannelVersions,
    ) -> RunnableConfig:  # fmt: skip
        """:meth:`put` for async runs (their own lock: a thread lock would block the loop)."""
        from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

        if isinstance(self, AsyncSqliteSaver):  # one statement: atomic across processes
            return cast(RunnableConfig, await _async_sqlite_put(self, config, checkpoint, metadata))
        thread_id, ns, _, _ = _where(config)
        async with self._guard_alock(thread_id, ns):
            newest = await _async_tuple_latest(self, thread_id, ns)
            self._check_parent(config, checkpoint["id"], newest)
            return await super().aput(config, checkpoint, metadata, new_versions)


_GUARDED: dict[type, type] = {}
"""Each saver class's guarded subclass, made once."""


def _guarded_class(cls: type) -> type:
    if cls not in _GUARDED:
        # Same name as the saver's class: reprs and name checks see the saver they know.
        _GUARDED[cls] = type(cls.__name__, (_ThreadWriteGuard, cls), {"__module__": __name__})
    return _GUARDED[cls]


class ChecksItsParent:
    """Mixed into a saver whose own write checks the parent when ``one_writer`` is set.

    GRACE's SQLite savers (:mod:`checkpoints.blobs`) write a checkpoint's values and its row
    in one transaction; the parent check is the row's conditional insert, so :func:`guarded`
    only switches it on.
    """

    one_writer: bool = False
    """Refuse a checkpoint whose parent is not the thread's newest (:func:`guarded` sets it)."""


def guarded(saver: SaverT) -> SaverT:
    """``saver`` (in place) refusing a checkpoint whose parent is not its thread's newest.

    Its class becomes a subclass of its own class (``isinstance`` checks still hold) whose
    ``put`` / ``aput`` check the parent first; everything else is the saver's own. A saver
    that checks the parent in its own write (:class:`ChecksItsParent`) has that switched on.
    """
    if isinstance(saver, ChecksItsParent):
        saver.one_writer = True
    elif not isinstance(saver, _ThreadWriteGuard):
        saver.__class__ = _guarded_class(type(saver))
        guard = cast(_ThreadWriteGuard, saver)
        guard._guard_lock = threading.Lock()
        guard._guard_alocks = weakref.WeakKeyDictionary()
    return saver

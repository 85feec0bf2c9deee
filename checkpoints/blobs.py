"""GRACE's SQLite checkpointer: each channel's value is stored once per version.

LangGraph's ``SqliteSaver`` (langgraph-checkpoint-sqlite 3.x) serialises the whole checkpoint,
every channel's value inline, at every step: a value that did not change is written again in
each checkpoint (langchain-ai/langgraph#7843). ``PostgresSaver`` and ``InMemorySaver`` keep the
values apart, one blob per (thread, namespace, channel, version), and write only the versions
that are new. :class:`BlobSqliteSaver` and its async twin :class:`AsyncBlobSqliteSaver` (over
aiosqlite; its sync methods are ``AsyncSqliteSaver``'s bridges) do the same on SQLite:

- the ``checkpoints`` row (``SqliteSaver``'s table and serialisation) holds the checkpoint with
  the channel versions and only the values that are ``None``, a bool or a number; every other
  value is a row of ``checkpoint_blobs``, written when its version is new (``new_versions``)
  or not stored yet (a thread written by a plain ``SqliteSaver`` goes on here); a value of
  1 KB or more serialised is stored compressed (zlib, its serde type marked ``+zlib``);
- channel versions are 12–15 characters (up to version 9,999), not ``SqliteSaver``'s 52
  (:func:`next_version`);
- reading rebuilds ``channel_values`` from the row and the blobs of its versions. A row written
  by a plain ``SqliteSaver`` holds its values inline and reads as before, so an old database
  is read as it is, with no migration (a plain ``SqliteSaver`` cannot read the new rows:
  going back needs the old file);
- ``delete_thread`` removes the thread's blobs with its checkpoints and writes;
- :func:`~checkpoints.guard.guarded` switches on the one-writer check: the blobs and the
  row's conditional insert are one transaction, so a refused checkpoint leaves nothing.

Pending writes (the ``writes`` table) are ``SqliteSaver``'s own.
"""

from __future__ import annotations

import json
import random
import sqlite3
import threading
import zlib
from collections import OrderedDict
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping, Sequence
from contextlib import closing
from typing import Any

import aiosqlite
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    BaseCheckpointSaver,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
    DeltaChannelHistory,
)
from langgraph.checkpoint.serde.base import SerializerProtocol
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from checkpoints.guard import (
    ChecksItsParent,
    async_sqlite_refused,
    saved_config,
    sqlite_insert,
    sqlite_refused,
)

__all__ = ["BLOBS_TABLE_SQL", "AsyncBlobSqliteSaver", "BlobSqliteSaver", "next_version"]

BLOBS_TABLE_SQL = """CREATE TABLE IF NOT EXISTS checkpoint_blobs (
    thread_id TEXT NOT NULL,
    checkpoint_ns TEXT NOT NULL DEFAULT '',
    channel TEXT NOT NULL,
    version TEXT NOT NULL,
    type TEXT NOT NULL,
    blob BLOB,
    PRIMARY KEY (thread_id, checkpoint_ns, channel, version)
)"""
"""One value per (thread, namespace, channel, version), as ``PostgresSaver``'s table."""

INSERT_BLOB_SQL = (
    "INSERT OR IGNORE INTO checkpoint_blobs "
    "(thread_id, checkpoint_ns, channel, version, type, blob) VALUES (?, ?, ?, ?, ?, ?)"
)
SELECT_BLOBS_SQL = (
    "SELECT b.channel, b.type, b.blob FROM json_each(?) AS j CROSS JOIN checkpoint_blobs AS b "
    "ON b.thread_id = ? AND b.checkpoint_ns = ? AND b.channel = j.key AND b.version = j.value"
)
"""The blobs of a ``{channel: version}`` JSON object (one primary-key lookup each)."""
MISSING_BLOBS_SQL = (
    "SELECT j.key FROM json_each(?) AS j WHERE NOT EXISTS (SELECT 1 FROM checkpoint_blobs AS b "
    "WHERE b.thread_id = ? AND b.checkpoint_ns = ? AND b.channel = j.key AND b.version = j.value)"
)
"""The channels of a ``{channel: version}`` JSON object whose blob is not stored yet."""
DELETE_THREAD_SQL = tuple(
    f"DELETE FROM {table} WHERE thread_id = ?"
    for table in ("checkpoints", "writes", "checkpoint_blobs")
)

BlobRow = tuple[str, str, str, str, str, bytes]
"""A ``checkpoint_blobs`` row: thread, namespace, channel, version, type, serialised value."""


def _inline(value: Any) -> bool:
    """Kept in the checkpoint row: ``None``, a bool or a number (as ``PostgresSaver`` does)."""
    return value is None or isinstance(value, (bool, int, float))


ZLIB = "+zlib"
"""Appended to a blob's serde type when its bytes are compressed (:func:`pack`)."""
ZLIB_FROM = 1024
"""Serialised values of this many bytes or more are stored compressed (zlib, level 1)."""


def pack(typed: tuple[str, bytes]) -> tuple[str, bytes]:
    """A serialised value as stored: compressed from :data:`ZLIB_FROM` bytes.

    Messages, passages and plans are text: zlib level 1 takes them to a third or less, for a
    fraction of a millisecond.
    """
    type_, data = typed
    return (type_ + ZLIB, zlib.compress(data, 1)) if len(data) >= ZLIB_FROM else typed


def unpack(type_: str, blob: bytes) -> tuple[str, bytes]:
    """The serde's ``(type, bytes)`` of a stored blob."""
    if type_.endswith(ZLIB):
        return type_.removesuffix(ZLIB), zlib.decompress(blob)
    return type_, blob


def next_version(current: str | float | None) -> str:
    """The channel version after ``current``, 14 characters for version 142: ``"13142.9f03a1c4"``.

    ``"1"``, the count of digits, the number, ``"."`` and 32 random bits in hex.

    ``SqliteSaver``'s versions are 52 characters (the number zero-padded to 32 digits, a random
    fraction) and a checkpoint row holds about 70 of them (``channel_versions`` and
    ``versions_seen``): most of its bytes. These sort as LangGraph compares versions, as
    strings: after every ``SqliteSaver`` version (which starts with ``"0"``), so a thread
    written by ``SqliteSaver`` goes on, and in number order among themselves (fewer digits
    first) up to 999,999,999. The random part keeps two forks' values apart in the blob table.
    """
    if current is None:
        number = 0
    elif not isinstance(current, str):
        number = int(current)
    elif current.startswith("1"):
        number = int(current[2 : 2 + int(current[1])])
    else:  # SqliteSaver's
        number = int(current.split(".")[0])
    digits = str(number + 1)
    if len(digits) > 9:  # the count of digits is one character
        raise ValueError(f"channel version {digits} is beyond 999,999,999")
    return f"1{len(digits)}{digits}.{random.getrandbits(32):08x}"


class Split:
    """A checkpoint to put, split into its row and its blobs."""

    def __init__(self, checkpoint: Checkpoint, new_versions: ChannelVersions) -> None:
        """Split ``checkpoint``; values of ``new_versions`` are the ones surely not stored."""
        values, versions = checkpoint["channel_values"], checkpoint["channel_versions"]
        # A value with no version stays inline: it could not be found again.
        apart = {k: v for k, v in values.items() if not _inline(v) and k in versions}
        self.row: Checkpoint = checkpoint.copy()
        self.row["channel_values"] = {k: v for k, v in values.items() if k not in apart}
        self.values = apart
        self.new = {k: str(versions[k]) for k in apart if k in new_versions}
        """Channel → version of the values to write."""
        self.known = {k: str(versions[k]) for k in apart if k not in new_versions}
        """Channel → version of the values the parent had: written only if not stored."""

    def rows(
        self, serde: SerializerProtocol, thread_id: str, ns: str, versions: Mapping[str, str]
    ) -> Iterator[BlobRow]:
        """The blob rows of ``versions`` (channel → version), serialised."""
        for channel, version in versions.items():
            yield (thread_id, ns, channel, version, *pack(serde.dumps_typed(self.values[channel])))

    def missing(self, channels: Iterable[str]) -> dict[str, str]:
        """``known`` restricted to ``channels`` (those found not stored)."""
        return {k: self.known[k] for k in channels}


def wanted_versions(found: CheckpointTuple) -> dict[str, str]:
    """Channel → version of the values a stored checkpoint does not hold inline."""
    checkpoint: Any = found.checkpoint
    if not isinstance(checkpoint, dict):  # a damaged row: returned as SqliteSaver returns it
        return {}
    inline, versions = checkpoint.get("channel_values", {}), checkpoint.get("channel_versions", {})
    return {k: str(v) for k, v in versions.items() if k not in inline}


def blob_params(found: CheckpointTuple, wanted: Mapping[str, str]) -> tuple[str, str, str]:
    """The parameters of :data:`SELECT_BLOBS_SQL` for a stored checkpoint."""
    conf = found.config["configurable"]
    return json.dumps(wanted), str(conf["thread_id"]), str(conf.get("checkpoint_ns", ""))


def with_values(
    found: CheckpointTuple, rows: Iterable[Sequence[Any]], serde: SerializerProtocol
) -> CheckpointTuple:
    """``found`` with the values of its blob ``rows`` put back into ``channel_values``."""
    checkpoint = found.checkpoint.copy()
    values = dict(checkpoint["channel_values"])
    for channel, type_, blob in rows:
        values[channel] = serde.loads_typed(unpack(type_, blob))
    checkpoint["channel_values"] = values
    return found._replace(checkpoint=checkpoint)


class WrittenWhole:
    """The newest checkpoint this saver wrote, per (thread, namespace), every value stored.

    A ``put`` whose parent is one of them has all its unchanged values stored already, so it
    skips the look for missing blobs (one query per checkpoint, and a thread hop on aiosqlite).
    Holds the latest :data:`WRITTEN_THREADS` threads; another process's checkpoints, or a
    thread further back, are looked up as before.
    """

    def __init__(self) -> None:
        """Empty; filled by each checkpoint written."""
        self._ids: OrderedDict[tuple[str, str], str] = OrderedDict()
        self._lock = threading.Lock()

    def has(self, thread_id: str, ns: str, checkpoint_id: str | None) -> bool:
        """Whether ``checkpoint_id`` is the newest this saver wrote whole on the thread."""
        with self._lock:
            return checkpoint_id is not None and self._ids.get((thread_id, ns)) == checkpoint_id

    def add(self, thread_id: str, ns: str, checkpoint_id: str) -> None:
        """Record a checkpoint written with every value stored."""
        with self._lock:
            self._ids[(thread_id, ns)] = checkpoint_id
            self._ids.move_to_end((thread_id, ns))
            while len(self._ids) > WRITTEN_THREADS:
                self._ids.popitem(last=False)

    def forget(self, thread_id: str) -> None:
        """Drop a deleted thread's entries."""
        with self._lock:
            for key in [key for key in self._ids if key[0] == thread_id]:
                del self._ids[key]


WRITTEN_THREADS = 4096
"""Threads :class:`WrittenWhole` remembers."""


class Put:
    """What a ``put`` writes: blob rows (the new versions, serialised) and the row's insert."""

    def __init__(
        self, saver: Any, config: RunnableConfig, checkpoint: Checkpoint,
        metadata: CheckpointMetadata, new_versions: ChannelVersions,
    ) -> None:  # fmt: skip
        """Split and serialise before the saver's lock is taken."""
        conf = config["configurable"]
        self.thread_id, self.ns = str(conf["thread_id"]), str(conf.get("checkpoint_ns", ""))
        self.serde: SerializerProtocol = saver.serde
        self.split = Split(checkpoint, new_versions)
        self.rows = [*self.split.rows(self.serde, self.thread_id, self.ns, self.split.new)]
        self.insert = sqlite_insert(saver, config, self.split.row, metadata, check=saver.one_writer)
        """The row's insert (SQL, parameters): it writes nothing if the parent check fails."""
        self.written: WrittenWhole = saver.written
        self.checkpoint_id = checkpoint["id"]
        parent = conf.get("checkpoint_id")
        self.look_for_missing = bool(self.split.known) and not self.written.has(
            self.thread_id, self.ns, parent
        )
        """Whether the parent's values may be missing from the blob table (an old-format or
        another process's parent): then :data:`MISSING_BLOBS_SQL` finds them."""

    def done(self) -> None:
        """Record the checkpoint as written whole."""
        self.written.add(self.thread_id, self.ns, self.checkpoint_id)

    def known_params(self) -> tuple[str, str, str]:
        """The parameters of :data:`MISSING_BLOBS_SQL` for the values the parent had."""
        return json.dumps(self.split.known), self.thread_id, self.ns

    def add_missing(self, channels: Iterable[str]) -> None:
        """Add the rows of the parent's values found not stored (an old-format parent)."""
        missing = self.split.missing(channels)
        self.rows.extend(self.split.rows(self.serde, self.thread_id, self.ns, missing))


class BlobSqliteSaver(ChecksItsParent, SqliteSaver):
    """``SqliteSaver`` storing each channel's value once per version (see the module)."""

    def __init__(self, conn: sqlite3.Connection, *, serde: SerializerProtocol | None = None):
        """Over ``conn`` as ``SqliteSaver``; the blob table is made by :meth:`setup`."""
        super().__init__(conn, serde=serde)
        self.has_blobs = True
        """False for a read-only database made before the blob table: its rows are inline."""
        self.written = WrittenWhole()

    def setup(self) -> None:
        """``SqliteSaver``'s tables and the blob table (a read-only old file: none)."""
        if self.is_setup:
            return
        super().setup()
        try:
            self.conn.execute(BLOBS_TABLE_SQL)
            self.conn.commit()
        except sqlite3.OperationalError as exc:
            if "readonly database" not in str(exc):
                raise
            self.has_blobs = False

    def _fill(self, cur: sqlite3.Cursor, found: CheckpointTuple) -> CheckpointTuple:
        wanted = wanted_versions(found)
        if not wanted or not self.has_blobs:
            return found
        rows = cur.execute(SELECT_BLOBS_SQL, blob_params(found, wanted)).fetchall()
        return with_values(found, rows, self.serde)

    def get_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        """The checkpoint (the thread's newest if no id), its values rebuilt."""
        found = super().get_tuple(config)
        if found is None:
            return None
        with self.cursor(transaction=False) as cur:
            return self._fill(cur, found)

    def list(
        self, config: RunnableConfig | None, *, filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None, limit: int | None = None,
    ) -> Iterator[CheckpointTuple]:  # fmt: skip
        """``SqliteSaver.list``, each checkpoint's values rebuilt."""
        for found in super().list(config, filter=filter, before=before, limit=limit):
            # SqliteSaver.list holds the saver's lock while it yields: a cursor of our own.
            with closing(self.conn.cursor()) as cur:
                filled = self._fill(cur, found)
            yield filled

    def put(
        self, config: RunnableConfig, checkpoint: Checkpoint,
        metadata: CheckpointMetadata, new_versions: ChannelVersions,
    ) -> RunnableConfig:  # fmt: skip
        """Write the new values' blobs and the row in one transaction (see the module).

        Raises:
            ThreadMovedOnError: ``one_writer`` is set and the parent is not the newest.

        """
        put = Put(self, config, checkpoint, metadata, new_versions)
        with self.cursor() as cur:
            if put.look_for_missing:
                found = cur.execute(MISSING_BLOBS_SQL, put.known_params())
                put.add_missing(channel for (channel,) in found.fetchall())
            cur.executemany(INSERT_BLOB_SQL, put.rows)
            written = cur.execute(*put.insert).rowcount
            if not written:
                self.conn.rollback()
        if not written:
            raise sqlite_refused(self, config)
        put.done()
        return saved_config(config, checkpoint)

    def get_next_version(self, current: str | None, channel: None) -> str:
        """A short version (:func:`next_version`) instead of ``SqliteSaver``'s 52 characters."""
        return next_version(current)

    def delete_thread(self, thread_id: str) -> None:
        """Delete the thread's checkpoints, writes and blobs (one transaction)."""
        self.written.forget(str(thread_id))
        with self.cursor() as cur:
            for sql in DELETE_THREAD_SQL:
                cur.execute(sql, (str(thread_id),))

    def get_delta_channel_history(
        self, *, config: RunnableConfig, channels: Sequence[str]
    ) -> Mapping[str, DeltaChannelHistory]:
        """LangGraph's walk over :meth:`get_tuple` (``SqliteSaver``'s reads inline values)."""
        return BaseCheckpointSaver.get_delta_channel_history(self, config=config, channels=channels)


class AsyncBlobSqliteSaver(ChecksItsParent, AsyncSqliteSaver):
    """``AsyncSqliteSaver`` storing each channel's value once per version."""

    def __init__(self, conn: aiosqlite.Connection, *, serde: SerializerProtocol | None = None):
        """Over ``conn`` as ``AsyncSqliteSaver`` (inside the running loop)."""
        super().__init__(conn, serde=serde)
        self.has_blobs = True
        """False for a read-only database made before the blob table: its rows are inline."""
        self._blobs_ready = False
        self.written = WrittenWhole()

    async def setup(self) -> None:
        """``AsyncSqliteSaver``'s tables and the blob table (a read-only old file: none)."""
        await super().setup()
        if self._blobs_ready:
            return
        async with self.lock:
            if self._blobs_ready:
                return
            try:
                await self.conn.execute(BLOBS_TABLE_SQL)
                await self.conn.commit()
            except aiosqlite.OperationalError as exc:
                if "readonly database" not in str(exc):
                    raise
                self.has_blobs = False
            self._blobs_ready = True

    async def _fill(self, found: CheckpointTuple) -> CheckpointTuple:
        """``found`` with its blobs (the caller holds the saver's lock)."""
        wanted = wanted_versions(found)
        if not wanted or not self.has_blobs:
            return found
        async with self.conn.execute(SELECT_BLOBS_SQL, blob_params(found, wanted)) as cur:
            rows = await cur.fetchall()
        return with_values(found, rows, self.serde)

    async def aget_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        """The checkpoint (the thread's newest if no id), its values rebuilt."""
        found = await super().aget_tuple(config)
        if found is None:
            return None
        async with self.lock:
            return await self._fill(found)

    async def alist(
        self, config: RunnableConfig | None, *, filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None, limit: int | None = None,
    ) -> AsyncIterator[CheckpointTuple]:  # fmt: skip
        """``AsyncSqliteSaver.alist``, each checkpoint's values rebuilt."""
        # AsyncSqliteSaver.alist holds the saver's lock while it yields.
        async for found in super().alist(config, filter=filter, before=before, limit=limit):
            yield await self._fill(found)

    async def aput(
        self, config: RunnableConfig, checkpoint: Checkpoint,
        metadata: CheckpointMetadata, new_versions: ChannelVersions,
    ) -> RunnableConfig:  # fmt: skip
        """Write the new values' blobs and the row in one transaction.

        Raises:
            ThreadMovedOnError: ``one_writer`` is set and the parent is not the newest.

        """
        await self.setup()
        put = Put(self, config, checkpoint, metadata, new_versions)
        async with self.lock:
            if put.look_for_missing:
                async with self.conn.execute(MISSING_BLOBS_SQL, put.known_params()) as cur:
                    put.add_missing(channel for (channel,) in await cur.fetchall())
            await self.conn.executemany(INSERT_BLOB_SQL, put.rows)
            async with self.conn.execute(*put.insert) as cur:
                written = cur.rowcount
            await (self.conn.commit() if written else self.conn.rollback())
        if not written:
            raise await async_sqlite_refused(self, config)
        put.done()
        return saved_config(config, checkpoint)

    def get_next_version(self, current: str | None, channel: None) -> str:
        """A short version (:func:`next_version`) instead of ``AsyncSqliteSaver``'s."""
        return next_version(current)

    async def adelete_thread(self, thread_id: str) -> None:
        """Delete the thread's checkpoints, writes and blobs (one transaction)."""
        await self.setup()
        self.written.forget(str(thread_id))
        async with self.lock:
            for sql in DELETE_THREAD_SQL:
                await self.conn.execute(sql, (str(thread_id),))
            await self.conn.commit()

    async def aget_delta_channel_history(
        self, *, config: RunnableConfig, channels: Sequence[str]
    ) -> Mapping[str, DeltaChannelHistory]:
        """LangGraph's walk over :meth:`aget_tuple` (``AsyncSqliteSaver``'s reads inline)."""
        return await BaseCheckpointSaver.aget_delta_channel_history(
            self, config=config, channels=channels
        )

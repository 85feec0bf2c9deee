"""Open Qdrant Edge shards, one per collection, held while in use and released when idle.

Each collection is a shard directory ``<root>/<quoted name>/`` with its lock file
``<root>/<quoted name>.lock`` (:func:`~grace.retrieval.backends.edge_lock.collection_lock`).
A shard is loaded on first use and kept open while the process keeps using it; after
``idle_release`` seconds without a call it is flushed, compacted if it was written
(``optimize``: a compacted shard loads ~10x faster) and closed, and its lock released — so
a ``grace ask`` waiting at a prompt does not keep other processes out.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from qdrant_edge import EdgeConfig, EdgeShard

from grace.retrieval.backends.edge_lock import collection_lock
from grace.retrieval.store import StoreBusyError
from grace.storage.faults import explain
from grace.storage.file_lock import FileLock

__all__ = ["ShardPool", "collection_dir_name"]

_REBUILD = (
    "the collection's files are damaged: move that directory aside and ingest the documents "
    "again (the default collection re-ingests the bundled sample by itself)"
)

_CONFIG_FILE = "edge_config.json"
"""File Qdrant Edge writes into every shard directory."""


def collection_dir_name(name: str) -> str:
    """File-system-safe directory name of a collection (percent-encoded, never hidden)."""
    quoted = urllib.parse.quote(name, safe="-_")
    return quoted.replace(".", "%2E") if quoted.startswith(".") else quoted


@dataclass
class _Lease:
    lock: FileLock
    shard: EdgeShard | None = None
    last_used: float = 0.0
    written: bool = False
    pending: int = 0
    """Points written since the shard was last compacted."""
    generation: int = 0
    """Bumped at every load and write: caches keyed on it go stale with the shard."""


@dataclass
class ShardPool:
    """The open shards of one store directory.

    Args:
        root: Directory holding one shard directory per collection.
        lock_timeout: Seconds to wait for a collection another process holds.
        idle_release: Seconds of disuse after which a shard is closed and its lock released;
            ``None`` keeps shards open until :meth:`close` (benchmarks, evaluation).
        compact_every: Compact a shard after this many points were written to it (bounds the
            in-memory mutable segment of a long ingestion); ``None``: only when released.

    """

    root: Path
    lock_timeout: float = 30.0
    idle_release: float | None = 2.0
    compact_every: int | None = None
    _leases: dict[str, _Lease] = field(default_factory=dict)
    _mutex: threading.RLock = field(default_factory=threading.RLock)
    _sweeper: threading.Thread | None = None
    _closed: bool = False

    def shard_dir(self, name: str) -> Path:
        """Directory of collection ``name``'s shard."""
        return self.root / collection_dir_name(name)

    def exists(self, name: str) -> bool:
        """Whether collection ``name`` has a shard on disk."""
        return (self.shard_dir(name) / _CONFIG_FILE).is_file()

    def has_vector(self, name: str, vector: str) -> bool:
        """Whether collection ``name`` was created with the dense vector ``vector``."""
        try:
            config = json.loads((self.shard_dir(name) / _CONFIG_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return False
        return vector in (config.get("vectors") or {})

    def names(self) -> list[str]:
        """Collections with a shard on disk, sorted."""
        if not self.root.is_dir():
            return []
        return sorted(
            urllib.parse.unquote(p.name)
            for p in self.root.iterdir()
            if p.is_dir() and (p / _CONFIG_FILE).is_file()
        )

    def generation(self, name: str) -> int:
        """Changes whenever the shard of ``name`` was (re)loaded or written here."""
        lease = self._leases.get(name)
        return -1 if lease is None else lease.generation

    @contextlib.contextmanager
    def use(
        self,
        name: str,
        *,
        create: Callable[[], EdgeConfig] | None = None,
        write: bool = False,
        points: int = 0,
    ) -> Iterator[EdgeShard]:
        """The open shard of ``name`` for one operation (loaded, or created with ``create()``)."""
        with self._mutex:
            if self._closed:
                raise RuntimeError("the document store is closed")
            lease = self._leases.get(name)
            if lease is None:
                lease = _Lease(
                    collection_lock(self.root / f"{collection_dir_name(name)}.lock", name)
                )
                self._leases[name] = lease
            if lease.shard is None:
                self._open(name, lease, create)
            assert lease.shard is not None
            try:
                yield lease.shard
            finally:
                lease.last_used = time.monotonic()
                if write:
                    lease.written = True
                    lease.generation += 1
                    lease.pending += points
            if self.compact_every is not None and lease.pending >= self.compact_every:
                lease.shard.flush()
                lease.shard.optimize()
                lease.pending = 0

    def _open(self, name: str, lease: _Lease, create: Callable[[], EdgeConfig] | None) -> None:
        """Load (or create) the shard of ``name`` under its lock; faults as StorageError."""
        lease.lock.acquire(self.lock_timeout)
        try:
            path = self.shard_dir(name)
            if self.exists(name):
                lease.shard = EdgeShard.load(str(path))
            elif create is not None:
                lease.shard = EdgeShard.create(str(path), create())
            else:
                raise LookupError(name)
        except Exception as exc:
            lease.lock.release()
            if "WouldBlock" in str(exc):  # a process outside GRACE's locking holds the WAL
                raise StoreBusyError(
                    f"collection '{name}' is open in another process ({path}); retry when it exits"
                ) from None
            if isinstance(exc, LookupError | StoreBusyError):
                raise
            raise explain(
                f"cannot open collection '{name}' at", self.shard_dir(name), exc, damaged=_REBUILD
            ) from exc
        lease.generation += 1
        lease.written = False
        self._start_sweeper()

    def release(self, name: str) -> None:
        """Close the shard of ``name`` (flushed and compacted first if written) and drop its lock.

        A shard only read is not flushed: nothing of this process waits in it, and what an
        earlier process left in its write-ahead log stays there, durable (a flush cost a
        read-only ``grace ask`` ≈ 25 ms).
        """
        with self._mutex:
            lease = self._leases.get(name)
            if lease is None or lease.shard is None:
                return
            shard, lease.shard = lease.shard, None
            try:
                if lease.written:
                    shard.flush()
                    shard.optimize()
            finally:
                shard.close()
                lease.lock.release()
                lease.written = False

    def flush(self) -> None:
        """Make every write so far durable (flush open shards to their segments)."""
        with self._mutex:
            for lease in self._leases.values():
                if lease.shard is not None:
                    lease.shard.flush()

    def close(self) -> None:
        """Release every shard. Idempotent."""
        with self._mutex:
            if self._closed:
                return
            try:
                for name in list(self._leases):
                    self.release(name)
            finally:
                self._closed = True

    def _start_sweeper(self) -> None:
        if self.idle_release is None or self._sweeper is not None:
            return
        self._sweeper = threading.Thread(target=self._sweep, name="grace-edge-idle", daemon=True)
        self._sweeper.start()

    def _sweep(self) -> None:
        assert self.idle_release is not None
        interval = max(0.05, self.idle_release / 4)
        while not self._closed:
            time.sleep(interval)
            cutoff = time.monotonic() - self.idle_release
            with self._mutex:
                for name, lease in list(self._leases.items()):
                    if lease.shard is not None and lease.last_used < cutoff and not self._closed:
                        with contextlib.suppress(Exception):  # the next use reports problems
                            self.release(name)

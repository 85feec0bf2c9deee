"""One process at a time per embedded collection: a :class:`~grace.storage.file_lock.FileLock`.

Qdrant Edge opens a shard's write-ahead log exclusively: a second process that loads the same
shard fails (``Can't init WAL: WouldBlock``), whether it wants to read or write. GRACE puts
a lock file next to each shard and takes it before loading. A process that finds the lock
taken waits (a ``grace ask`` needs a shard for milliseconds, and releases it when idle), and
after ``timeout`` seconds gives up with a :class:`~grace.retrieval.store.StoreBusyError`
naming the holder.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

from grace.retrieval.store import StoreBusyError
from grace.storage.file_lock import FileLock

__all__ = ["collection_lock"]


def _busy(collection: str, holder: str, timeout: float) -> StoreBusyError:
    return StoreBusyError(
        f"collection '{collection}' is in use by another GRACE {holder}; "
        f"waited {timeout:g}s. The embedded store serves one process at a time: retry "
        "when it finishes (a `grace ingest` holds the collection until it is done), or "
        "run a Qdrant server for concurrent use (retrieval.backend: server, "
        "retrieval.qdrant_url)."
    )


def collection_lock(path: Path, collection: str) -> FileLock:
    """The lock file of one collection (``<shard dir>.lock``)."""
    return FileLock(path, partial(_busy, collection))

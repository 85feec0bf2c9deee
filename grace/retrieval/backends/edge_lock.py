"""One process at a time per embedded collection: an advisory file lock with its owner's name.

Qdrant Edge opens a shard's write-ahead log exclusively: a second process that loads the same
shard fails (``Can't init WAL: WouldBlock``), whether it wants to read or write. GRACE puts
an ``fcntl`` lock file next to each shard and takes it before loading; the holder writes its
pid and command line into it. A process that finds the lock taken waits (a ``grace ask``
needs a shard for milliseconds, and releases it when idle), and after ``timeout`` seconds
gives up with a :class:`~grace.retrieval.store.StoreBusyError` naming the holder. The kernel
drops the lock when its holder exits — even on SIGKILL — so a crash never leaves it stale.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from grace.retrieval.store import StoreBusyError

__all__ = ["CollectionLock"]

_POLL_SECONDS = 0.05


@dataclass
class CollectionLock:
    """The lock file of one collection (``<shard dir>.lock``)."""

    path: Path
    """The lock file."""
    collection: str
    """Collection name, for messages."""
    _handle: IO[str] | None = None

    @property
    def held(self) -> bool:
        """Whether this process holds the lock."""
        return self._handle is not None

    def acquire(self, timeout: float) -> None:
        """Take the lock, waiting up to ``timeout`` seconds; raise ``StoreBusyError`` after."""
        if self._handle is not None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 - held until release
        deadline = time.monotonic() + max(0.0, timeout)
        while True:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    handle.close()
                    raise StoreBusyError(self._busy_message(timeout)) from None
                time.sleep(_POLL_SECONDS)
        handle.seek(0)
        handle.truncate()
        command = " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]) if sys.argv else ""
        handle.write(f"{os.getpid()} {command[:300]}\n")
        handle.flush()
        self._handle = handle

    def release(self) -> None:
        """Drop the lock (idempotent)."""
        handle, self._handle = self._handle, None
        if handle is not None:
            with contextlib.suppress(OSError):
                handle.seek(0)
                handle.truncate()
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
            handle.close()

    def _busy_message(self, timeout: float) -> str:
        try:
            owner = self.path.read_text(encoding="utf-8").strip()
        except OSError:
            owner = ""
        pid, _, command = owner.partition(" ")
        who = f"process {pid} ({command.strip() or 'unknown command'})" if pid else "a process"
        return (
            f"collection '{self.collection}' is in use by another GRACE {who}; "
            f"waited {timeout:g}s. The embedded store serves one process at a time: retry "
            "when it finishes (a `grace ingest` holds the collection until it is done), or "
            "run a Qdrant server for concurrent use (retrieval.backend: server, "
            "retrieval.qdrant_url)."
        )

"""One writer per thread: a run on a thread holds that thread's lock file until it returns.

Two ``grace resume`` of one paused thread at once would each read the pause and each write a
continuation from it, forking the thread (one reply silently lost). GRACE takes a lock per
thread under ``<data dir>/threads/`` before reading the thread's state and keeps it while the
run goes on; a second run on the same thread is refused at once with
:class:`~grace.errors.ThreadBusyError` naming the holder — it waits for nothing and changes
nothing. The lock covers processes sharing one data directory (the SQLite default); with a
PostgreSQL checkpointer shared by several machines, serialise runs of a thread in the
caller (e.g. the LangGraph server's ``multitask_strategy``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path

from grace.errors import ThreadBusyError
from grace.storage.file_lock import FileLock

__all__ = ["thread_lock"]


def _busy(thread_id: str, holder: str, timeout: float) -> ThreadBusyError:
    return ThreadBusyError(
        f"thread '{thread_id}' is being run by {holder}; nothing was changed — try again "
        "when it finishes (`grace show` then says where it stands)"
    )


@contextmanager
def thread_lock(locks_dir: Path, thread_id: str) -> Iterator[None]:
    """Hold ``thread_id``'s lock for the block, or raise ThreadBusyError if another run has it."""
    # Hashed: a thread id is any string, a file name is not.
    name = hashlib.sha256(thread_id.encode("utf-8")).hexdigest()[:32]
    lock = FileLock(locks_dir / f"{name}.lock", partial(_busy, thread_id))
    lock.acquire(timeout=0.0)
    try:
        yield
    finally:
        lock.release()

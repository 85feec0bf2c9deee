"""An advisory file lock that names its holder: one process at a time per resource.

The holder writes its pid and command line into the lock file, so a process that finds the
lock taken can say who holds it. The kernel drops an ``fcntl`` lock when its holder exits —
even on SIGKILL — so a crash never leaves it stale. Used for embedded collections
(:mod:`grace.retrieval.backends.edge_lock`) and for threads (one writer per thread).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from grace.storage.faults import explain

__all__ = ["FileLock", "holder_of"]

_POLL_SECONDS = 0.05

BusyError = Callable[[str, float], Exception]
"""Builds the error for a lock held by ``holder`` (see :func:`holder_of`) after ``timeout`` s."""


def holder_of(path: Path) -> str:
    """``process 123 (grace ask …)`` from the lock file, or ``a process`` if it says nothing."""
    try:
        owner = path.read_text(encoding="utf-8").strip()
    except OSError:
        owner = ""
    pid, _, command = owner.partition(" ")
    return f"process {pid} ({command.strip() or 'unknown command'})" if pid else "a process"


@dataclass
class FileLock:
    """The lock file ``path``; ``busy`` builds the error raised when it stays taken."""

    path: Path
    """The lock file (its directory is created)."""
    busy: BusyError
    """Error for a lock another process holds: ``busy(holder, timeout)``."""
    _handle: IO[str] | None = None

    @property
    def held(self) -> bool:
        """Whether this process holds the lock."""
        return self._handle is not None

    def acquire(self, timeout: float) -> None:
        """Take the lock, waiting up to ``timeout`` seconds; raise ``busy(…)`` after."""
        if self._handle is not None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            handle = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 - held until release
        except OSError as exc:  # a full disk or a read-only directory: one line naming it
            raise explain("cannot create the lock file", self.path, exc) from None
        deadline = time.monotonic() + max(0.0, timeout)
        while True:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    handle.close()
                    raise self.busy(holder_of(self.path), timeout) from None
                time.sleep(_POLL_SECONDS)
        command = " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]) if sys.argv else ""
        try:  # who holds it, for the others' message: a courtesy a full disk may refuse
            handle.seek(0)
            handle.truncate()
            handle.write(f"{os.getpid()} {command[:300]}\n")
            handle.flush()
        except OSError:
            pass
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

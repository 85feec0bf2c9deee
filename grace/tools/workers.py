"""Daemon threads that run tool calls under a step's timeout, reused from call to call.

``execute`` runs a tool that may hang (a model call, a foreign LangChain tool) in a thread of
its own and waits on it for at most the step's timeout. Starting a new thread for every call
cost about as much as a simple model-backed step's own work (issue 40); :class:`DaemonWorkers`
keeps the threads that finished a call and hands them the next one.
"""

from __future__ import annotations

import contextvars
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

__all__ = ["TOOL_WORKERS", "DaemonWorkers"]

T = TypeVar("T")
_Job = tuple[Future[Any], contextvars.Context, Callable[..., Any], tuple[Any, ...]]


class DaemonWorkers:
    """A pool of daemon threads for calls that may hang.

    :meth:`submit` hands a call to an idle worker, or starts a worker when none is idle, and
    returns the call's ``Future``; the caller waits on it as long as it chooses. A call that
    hangs keeps its worker — the next call gets another — and daemon threads never hold up the
    interpreter's exit, so an abandoned call costs one thread and blocks nothing. A worker
    idle for ``idle_seconds`` ends. Each worker has an inbox of its own: a worker that ends
    has been taken off the idle list first, so no call is ever left in an inbox nobody reads.
    """

    def __init__(self, name: str, idle_seconds: float = 60.0) -> None:
        """Workers named ``name``, each ending after ``idle_seconds`` without a call."""
        self.name, self.idle_seconds = name, idle_seconds
        self._idle: list[queue.SimpleQueue[_Job]] = []
        self._lock = threading.Lock()

    def submit(self, fn: Callable[..., T], *args: Any) -> Future[T]:
        """Run ``fn(*args)`` on a worker, in a copy of the caller's context (callbacks follow)."""
        future: Future[T] = Future()
        job: _Job = (future, contextvars.copy_context(), fn, args)
        with self._lock:
            inbox = self._idle.pop() if self._idle else None
        if inbox is None:
            inbox = queue.SimpleQueue()
            threading.Thread(target=self._work, args=(inbox,), name=self.name, daemon=True).start()
        inbox.put(job)
        return future

    def _work(self, inbox: queue.SimpleQueue[_Job]) -> None:
        """Run the calls handed to ``inbox`` until idle for ``idle_seconds``."""
        while True:
            try:
                future, ctx, fn, args = inbox.get(timeout=self.idle_seconds)
            except queue.Empty:
                with self._lock:
                    if any(q is inbox for q in self._idle):
                        self._idle = [q for q in self._idle if q is not inbox]
                        return
                continue  # taken off the idle list just now: its call is on the way
            try:
                future.set_result(ctx.run(fn, *args))
            except BaseException as exc:  # noqa: BLE001 - handed to the caller
                future.set_exception(exc)
            del future, ctx, fn, args  # hold nothing of a finished call while idle
            with self._lock:
                self._idle.append(inbox)


TOOL_WORKERS = DaemonWorkers("grace-tool")
"""The workers ``execute`` runs its thread-bound tools on (one pool per process)."""

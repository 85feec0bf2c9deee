"""``execute``'s thread-bound tool calls run on reused daemon workers (issue 40).

A worker that finished a call takes the next one; a hung call keeps its worker and the next
call gets another; an idle worker ends; the caller's context follows the call.
"""

from __future__ import annotations

import contextvars
import threading
import time
import uuid
from collections.abc import Callable

import pytest

from grace.tools.workers import DaemonWorkers

WHO = contextvars.ContextVar("who", default="nobody")


def _workers(idle_seconds: float = 60.0) -> DaemonWorkers:
    return DaemonWorkers(f"test-worker-{uuid.uuid4().hex}", idle_seconds)


def _idle(workers: DaemonWorkers) -> int:
    """How many of ``workers`` wait for a call (its idle list: the product never asks)."""
    with workers._lock:
        return len(workers._idle)


def _named(name: str) -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == name]


def test_a_call_returns_its_result_and_its_error() -> None:
    workers = _workers()
    assert workers.submit(lambda a, b: a + b, 2, 3).result(timeout=10) == 5
    with pytest.raises(ZeroDivisionError):
        workers.submit(lambda: 1 / 0).result(timeout=10)


def test_a_finished_worker_takes_the_next_call() -> None:
    workers = _workers()
    first = workers.submit(threading.get_ident).result(timeout=10)
    _wait_until(lambda: _idle(workers) == 1)
    second = workers.submit(threading.get_ident).result(timeout=10)
    assert first == second
    assert len(_named(workers.name)) == 1
    assert all(t.daemon for t in _named(workers.name))


def test_a_hung_call_keeps_its_worker_and_the_next_call_gets_another() -> None:
    workers = _workers()
    release = threading.Event()
    hung = workers.submit(release.wait, 60.0)
    try:
        assert workers.submit(lambda: "next").result(timeout=10) == "next"
        assert not hung.done()
        assert len(_named(workers.name)) == 2
    finally:
        release.set()
    assert hung.result(timeout=10) is True


def test_the_callers_context_follows_the_call() -> None:
    workers = _workers()
    token = WHO.set("caller")
    try:
        assert workers.submit(WHO.get).result(timeout=10) == "caller"
    finally:
        WHO.reset(token)


def test_an_idle_worker_ends() -> None:
    workers = _workers(idle_seconds=0.05)
    workers.submit(lambda: None).result(timeout=10)
    _wait_until(lambda: not _named(workers.name))
    assert _idle(workers) == 0
    assert workers.submit(lambda: "again").result(timeout=10) == "again"  # a new worker


def _wait_until(done: Callable[[], bool], seconds: float = 10.0) -> None:
    """Poll ``done()`` until true (a deadline against a hang, not a speed check)."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "condition never held"
        time.sleep(0.01)

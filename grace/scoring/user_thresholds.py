"""Learned thresholds: read and update the per-user thresholds kept in the LangGraph store.

The graph's store (``runtime.store``: ``compile(store=...)``, or the one
:class:`graph.app.GraceApp` opens) holds each user's learned shift
(:class:`confidence.ThresholdLearner`, adaptive conformal update; method, meaning and
bounds in ``confidence/user_thresholds.py`` and the README). ``confidence`` and ``finalize`` decide
with :func:`learned_thresholds`; ``intervene`` calls :func:`record_outcome` with the score
the person was asked about and their reply, after the reply (never before the interrupt,
so a resumed node does not record twice).

Without a store, or with ``learning.enabled: false``, the configured thresholds apply and
nothing is recorded. A store that fails to answer never fails the run: the configured
thresholds apply and the failure is logged.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar, cast, get_args

from langgraph.runtime import Runtime
from langgraph.store.base import BaseStore

from confidence import Outcome, ThresholdLearner, Thresholds
from grace.context import GraceContext, context_of
from grace.settings import GraceSettings

__all__ = [
    "alearned_thresholds",
    "arecord_outcome",
    "learned_thresholds",
    "learner_for",
    "record_outcome",
    "user_of",
]

log = logging.getLogger(__name__)

_OUTCOMES = frozenset(get_args(Outcome))

T = TypeVar("T")


def user_of(
    settings: GraceSettings, runtime: Runtime[GraceContext] | None, thread_user: str | None = None
) -> str:
    """The run's user: ``GraceContext.user_id``, else the thread's user, else the settings'.

    ``thread_user`` is the user the thread started with (``State.user_id``): LangGraph does
    not keep the context across a resume, so a resume that names no user still learns for
    the person whose run it is.
    """
    return context_of(runtime).user_id or thread_user or settings.user_id


def learner_for(settings: GraceSettings, store: BaseStore) -> ThresholdLearner:
    """A learner over ``store`` with the settings' base thresholds and ``learning`` group."""
    learning = settings.learning
    return ThresholdLearner(
        store,
        settings.confidence.thresholds,
        target_error=learning.target_error,
        step=learning.step,
        max_shift=learning.max_shift,
    )


def _store(settings: GraceSettings, runtime: Runtime[GraceContext] | None) -> BaseStore | None:
    if not settings.learning.enabled or runtime is None:
        return None
    return runtime.store


def learned_thresholds(
    settings: GraceSettings, runtime: Runtime[GraceContext] | None, thread_user: str | None = None
) -> Thresholds:
    """The user's learned thresholds when the graph has a store, else the settings' ones."""
    base = settings.confidence.thresholds
    store = _store(settings, runtime)
    if store is None:
        return base
    try:
        user = user_of(settings, runtime, thread_user)
        return learner_for(settings, store).thresholds_for(user)
    except Exception:  # a store failure must not fail the run: use the configured ones
        log.warning("learned thresholds unavailable; using the configured ones", exc_info=True)
        return base


def record_outcome(
    settings: GraceSettings,
    runtime: Runtime[GraceContext] | None,
    score: float,
    outcome: str,
    *,
    thread_user: str | None = None,
) -> Thresholds | None:
    """Feed the person's reply at an intervention to the threshold learner.

    Args:
        settings: The run's settings (``learning``, the base thresholds).
        runtime: The node's runtime (store and context).
        score: The score the person was asked about (the decision's score).
        outcome: ``accept``, ``edit``, ``response`` or ``ignore``.
        thread_user: The thread's user (``State.user_id``), used when the resume's context
            names none.

    Returns:
        The user's new thresholds, or None when nothing was recorded (no store, learning
        disabled, unknown outcome, or a store failure, which is logged).

    """
    store = _store(settings, runtime)
    if store is None or outcome not in _OUTCOMES:
        return None
    score = min(1.0, max(0.0, score))
    try:
        return learner_for(settings, store).record(
            user_of(settings, runtime, thread_user), score, cast(Outcome, outcome)
        )
    except Exception:  # learning is best effort: the person's reply still takes effect
        log.warning("could not record the intervention outcome", exc_info=True)
        return None


async def _async_or_thread(call: Callable[[], Awaitable[T]], fallback: Callable[[], T]) -> T:
    """The store's async API; a sync-only store (``SqliteStore``) is used in a thread."""
    try:
        return await call()
    except NotImplementedError:
        return await asyncio.to_thread(fallback)


async def alearned_thresholds(
    settings: GraceSettings, runtime: Runtime[GraceContext] | None, thread_user: str | None = None
) -> Thresholds:
    """Async :func:`learned_thresholds` (``store.aget``: nothing blocks the event loop)."""
    base = settings.confidence.thresholds
    store = _store(settings, runtime)
    if store is None:
        return base
    try:
        user = user_of(settings, runtime, thread_user)
        learner = learner_for(settings, store)
        return await _async_or_thread(
            lambda: learner.athresholds_for(user), lambda: learner.thresholds_for(user)
        )
    except Exception:  # a store failure must not fail the run: use the configured ones
        log.warning("learned thresholds unavailable; using the configured ones", exc_info=True)
        return base


async def arecord_outcome(
    settings: GraceSettings,
    runtime: Runtime[GraceContext] | None,
    score: float,
    outcome: str,
    *,
    thread_user: str | None = None,
) -> Thresholds | None:
    """Async :func:`record_outcome` (``store.aget`` / ``aput``)."""
    store = _store(settings, runtime)
    if store is None or outcome not in _OUTCOMES:
        return None
    score = min(1.0, max(0.0, score))
    try:
        learner = learner_for(settings, store)
        user, kind = user_of(settings, runtime, thread_user), cast(Outcome, outcome)
        return await _async_or_thread(
            lambda: learner.arecord(user, score, kind), lambda: learner.record(user, score, kind)
        )
    except Exception:  # learning is best effort: the person's reply still takes effect
        log.warning("could not record the intervention outcome", exc_info=True)
        return None

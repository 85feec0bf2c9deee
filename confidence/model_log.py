"""What the model did during one graph step: failures and structured-output methods.

A model that was refused, timed out, was cut at its token budget or returned output that
did not parse after the fallbacks is a *model failure*: the person must be told so, not
shown a question "the documents could not answer". The code that calls the model (planner,
reader, judge, evaluator, :class:`~confidence.structured.StructuredCall`) reports here with
:func:`report_failure` and :func:`report_method`; whoever runs the step collects the
reports with :func:`recording` (the graph's node driver turns them into the run's notes).
Outside :func:`recording` a report is dropped: library callers keep their return values.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Literal

__all__ = ["ModelEvent", "failures", "recording", "report_failure", "report_method"]


@dataclass(frozen=True)
class ModelEvent:
    """One thing a model call did that the person should know."""

    kind: Literal["failure", "method"]
    """``failure``: the call gave nothing usable; ``method``: a structured-output method."""
    role: str
    """The role of the call: ``plan``, ``answer``, ``rewrite``, ``judge``."""
    detail: str
    """What happened (one line), or the method's name."""


_events: ContextVar[list[ModelEvent] | None] = ContextVar("grace_model_events", default=None)


@contextlib.contextmanager
def recording() -> Iterator[list[ModelEvent]]:
    """Collect the reports made inside the ``with`` block (threads and tasks it starts too).

    The list is shared by reference, so work handed to a thread with a copied context
    (``contextvars.copy_context``) or to an ``asyncio`` task reports into it as well.
    """
    events: list[ModelEvent] = []
    token = _events.set(events)
    try:
        yield events
    finally:
        _events.reset(token)


def report_failure(role: str, detail: str) -> None:
    """Report that the ``role`` call failed (refused, timed out, cut, unparsable)."""
    events = _events.get()
    if events is not None:
        events.append(ModelEvent("failure", role, detail))


def report_method(role: str, detail: str) -> None:
    """Report the structured-output method the ``role`` call used, when worth saying."""
    events = _events.get()
    if events is not None:
        events.append(ModelEvent("method", role, detail))


def failures() -> list[ModelEvent]:
    """The failures reported so far inside the current :func:`recording` (none outside)."""
    return [event for event in _events.get() or () if event.kind == "failure"]

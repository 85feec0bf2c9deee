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
import time
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Literal

__all__ = [
    "ModelBudget",
    "ModelBudgetSpent",
    "ModelEvent",
    "budget_spent",
    "calls_made",
    "failures",
    "model_time_left",
    "recording",
    "report_failure",
    "report_method",
    "timed_out",
]


@dataclass(frozen=True)
class ModelEvent:
    """One thing a model call did that the person should know."""

    kind: Literal["failure", "method"]
    """``failure``: the call gave nothing usable; ``method``: a structured-output method."""
    role: str
    """The role of the call: ``plan``, ``answer``, ``rewrite``, ``judge``."""
    detail: str
    """What happened (one line), or the method's name."""


class ModelBudgetSpent(RuntimeError):
    """No model call was made: the run's model time is spent (or a call timed out)."""


@dataclass
class ModelBudget:
    """The model time of one run (``models.run_budget_seconds``), shared by its steps.

    No model call starts once it is spent: after its deadline, or after a call that timed
    out (a slow server would only time out again). A streamed call is closed at the
    deadline. The run's context carries it (``GraceContext.model_budget``).
    """

    seconds: float
    """The run's model time."""
    deadline: float = field(default=0.0)
    """``time.monotonic()`` when it ends (set by :meth:`start`)."""
    spent: str | None = None
    """Why no further call is made (None: calls may still start)."""

    @classmethod
    def start(cls, seconds: float) -> ModelBudget:
        """A budget of ``seconds`` from now."""
        return cls(seconds=seconds, deadline=time.monotonic() + seconds)

    def left(self) -> float:
        """Seconds left; raises :class:`ModelBudgetSpent` when none are."""
        if self.spent is None and time.monotonic() >= self.deadline:
            self.spent = f"the run's model time of {self.seconds:g} s was spent"
        if self.spent is not None:
            raise ModelBudgetSpent(f"no model call: {self.spent} (models.run_budget_seconds)")
        return self.deadline - time.monotonic()


_events: ContextVar[list[ModelEvent] | None] = ContextVar("grace_model_events", default=None)
_budget: ContextVar[ModelBudget | None] = ContextVar("grace_model_budget", default=None)


@contextlib.contextmanager
def recording(budget: ModelBudget | None = None) -> Iterator[list[ModelEvent]]:
    """Collect the reports made inside the ``with`` block (threads and tasks it starts too).

    The list is shared by reference, so work handed to a thread with a copied context
    (``contextvars.copy_context``) or to an ``asyncio`` task reports into it as well.
    Model calls inside the block keep within ``budget`` (the run's; None: no limit).
    """
    events: list[ModelEvent] = []
    token = _events.set(events)
    budget_token = _budget.set(budget)
    try:
        yield events
    finally:
        _budget.reset(budget_token)
        _events.reset(token)


def model_time_left() -> float | None:
    """Seconds the next model call may take (None: no budget).

    Raises:
        ModelBudgetSpent: the run's model time is spent, or a call timed out.

    """
    budget = _budget.get()
    return None if budget is None else budget.left()


def timed_out(detail: str) -> None:
    """A model call timed out: the run makes no further model call."""
    budget = _budget.get()
    if budget is not None and budget.spent is None:
        budget.spent = f"a model call timed out ({detail})"


def budget_spent() -> bool:
    """Whether the run's model time is spent (no model call may start)."""
    budget = _budget.get()
    if budget is None:
        return False
    try:
        budget.left()
    except ModelBudgetSpent:
        return True
    return False


def calls_made(exc: BaseException) -> int:
    """Model calls a call that failed with ``exc`` made: none when the run's time was spent."""
    return 0 if isinstance(exc, ModelBudgetSpent) else 1


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

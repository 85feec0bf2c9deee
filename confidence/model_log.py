"""What the model did during one graph step: failures and structured-output methods.

A model that was refused, timed out, was cut at its token budget or returned output that
did not parse after the fallbacks is a *model failure*: the person must be told so, not
shown a question "the documents could not answer". The code that calls the model (planner,
reader, judge, evaluator, :class:`~grace.providers.llm.structured.StructuredCall`) is given the
step's :class:`ModelLog` as its ``log`` argument and reports into it; the graph's node
turns the reports into the run's notes. Nothing here is ambient: no context variable, no
process-wide state.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Literal

from pydantic import ValidationError

__all__ = [
    "ModelBudget",
    "ModelBudgetSpent",
    "ModelEvent",
    "ModelLog",
    "calls_made",
    "describe_error",
]

_MAX_ERROR_CHARS = 300


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


@dataclass
class ModelLog:
    """What the model calls of one graph step did, and the run's model time they keep to.

    The node that runs the step makes one (``graph.builder.Node``) and hands it, as the
    ``log`` argument, down to the code that calls the model (planner, reader, judge,
    evaluator, :class:`~grace.providers.llm.structured.StructuredCall`); that code reports into it
    and asks it how much model time is left. The node turns :attr:`events` into the run's
    notes. A caller that passes no log gets a fresh one (:meth:`of`): no limit, and its
    reports are dropped, so library callers keep their return values.
    """

    budget: ModelBudget | None = None
    """The run's model time (None: no limit)."""
    events: list[ModelEvent] = field(default_factory=list)
    """What was reported, in order."""

    @staticmethod
    def of(log: ModelLog | None) -> ModelLog:
        """``log``, or a fresh one (no limit; its reports go nowhere) when None."""
        return ModelLog() if log is None else log

    def time_left(self) -> float | None:
        """Seconds the next model call may take (None: no budget).

        Raises:
            ModelBudgetSpent: the run's model time is spent, or a call timed out.

        """
        return None if self.budget is None else self.budget.left()

    def timed_out(self, detail: str) -> None:
        """A model call timed out: the run makes no further model call."""
        if self.budget is not None and self.budget.spent is None:
            self.budget.spent = f"a model call timed out ({detail})"

    def budget_spent(self) -> bool:
        """Whether the run's model time is spent (no model call may start)."""
        try:
            self.time_left()
        except ModelBudgetSpent:
            return True
        return False

    def failure(self, role: str, detail: str) -> None:
        """Report that the ``role`` call failed (refused, timed out, cut, unparsable)."""
        self.events.append(ModelEvent("failure", role, detail))

    def method(self, role: str, detail: str) -> None:
        """Report the structured-output method the ``role`` call used, when worth saying."""
        self.events.append(ModelEvent("method", role, detail))

    def failures(self) -> list[ModelEvent]:
        """The failures reported so far."""
        return [event for event in self.events if event.kind == "failure"]


def calls_made(exc: BaseException) -> int:
    """Model calls a call that failed with ``exc`` made: none when the run's time was spent."""
    return 0 if isinstance(exc, ModelBudgetSpent) else 1


def describe_error(exc: BaseException) -> str:
    """Return a short one-line description of ``exc`` for feedback and rationales."""
    if isinstance(exc, ValidationError):
        text = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '<root>'}: {err['msg']}"
            for err in exc.errors()
        )
    else:
        text = " ".join(str(exc).split()).split(" For troubleshooting")[0]
    text = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return text if len(text) <= _MAX_ERROR_CHARS else text[: _MAX_ERROR_CHARS - 1] + "…"

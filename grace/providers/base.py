"""Protocols every provider implements, and the small types they exchange."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from confidence.model_log import ModelLog
from grace.schemas import ExecutionPlan, Source, TokenUsage

if TYPE_CHECKING:
    from grace.planning.roles import Role

__all__ = [
    "PlanOutcome",
    "PlanRequest",
    "Planner",
    "Reader",
    "ReaderAnswer",
    "usage_from_message",
]


@dataclass(kw_only=True)
class PlanRequest:
    """What a planner is asked."""

    query: str
    """The question to plan for."""
    collections: Sequence[str]
    """Collections that exist (the planner picks one per search step)."""
    default_collection: str
    """Collection used when a step names none."""
    max_steps: int = 8
    """Upper bound on plan length."""
    feedback: str | None = None
    """Why a previous plan fell short (for replanning)."""
    tools: Mapping[str, str] = field(default_factory=dict)
    """The registered tools a plan may use, name → description (empty: the planner's own)."""
    scope: str | None = None
    """The collection the person named: ``collections`` is that one alone, and every search
    of the validated plan is pinned to it (``None``: the planner chooses among them)."""
    roles: Mapping[str, Role] | None = None
    """The registry's role of each action (which of ``tools`` search; None: the built-in
    actions' alone)."""


@dataclass(kw_only=True)
class PlanOutcome:
    """A planner's result: a plan, or ``None`` with the reason (the caller uses the template)."""

    plan: ExecutionPlan | None
    """The proposed plan (still to be validated)."""
    usage: TokenUsage = field(default_factory=TokenUsage)
    """Model calls and tokens spent."""
    error: str | None = None
    """Why no plan came back."""


@dataclass(kw_only=True)
class ReaderAnswer:
    """A grounded answer to a question from passages."""

    text: str
    """The answer, citing passages as [S1] …; or a statement that the passages lack it."""
    cited: list[str] = field(default_factory=list)
    """Source ids the answer cites."""
    abstained: bool = False
    """True when the passages do not support an answer."""
    support: float | None = None
    """Reader's own 0–1 estimate of how well the passages support the answer (None = unknown)."""
    margin: float | None = None
    """How clearly the chosen sentence beat the runner-up, 0–1 (None = not measured)."""
    usage: TokenUsage = field(default_factory=TokenUsage)
    """Model calls and tokens spent."""


@runtime_checkable
class Planner(Protocol):
    """Turns a question into an :class:`ExecutionPlan`."""

    def plan(self, request: PlanRequest, *, log: ModelLog | None = None) -> PlanOutcome:
        """Propose a plan.

        ``log`` is the graph step's :class:`~confidence.model_log.ModelLog`: a planner that
        calls a model keeps to its model time and reports its failures there.
        """
        ...

    async def aplan(self, request: PlanRequest, *, log: ModelLog | None = None) -> PlanOutcome:
        """Propose a plan without blocking the event loop."""
        ...


@runtime_checkable
class Reader(Protocol):
    """Answers a question from passages, citing them, refusing to invent."""

    def answer(
        self,
        question: str,
        passages: Sequence[Source],
        *,
        feedback: str | None = None,
        log: ModelLog | None = None,
    ) -> ReaderAnswer:
        """Answer from the passages only (``log``: as for :meth:`Planner.plan`)."""
        ...

    async def aanswer(
        self,
        question: str,
        passages: Sequence[Source],
        *,
        feedback: str | None = None,
        log: ModelLog | None = None,
    ) -> ReaderAnswer:
        """Answer without blocking the event loop."""
        ...


def usage_from_message(message: Any) -> TokenUsage:
    """Token usage of one chat-model reply (``usage_metadata`` when the provider reports it)."""
    meta = getattr(message, "usage_metadata", None) or {}
    return TokenUsage(
        model_calls=1,
        input_tokens=int(meta.get("input_tokens", 0) or 0),
        output_tokens=int(meta.get("output_tokens", 0) or 0),
    )

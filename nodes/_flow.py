"""The one sync/async mechanism of the nodes: logic written once, as a generator of needs.

A node's logic is a generator that yields what it needs from the outside world — a
:class:`Need`: a planner, judge or evaluator call, a tool run, the store's collections, the
user's thresholds — and receives the answer: ``judgement = yield from JudgeCall(q, result)``
(typed: a ``Need[T]`` answers a ``T``). Each need knows how to be served both ways:
:meth:`Need.serve` with the sync APIs (``plan``, ``judge``, ``run`` …) and :meth:`Need.aserve`
with the async ones (``aplan``, ``ajudge``, ``arun`` …). :func:`drive` runs a logic for
``invoke`` / ``stream``, :func:`adrive` for ``ainvoke`` / ``astream`` — so the async node
awaits instead of blocking the event loop, and the two paths cannot drift apart.
:func:`sync_node` and :func:`async_node` turn a logic into the two node functions the graph
binds (docs/architecture.md §7 says why this and not async-only nodes).

An exception raised while serving a need is thrown into the generator at its ``yield``, so
the logic's own ``try`` / ``except`` around a call behaves exactly as around a direct call.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Generator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from langgraph.runtime import Runtime

from confidence import AnswerJudgement, EvaluationResult, Thresholds
from confidence.model_log import recording
from grace.context import GraceContext
from grace.model_notes import with_model_notes
from grace.providers.base import PlanOutcome, PlanRequest
from grace.providers.judge_passages import judge_passage
from grace.schemas import StepResult, ToolResult
from grace.services import Services
from grace.state import State
from grace.tools import ToolCall
from nodes.common import aservices_for, context_of, services_for

__all__ = [
    "Flow",
    "JudgeCall",
    "ListCollections",
    "Logic",
    "Need",
    "PlanCall",
    "RecordOutcome",
    "ResolveRequested",
    "ScoreCall",
    "ThresholdsFor",
    "ToolRun",
    "adrive",
    "async_node",
    "drive",
    "sync_node",
]

T = TypeVar("T")
_Runtime = Runtime[GraceContext] | None


class Need(Generic[T]):
    """A request of a node's logic to its driver, answered by a ``T``."""

    def serve(self, services: Services, runtime: _Runtime) -> T:
        """Answer with the sync APIs."""
        raise NotImplementedError

    async def aserve(self, services: Services, runtime: _Runtime) -> T:
        """Answer with the async APIs (never blocking the event loop)."""
        raise NotImplementedError

    def __iter__(self) -> Generator[Need[Any], Any, T]:
        """``answer = yield from need``: hand the need to the driver, get its answer."""
        answer: T = yield self
        return answer


Flow = Generator[Need[Any], Any, T]
"""A node's logic: yields needs, receives their answers, returns its result."""
Logic = Callable[[State, Runtime[GraceContext], Services], Flow[dict[str, Any]]]
"""A node's logic on the state, the run's runtime and services; returns the node's update."""


def _passages(result: StepResult) -> list[str]:
    # Titles first, the person's reply labelled (docs/architecture.md §5).
    return [judge_passage(s) for s in result.sources]


@dataclass(frozen=True)
class JudgeCall(Need[AnswerJudgement]):
    """The judge's verdict on ``result``'s answer to ``question``."""

    question: str
    result: StepResult

    def serve(self, services: Services, runtime: _Runtime) -> AnswerJudgement:
        """``services.judge.judge``."""
        return services.judge.judge(self.question, self.result.output, _passages(self.result))

    async def aserve(self, services: Services, runtime: _Runtime) -> AnswerJudgement:
        """``services.judge.ajudge``."""
        passages = _passages(self.result)
        return await services.judge.ajudge(self.question, self.result.output, passages)


@dataclass(frozen=True)
class ScoreCall(Need[EvaluationResult]):
    """The evaluator's ``scoring`` evaluation of ``result``'s answer."""

    question: str
    result: StepResult

    def serve(self, services: Services, runtime: _Runtime) -> EvaluationResult:
        """``services.evaluator.evaluate_scoring``."""
        passages = _passages(self.result)
        return services.evaluator.evaluate_scoring(self.question, self.result.output, passages)

    async def aserve(self, services: Services, runtime: _Runtime) -> EvaluationResult:
        """``services.evaluator.aevaluate_scoring``."""
        passages = _passages(self.result)
        evaluator = services.evaluator
        return await evaluator.aevaluate_scoring(self.question, self.result.output, passages)


@dataclass(frozen=True)
class ToolRun(Need[ToolResult]):
    """The registered tool ``action`` run on ``call``."""

    action: str
    call: ToolCall

    def serve(self, services: Services, runtime: _Runtime) -> ToolResult:
        """The tool's ``run``."""
        env = services.tool_env(context_of(runtime))
        return services.tools.get(self.action).run(self.call, env)

    async def aserve(self, services: Services, runtime: _Runtime) -> ToolResult:
        """The tool's ``arun``."""
        env = services.tool_env(context_of(runtime))
        return await services.tools.get(self.action).arun(self.call, env)


@dataclass(frozen=True)
class ThresholdsFor(Need[Thresholds]):
    """The thresholds in force for ``thread_user`` (learned ones when a store is attached)."""

    thread_user: str | None

    def serve(self, services: Services, runtime: _Runtime) -> Thresholds:
        """``store.get``."""
        from nodes.learning import learned_thresholds

        return learned_thresholds(services, runtime, self.thread_user)

    async def aserve(self, services: Services, runtime: _Runtime) -> Thresholds:
        """``store.aget``."""
        from nodes.learning import alearned_thresholds

        return await alearned_thresholds(services, runtime, self.thread_user)


@dataclass(frozen=True)
class PlanCall(Need[PlanOutcome]):
    """The planner's proposal for ``request``."""

    request: PlanRequest

    def serve(self, services: Services, runtime: _Runtime) -> PlanOutcome:
        """``planner.plan``."""
        return services.planner.plan(self.request)

    async def aserve(self, services: Services, runtime: _Runtime) -> PlanOutcome:
        """``planner.aplan``."""
        return await services.planner.aplan(self.request)


@dataclass(frozen=True)
class ListCollections(Need[list[str]]):
    """The store's collections."""

    def serve(self, services: Services, runtime: _Runtime) -> list[str]:
        """``store.list_collections``."""
        return services.store.list_collections()

    async def aserve(self, services: Services, runtime: _Runtime) -> list[str]:
        """``store.list_collections`` in a worker thread."""
        return await asyncio.to_thread(services.store.list_collections)


@dataclass(frozen=True)
class ResolveRequested(Need[bool]):
    """Whether a client ended the pause with ``Command(goto=END)`` and no reply."""

    def serve(self, services: Services, runtime: _Runtime) -> bool:
        """Read the paused checkpoint with the sync checkpointer API."""
        from grace.hitl_resolve import resolve_requested

        return resolve_requested()

    async def aserve(self, services: Services, runtime: _Runtime) -> bool:
        """Read the paused checkpoint with the async checkpointer API."""
        from grace.hitl_resolve import aresolve_requested

        return await aresolve_requested()


@dataclass(frozen=True)
class RecordOutcome(Need[None]):
    """Record the person's reply for the user's learned thresholds (no-op without a store)."""

    thread_user: str | None
    score: float
    reply_type: str

    def serve(self, services: Services, runtime: _Runtime) -> None:
        """``store.put``."""
        from nodes.learning import record_outcome

        record_outcome(services, runtime, self.score, self.reply_type, thread_user=self.thread_user)

    async def aserve(self, services: Services, runtime: _Runtime) -> None:
        """``store.aput``."""
        from nodes.learning import arecord_outcome

        await arecord_outcome(
            services, runtime, self.score, self.reply_type, thread_user=self.thread_user
        )


def drive(flow: Flow[T], services: Services, runtime: _Runtime) -> T:
    """Run ``flow`` to its result, serving its needs with the sync APIs."""
    try:
        need = next(flow)
        while True:
            try:
                answer = need.serve(services, runtime)
            except Exception as exc:  # noqa: BLE001 - raised at the flow's yield
                need = flow.throw(exc)
            else:
                need = flow.send(answer)
    except StopIteration as done:
        result: T = done.value
        return result


async def adrive(flow: Flow[T], services: Services, runtime: _Runtime) -> T:
    """Run ``flow`` to its result, awaiting its needs with the async APIs."""
    try:
        need = next(flow)
        while True:
            try:
                answer = await need.aserve(services, runtime)
            except Exception as exc:  # noqa: BLE001 - raised at the flow's yield
                need = flow.throw(exc)
            else:
                need = flow.send(answer)
    except StopIteration as done:
        result: T = done.value
        return result


def sync_node(logic: Logic) -> Callable[[State, Runtime[GraceContext]], dict[str, Any]]:
    """The node ``invoke`` / ``stream`` call: ``logic`` driven with the sync APIs."""

    def node(state: State, runtime: Runtime[GraceContext]) -> dict[str, Any]:
        services = services_for(runtime)
        with recording() as events:  # model failures and methods become the run's notes
            update = drive(logic(state, runtime, services), services, runtime)
        return with_model_notes(update, events, state.notes)

    node.__doc__ = logic.__doc__
    return node


def async_node(
    logic: Logic,
) -> Callable[[State, Runtime[GraceContext]], Awaitable[dict[str, Any]]]:
    """The node ``ainvoke`` / ``astream`` await: ``logic`` driven with the async APIs."""

    async def node(state: State, runtime: Runtime[GraceContext]) -> dict[str, Any]:
        services = await aservices_for(runtime)
        with recording() as events:
            update = await adrive(logic(state, runtime, services), services, runtime)
        return with_model_notes(update, events, state.notes)

    node.__doc__ = logic.__doc__
    return node

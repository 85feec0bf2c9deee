"""One node logic for ``invoke`` and ``ainvoke``: generators that yield their I/O.

A node's logic is written once as a generator that yields what it needs from the outside
world (a :data:`Need`: a judge call, an evaluator call, a tool run, the user's thresholds)
and receives the answer. :func:`drive` serves it with the sync APIs (``judge``,
``evaluate_scoring``, ``run``, ``store.get``), :func:`adrive` with the async ones
(``ajudge``, ``aevaluate_scoring``, ``arun``, ``store.aget``), so the async node awaits
instead of blocking the event loop and the two paths cannot drift apart. An exception
raised while serving a need is thrown into the generator at its ``yield``, so the logic's
own ``try`` / ``except`` around a call behaves exactly as around a direct call.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any, TypeVar

from langgraph.runtime import Runtime

from grace.context import GraceContext
from grace.providers.judge_passages import judge_passage
from grace.schemas import StepResult
from grace.services import Services
from grace.tools import ToolCall
from nodes.common import context_of

__all__ = ["Flow", "JudgeCall", "Need", "ScoreCall", "ThresholdsFor", "ToolRun", "adrive", "drive"]

T = TypeVar("T")


@dataclass(frozen=True)
class JudgeCall:
    """``services.judge.judge`` / ``ajudge`` on ``result``'s answer → ``AnswerJudgement``."""

    question: str
    result: StepResult


@dataclass(frozen=True)
class ScoreCall:
    """``services.evaluator.evaluate_scoring`` / ``aevaluate_scoring`` → ``EvaluationResult``."""

    question: str
    result: StepResult


@dataclass(frozen=True)
class ToolRun:
    """The registered tool ``action``'s ``run`` / ``arun`` on ``call`` → ``ToolResult``."""

    action: str
    call: ToolCall


@dataclass(frozen=True)
class ThresholdsFor:
    """The user's learned thresholds (``store.get`` / ``aget``) → ``Thresholds``."""

    thread_user: str | None


Need = JudgeCall | ScoreCall | ToolRun | ThresholdsFor
"""What a node's logic asks its driver for."""
Flow = Generator[Need, Any, T]
"""A node's logic: yields needs, receives their answers, returns its result."""


def _passages(result: StepResult) -> list[str]:
    # Titles first, the person's reply labelled (docs/architecture.md §5).
    return [judge_passage(s) for s in result.sources]


def _serve(services: Services, runtime: Runtime[GraceContext] | None, need: Need) -> Any:
    if isinstance(need, JudgeCall):
        return services.judge.judge(need.question, need.result.output, _passages(need.result))
    if isinstance(need, ScoreCall):
        return services.evaluator.evaluate_scoring(
            need.question, need.result.output, _passages(need.result)
        )
    if isinstance(need, ToolRun):
        tool = services.tools.get(need.action)
        return tool.run(need.call, services.tool_env(context_of(runtime)))
    from nodes.learning import learned_thresholds

    return learned_thresholds(services, runtime, need.thread_user)


async def _aserve(services: Services, runtime: Runtime[GraceContext] | None, need: Need) -> Any:
    if isinstance(need, JudgeCall):
        return await services.judge.ajudge(
            need.question, need.result.output, _passages(need.result)
        )
    if isinstance(need, ScoreCall):
        return await services.evaluator.aevaluate_scoring(
            need.question, need.result.output, _passages(need.result)
        )
    if isinstance(need, ToolRun):
        tool = services.tools.get(need.action)
        return await tool.arun(need.call, services.tool_env(context_of(runtime)))
    from nodes.learning import alearned_thresholds

    return await alearned_thresholds(services, runtime, need.thread_user)


def drive(flow: Flow[T], services: Services, runtime: Runtime[GraceContext] | None) -> T:
    """Run ``flow`` to its result, serving its needs with the sync APIs."""
    try:
        need = next(flow)
        while True:
            try:
                answer = _serve(services, runtime, need)
            except Exception as exc:  # noqa: BLE001 - raised at the flow's yield
                need = flow.throw(exc)
            else:
                need = flow.send(answer)
    except StopIteration as done:
        result: T = done.value
        return result


async def adrive(flow: Flow[T], services: Services, runtime: Runtime[GraceContext] | None) -> T:
    """Run ``flow`` to its result, awaiting its needs with the async APIs."""
    try:
        need = next(flow)
        while True:
            try:
                answer = await _aserve(services, runtime, need)
            except Exception as exc:  # noqa: BLE001 - raised at the flow's yield
                need = flow.throw(exc)
            else:
                need = flow.send(answer)
    except StopIteration as done:
        result: T = done.value
        return result

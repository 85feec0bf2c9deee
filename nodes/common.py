"""Helpers shared by the nodes: the run's question, context defaults, the final step."""

from __future__ import annotations

import asyncio

from langchain_core.messages import HumanMessage
from langgraph.runtime import Runtime

from grace.context import GraceContext
from grace.schemas import ExecutionPlan, PlanStep, StepResult, StepStatus
from grace.services import LazyServices, Services, ServicesSource
from grace.state import State
from grace.tools.roles import is_search

__all__ = [
    "EmptyQuestionError",
    "InvalidQuestionError",
    "answer_step",
    "aservices_for",
    "context_of",
    "pending_steps",
    "question_of",
    "scope_of",
    "services_for",
    "unanswered_message",
    "validate_question",
]


class InvalidQuestionError(ValueError):
    """The question is empty, too long or not text."""


class EmptyQuestionError(InvalidQuestionError):
    """The question is empty (or only white space)."""


def context_of(runtime: Runtime[GraceContext] | None) -> GraceContext:
    """The run's context, or the defaults when none was given."""
    ctx = runtime.context if runtime is not None else None
    return ctx if isinstance(ctx, GraceContext) else GraceContext()


def scope_of(state: State, runtime: Runtime[GraceContext] | None) -> str | None:
    """The collection the run is confined to: the one its context names, else the thread's.

    A thread keeps the collection it was asked about through every replan and resume (a
    resume's context usually names none); ``None``: the planner chooses among them.
    """
    return context_of(runtime).collection or state.collection


def unanswered_message(state: State) -> str | None:
    """The text of a human message nobody has answered yet (the last message), else None."""
    last = state.messages[-1] if state.messages else None
    if not isinstance(last, HumanMessage):
        return None
    return last.text if hasattr(last, "text") else str(last.content)


def question_of(state: State, max_chars: int) -> str:
    """The turn's question, validated.

    A chat turn brings a human message GRACE has not answered (Studio, Agent Chat UI); a
    ``{"query": …}`` input sets ``query``. The message wins because on a thread's second
    chat turn ``query`` still holds the first turn's question.
    """
    message = unanswered_message(state)
    return validate_question(message if message is not None else state.query, max_chars)


def validate_question(query: object, max_chars: int) -> str:
    """Return the stripped question, or raise :class:`InvalidQuestionError` naming the problem."""
    if not isinstance(query, str):
        raise InvalidQuestionError(f"the question must be text, got {type(query).__name__}")
    query = query.strip()
    if not query:
        raise EmptyQuestionError("the question is empty: pass {'query': '...'} or a message")
    if len(query) > max_chars:
        raise InvalidQuestionError(
            f"the question is {len(query)} characters, over the limit of {max_chars} "
            "(setting run.max_question_chars)"
        )
    try:
        query.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidQuestionError("the question is not valid UTF-8 text") from None
    if "\ufffd" in query:
        raise InvalidQuestionError("the question is not valid UTF-8 text (it contains U+FFFD)")
    return query


def answer_step(plan: ExecutionPlan) -> PlanStep | None:
    """The step whose output is the answer: the last non-search step nothing depends on."""
    depended = {d for s in plan.steps for d in s.depends_on}
    finals = [s for s in plan.steps if s.step_id not in depended and not is_search(s.action)]
    return finals[-1] if finals else None


def pending_steps(plan: ExecutionPlan | None, results: dict[str, StepResult]) -> list[PlanStep]:
    """Plan steps without a result yet."""
    if plan is None:
        return []
    return [s for s in plan.steps if s.step_id not in results]


def is_done(result: StepResult | None) -> bool:
    """Whether a result counts as completed (its output may be used)."""
    return result is not None and result.status in (StepStatus.SUCCESS, StepStatus.PARTIAL)


def services_for(runtime: Runtime[GraceContext] | None, services: ServicesSource) -> Services:
    """The run's services: those the graph factory bound, with the chat model the run names.

    ``services`` are those given to ``graph.builder.make_graph`` (or the graph's own
    :class:`~grace.services.LazyServices`, built here on first use); nothing else is consulted.
    """
    base = services.get() if isinstance(services, LazyServices) else services
    return base.with_model(context_of(runtime).model)


async def aservices_for(
    runtime: Runtime[GraceContext] | None, services: ServicesSource
) -> Services:
    """:func:`services_for` for async nodes.

    Built in a worker thread the first time: opening the store (and ingesting the sample
    corpus), or building another model's planner and reader, must not block the event loop.
    """
    base = services.ready() if isinstance(services, LazyServices) else services
    ready = base.ready_with_model(context_of(runtime).model) if base else None
    if ready is not None:
        return ready
    return await asyncio.to_thread(services_for, runtime, services)

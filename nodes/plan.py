"""``plan``: turn the question into a validated :class:`ExecutionPlan`."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage
from langgraph.runtime import Runtime
from langgraph.types import Overwrite

from confidence.model_log import ModelLog
from grace.context import GraceContext, context_of
from grace.planning.followup import astandalone, rewrite_note, standalone
from grace.providers.base import PlanOutcome, PlanRequest
from grace.providers.generation import ReplyLimits
from grace.providers.llm.streaming import Budget
from grace.services import Services, ServicesSource, aservices_for, services_for
from grace.state import State, new_turn
from nodes.common import (
    finish_plan,
    plan_request,
    question_of,
    scope_of,
    unanswered_message,
)

__all__ = ["aplan", "plan"]


def _update(
    state: State,
    services: Services,
    ctx: GraceContext,
    request: PlanRequest,
    outcome: PlanOutcome,
    asked: str,
) -> dict[str, Any]:
    budget = ctx.max_replans
    turn = new_turn(state)
    update = {
        **turn,
        "query": request.query,
        "plan": finish_plan(services, request, outcome),
        "usage": Overwrite(outcome.usage) if turn else outcome.usage,
        "replan_budget": services.settings.run.max_replans if budget is None else budget,
        "collection": request.scope,
    }
    if unanswered_message(state) is None:  # a {"query": …} input: the transcript gets it too
        update["messages"] = [HumanMessage(asked)]
    if request.query != asked:
        notes = update.get("notes")
        kept = list(notes.value) if isinstance(notes, Overwrite) else []
        update["notes"] = Overwrite([*kept, rewrite_note(asked, request.query)])
    return update


def _rewriter(services: Services) -> tuple[BaseChatModel | None, Budget | None]:
    """The model that rewrites follow-ups and how its call streams (None, None offline).

    The model is the one that answers; its call streams within the answer's budget,
    without the answer's stop sequences.
    """
    model = getattr(services.reader, "model", None)
    if not isinstance(model, BaseChatModel):
        return None, None
    limits = getattr(services.reader, "limits", None)
    budget = limits.budget("answer", stop=False) if isinstance(limits, ReplyLimits) else None
    return model, budget


def plan(
    state: State, runtime: Runtime[GraceContext], services: ServicesSource, log: ModelLog
) -> dict[str, Any]:
    """Plan the run's question: a follow-up made standalone, then the planner's proposal.

    Offline the follow-up rule (:mod:`grace.planning.followup`); with a chat model one rewrite call,
    made only when the question needs the conversation.
    """
    services = services_for(runtime, services)
    ctx = context_of(runtime)
    asked = question_of(state, services.settings.run.max_question_chars)
    last = unanswered_message(state) is not None
    rewritten = standalone(asked, state.messages, last, *_rewriter(services), log)
    request = plan_request(services, ctx, rewritten.question, scope=scope_of(state, runtime))
    outcome = services.planner.plan(request, log=log)
    outcome = replace(outcome, usage=outcome.usage + rewritten.usage)
    return _update(state, services, ctx, request, outcome, asked)


async def aplan(
    state: State, runtime: Runtime[GraceContext], services: ServicesSource, log: ModelLog
) -> dict[str, Any]:
    """Async :func:`plan` (``planner.aplan``; the store listed off the event loop)."""
    services = await aservices_for(runtime, services)
    ctx = context_of(runtime)
    asked = question_of(state, services.settings.run.max_question_chars)
    last = unanswered_message(state) is not None
    rewritten = await astandalone(asked, state.messages, last, *_rewriter(services), log)
    collections = await asyncio.to_thread(services.store.list_collections)
    request = plan_request(
        services, ctx, rewritten.question, collections=collections, scope=scope_of(state, runtime)
    )
    outcome = await services.planner.aplan(request, log=log)
    outcome = replace(outcome, usage=outcome.usage + rewritten.usage)
    return _update(state, services, ctx, request, outcome, asked)

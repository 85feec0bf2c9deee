"""``plan``: turn the question into a validated :class:`ExecutionPlan`."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from langchain_core.messages import HumanMessage
from langgraph.runtime import Runtime
from langgraph.store.base import BaseStore
from langgraph.types import Overwrite

from confidence.model_log import ModelLog
from grace.context import GraceContext, context_of
from grace.planning.followup import rewrite_note
from grace.providers.base import PlanOutcome, PlanRequest
from grace.providers.followup import astandalone, standalone
from grace.services import Services, ServicesSource, aservices_for, services_for
from grace.state import State, new_turn
from grace.storage.transcript import Moved, turns_to_move
from nodes.common import (
    finish_plan,
    plan_request,
    question_of,
    scope_of,
    unanswered_message,
)

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from grace.providers.llm.streaming import Budget

__all__ = ["aplan", "plan"]

logger = logging.getLogger(__name__)


def _update(
    state: State,
    services: Services,
    ctx: GraceContext,
    request: PlanRequest,
    outcome: PlanOutcome,
    asked: str,
    moved: Moved | None = None,
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
    if moved is not None:  # older turns went to the store: out of state (RemoveMessage)
        update.update(moved.update())
    if unanswered_message(state) is None:  # a {"query": …} input: the transcript gets it too
        update["messages"] = [*update.get("messages", []), HumanMessage(asked)]
    if request.query != asked:
        notes = update.get("notes")
        kept = list(notes.value) if isinstance(notes, Overwrite) else []
        update["notes"] = Overwrite([*kept, rewrite_note(asked, request.query)])
    return update


def _to_move(
    state: State, runtime: Runtime[GraceContext], services: Services
) -> tuple[Moved, BaseStore, str] | None:
    """The turns beyond ``checkpoint.turns_in_state``, the store and the thread (None: none).

    Nothing moves without a store or a thread id (a graph compiled without a store).
    """
    info = runtime.execution_info
    thread = info.thread_id if info is not None else None
    if runtime.store is None or not thread:
        return None
    keep = services.settings.checkpoint.turns_in_state
    last = unanswered_message(state) is not None
    moved = turns_to_move(state.messages, last, keep, state.archived_turns)
    return None if moved is None else (moved, runtime.store, thread)


def _move(state: State, runtime: Runtime[GraceContext], services: Services) -> Moved | None:
    """Write the turns to move to the store; a store that fails keeps them in state."""
    found = _to_move(state, runtime, services)
    if found is None:
        return None
    moved, store, thread = found
    try:
        moved.put(store, thread)
    except Exception:  # noqa: BLE001 - nothing is lost: the turns stay in state
        logger.warning("earlier turns not moved to the store; kept in state", exc_info=True)
        return None
    return moved


async def _amove(state: State, runtime: Runtime[GraceContext], services: Services) -> Moved | None:
    """Async :func:`_move`."""
    found = _to_move(state, runtime, services)
    if found is None:
        return None
    moved, store, thread = found
    try:
        await moved.aput(store, thread)
    except Exception:  # noqa: BLE001 - nothing is lost: the turns stay in state
        logger.warning("earlier turns not moved to the store; kept in state", exc_info=True)
        return None
    return moved


def _rewriter(services: Services) -> tuple[BaseChatModel | None, Budget | None]:
    """The model that rewrites follow-ups and how its call streams (None, None offline).

    The model is the one that answers; its call streams within the answer's budget,
    without the answer's stop sequences.
    """
    model = getattr(services.reader, "model", None)
    if model is None:
        return None, None
    from langchain_core.language_models import BaseChatModel  # only with a model: lazy

    from grace.providers.generation import ReplyLimits

    if not isinstance(model, BaseChatModel):
        return None, None
    limits = getattr(services.reader, "limits", None)
    budget = limits.budget("answer", stop=False) if isinstance(limits, ReplyLimits) else None
    return model, budget


def plan(
    state: State, runtime: Runtime[GraceContext], services: ServicesSource, log: ModelLog
) -> dict[str, Any]:
    """Plan the run's question: a follow-up made standalone, then the planner's proposal.

    Offline the follow-up rule (:mod:`grace.planning.followup`); with a chat model one rewrite
    call (:mod:`grace.providers.followup`), made only when the question needs the conversation.
    """
    services = services_for(runtime, services)
    ctx = context_of(runtime)
    asked = question_of(state, services.settings.run.max_question_chars)
    last = unanswered_message(state) is not None
    rewritten = standalone(asked, state.messages, last, *_rewriter(services), log)
    request = plan_request(services, ctx, rewritten.question, scope=scope_of(state, runtime))
    outcome = services.planner.plan(request, log=log)
    outcome = replace(outcome, usage=outcome.usage + rewritten.usage)
    moved = _move(state, runtime, services)
    return _update(state, services, ctx, request, outcome, asked, moved)


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
    moved = await _amove(state, runtime, services)
    return _update(state, services, ctx, request, outcome, asked, moved)

"""``plan``: turn the question into a validated :class:`ExecutionPlan`."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from grace.context import GraceContext
from grace.events import emit
from grace.plan_validation import validate_plan
from grace.planning import template_plan
from grace.providers.base import PlanOutcome, PlanRequest
from grace.schemas import ExecutionPlan
from grace.services import Services
from grace.state import State
from nodes.common import context_of, question_of, services_for

__all__ = ["finish_plan", "plan", "plan_request"]


def plan_request(
    services: Services, ctx: GraceContext, query: str, feedback: str | None = None
) -> PlanRequest:
    """The planner's request for ``query`` with the collections that exist."""
    default = ctx.collection or services.settings.retrieval.collection
    return PlanRequest(
        query=query,
        collections=services.store.list_collections() or [default],
        default_collection=default,
        max_steps=services.settings.run.max_steps,
        feedback=feedback,
    )


def finish_plan(services: Services, request: PlanRequest, outcome: PlanOutcome) -> ExecutionPlan:
    """Validate the proposed plan (or fall back to the template) and emit ``plan_ready``."""
    if outcome.plan is None:
        plan = template_plan(request.query, request.default_collection)
        if outcome.error:
            plan.repairs.append(outcome.error)
    else:
        plan = validate_plan(
            outcome.plan,
            actions=services.tools.names(),
            collections=request.collections,
            default_collection=request.default_collection,
            max_steps=request.max_steps,
        )
    emit(
        "plan_ready",
        plan_id=plan.plan_id,
        origin=plan.origin,
        steps=[
            {"step_id": s.step_id, "action": s.action, "query": s.query, "depends_on": s.depends_on}
            for s in plan.steps
        ],
        repairs=plan.repairs,
    )
    return plan


def plan(state: State, runtime: Runtime[GraceContext]) -> dict[str, Any]:
    """Plan the run's question."""
    services = services_for(runtime)
    ctx = context_of(runtime)
    query = question_of(state, services.settings.run.max_question_chars)
    request = plan_request(services, ctx, query)
    outcome = services.planner.plan(request)
    budget = ctx.max_replans
    return {
        "query": query,
        "plan": finish_plan(services, request, outcome),
        "usage": outcome.usage,
        "replan_budget": services.settings.run.max_replans if budget is None else budget,
    }

"""``replan``: a new plan after a failure, a low score or a person's edit / response.

Strategies (the choice and its reason are recorded in ``state.replans`` and streamed):

- ``partial``: keep every completed search, regenerate the rest (failed searches are retried
  with a fresh plan for their queries; the answer step is rebuilt on kept + new passages);
- ``full``: a new plan for a new or reformulated question (the person's edit);
- ``fallback``: switch a failed step to its declared fallback action.

New step ids carry the round (``r1-s1``) so ids stay unique and completed results stay valid.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from grace.context import GraceContext
from grace.events import emit
from grace.schemas import ExecutionPlan, PlanStep, ReplanRecord, StepStatus
from grace.services import Services
from grace.state import State
from nodes.common import answer_step, context_of, is_done, services_for
from nodes.plan import finish_plan, plan_request

__all__ = ["replan"]


def _prefixed(plan: ExecutionPlan, prefix: str) -> list[PlanStep]:
    mapping = {s.step_id: f"{prefix}{s.step_id}" for s in plan.steps}
    return [
        s.model_copy(
            update={"step_id": mapping[s.step_id], "depends_on": [mapping[d] for d in s.depends_on]}
        )
        for s in plan.steps
    ]


def _fresh_plan(
    services: Services, runtime: Runtime[GraceContext], query: str, feedback: str
) -> ExecutionPlan:
    request = plan_request(services, context_of(runtime), query, feedback)
    return finish_plan(services, request, services.planner.plan(request))


def replan(state: State, runtime: Runtime[GraceContext]) -> dict[str, Any]:
    """Build the next plan and record why."""
    services = services_for(runtime)
    old = state.plan
    request = state.replan_request
    assert old is not None and request is not None, "replan needs a plan and a reason"
    round_no = state.replan_count + 1
    prefix = f"r{round_no}-"
    final = answer_step(old)
    kept = [
        s
        for s in old.steps
        if is_done(state.results.get(s.step_id))
        and (final is None or s.step_id != final.step_id)
        and s.action == "rag_search"
    ]
    failed = [
        s
        for s in old.steps
        if (r := state.results.get(s.step_id)) is not None and r.status == StepStatus.FAILED
    ]
    query = old.original_query
    if request.trigger == "human_edit":
        strategy, query = "full", request.detail
        reason = "the person rewrote the question: new plan for it"
        new_plan = _fresh_plan(services, runtime, query, reason)
        steps, kept = _prefixed(new_plan, prefix), []
    elif request.trigger == "step_failed" and any(
        s.fallback and not state.results[s.step_id].used_fallback for s in failed
    ):
        strategy = "fallback"
        reason = "failed steps switch to their declared fallback actions"
        switched = {s.step_id for s in failed if s.fallback}
        steps = [
            s.model_copy(
                update={"step_id": f"{prefix}{s.step_id}", "action": s.fallback, "fallback": None}
            )
            if s.step_id in switched
            else s
            for s in old.steps
            if s.step_id in switched or not is_done(state.results.get(s.step_id))
        ]
    else:
        strategy = "partial"
        if request.trigger == "human_response":
            reason = "the person added information: answer again with it, keeping the searches"
        elif request.trigger == "low_confidence":
            reason = "low confidence: search again with a broader plan, keeping useful results"
        else:
            reason = f"steps {request.detail} failed: regenerate them, keeping completed steps"
        if request.trigger == "human_response":
            steps = []
        else:
            fresh = _fresh_plan(services, runtime, query, reason)
            steps = [s for s in _prefixed(fresh, prefix) if s.action == "rag_search"]
    if strategy != "full":
        searches = [s.step_id for s in kept] + [
            s.step_id for s in steps if s.action == "rag_search"
        ]
        if not any(s.action == "reasoning" for s in steps):
            steps.append(
                PlanStep(
                    step_id=f"{prefix}answer",
                    action="reasoning",
                    query=query,
                    description="Answer again from the kept and new passages",
                    depends_on=searches,
                    fallback="ask_user",
                )
            )
    # Dependencies on ids that are neither kept nor new point at dropped steps: remove them.
    valid = {s.step_id for s in kept} | {s.step_id for s in steps}
    steps = [
        s.model_copy(update={"depends_on": [d for d in s.depends_on if d in valid]}) for s in steps
    ]
    plan = ExecutionPlan(
        original_query=query,
        complexity=old.complexity,
        steps=[*kept, *steps],
        origin="replan",
    )
    record = ReplanRecord(
        trigger=request.trigger,
        strategy=strategy,
        reason=reason,
        kept_steps=[s.step_id for s in kept],
        new_steps=[s.step_id for s in steps],
    )
    emit("replan", trigger=request.trigger, strategy=strategy, reason=reason)
    return {
        "plan": plan,
        "query": query,
        "replan_count": round_no,
        "replan_request": None,
        "replans": [record],
        "decision": None,
        "review": None,
        "last_batch": [],
    }

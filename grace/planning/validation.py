"""Validate a proposed plan and repair what can be repaired unambiguously.

Rules, in order (each repair is recorded in ``plan.repairs``):
1. empty plan → template plan;
2. an action that is not a registered tool → template plan (a plan cannot invent a tool);
   an unknown ``fallback`` is dropped;
3. duplicate step ids → template plan (references to them would be ambiguous);
4. a dependency on a step that does not exist → dropped;
5. a dependency cycle → template plan; dependencies on later steps → steps reordered;
6. an unknown collection → the default collection (collections are never created by a plan);
7. too many steps → template plan;
8. the last step must answer: a plan ending in a search gets a final ``reasoning`` step.
"""

from __future__ import annotations

from collections.abc import Collection

from grace.planning.blocks import template_plan
from grace.planning.roles import ANSWER, ASK, BUILT_IN_ROLES, Roles, is_search
from grace.schemas import ExecutionPlan, PlanStep

__all__ = ["validate_plan"]


def _template(plan: ExecutionPlan, default_collection: str, reason: str) -> ExecutionPlan:
    fallback = template_plan(plan.original_query, default_collection)
    fallback.repairs = [*plan.repairs, f"{reason}: replaced by the template plan"]
    return fallback


def _topological(steps: list[PlanStep]) -> list[PlanStep] | None:
    """Steps in dependency order (stable), or None when there is a cycle."""
    by_id = {s.step_id: s for s in steps}
    done: set[str] = set()
    ordered: list[PlanStep] = []
    remaining = list(steps)
    while remaining:
        ready = [s for s in remaining if all(d in done for d in s.depends_on)]
        if not ready:
            return None
        for step in ready:
            ordered.append(by_id[step.step_id])
            done.add(step.step_id)
        remaining = [s for s in remaining if s.step_id not in done]
    return ordered


class _Rejected(Exception):
    """A rule found a problem no repair can fix: the template plan replaces the plan."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _check_actions(plan: ExecutionPlan, actions: Collection[str]) -> None:
    """Rule 2: unknown actions reject the plan; unknown (or self) fallbacks are dropped."""
    for step in plan.steps:
        if step.action not in actions:
            raise _Rejected(f"unknown action '{step.action}'")
        if step.fallback is not None and step.fallback not in actions:
            plan.repairs.append(f"{step.step_id}: unknown fallback '{step.fallback}' dropped")
            step.fallback = None
        if step.fallback == step.action:
            step.fallback = None


def _check_dependencies(plan: ExecutionPlan) -> None:
    """Rules 3-5: unique ids, dependencies on existing steps, dependency order."""
    ids = [s.step_id for s in plan.steps]
    if len(set(ids)) != len(ids):
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        raise _Rejected(f"duplicate step ids {dupes}")
    known = set(ids)
    for step in plan.steps:
        missing = [d for d in step.depends_on if d not in known or d == step.step_id]
        if missing:
            plan.repairs.append(f"{step.step_id}: dependencies on missing steps {missing} dropped")
            step.depends_on = [d for d in step.depends_on if d not in missing]
    ordered = _topological(plan.steps)
    if ordered is None:
        raise _Rejected("dependency cycle")
    if [s.step_id for s in ordered] != ids:
        plan.repairs.append("steps reordered so that dependencies come first")
        plan.steps = ordered


def _check_collections(
    plan: ExecutionPlan, collections: Collection[str], default_collection: str, roles: Roles
) -> None:
    """Rule 6: a search in an unknown collection searches the default one."""
    for step in plan.steps:
        unknown = step.collection and step.collection not in collections
        if is_search(step.action, roles) and unknown:
            plan.repairs.append(
                f"{step.step_id}: unknown collection '{step.collection}' → '{default_collection}'"
            )
            step.collection = default_collection


def _ensure_answer_step(plan: ExecutionPlan, actions: Collection[str], roles: Roles) -> None:
    """Rule 8: a plan ending in a search gets a final ``reasoning`` step over the searches."""
    if not is_search(plan.steps[-1].action, roles):
        return
    known = {s.step_id for s in plan.steps}
    searches = [s.step_id for s in plan.steps if is_search(s.action, roles)]
    final_id = f"s{len(plan.steps) + 1}"
    while final_id in known:
        final_id += "a"
    plan.steps.append(
        PlanStep(
            step_id=final_id,
            action=ANSWER,
            description="Answer from the retrieved passages, citing them",
            query=plan.original_query,
            depends_on=searches,
            fallback=ASK if ASK in actions else None,
        )
    )
    plan.repairs.append(f"plan ended with a search: answer step {final_id} added")


def validate_plan(
    plan: ExecutionPlan,
    *,
    actions: Collection[str],
    collections: Collection[str],
    default_collection: str,
    max_steps: int,
    roles: Roles = BUILT_IN_ROLES,
) -> ExecutionPlan:
    """Return a runnable plan: ``plan`` repaired, or the template plan with the reason.

    ``roles``: the tool registry's (which actions search).
    """
    plan = plan.model_copy(deep=True)
    try:
        if not plan.steps:
            raise _Rejected("empty plan")
        _check_actions(plan, actions)
        _check_dependencies(plan)
        _check_collections(plan, collections, default_collection, roles)
        _ensure_answer_step(plan, actions, roles)
        if len(plan.steps) > max_steps:
            raise _Rejected(f"{len(plan.steps)} steps > max {max_steps}")
    except _Rejected as rejected:
        return _template(plan, default_collection, rejected.reason)
    return plan

"""Rule-based planner: template plan with sub-question split and collection choice."""

from __future__ import annotations

import re
from collections.abc import Mapping

from confidence.model_log import ModelLog
from grace.planning.blocks import estimate_complexity, split_subquestions, template_plan
from grace.planning.roles import BUILT_IN_ROLES, SEARCH, Role, role_of
from grace.providers.base import PlanOutcome, PlanRequest
from grace.providers.offline.word_forms import match_tokens
from grace.schemas import PlanStep

__all__ = ["RuleBasedPlanner", "choose_collection", "matching_tools"]


def matching_tools(
    query: str, tools: Mapping[str, str], roles: Mapping[str, Role] = BUILT_IN_ROLES
) -> list[str]:
    """Registered search tools whose description shares a content word with the question.

    Other than the document search, in registration order: "Who runs finance?" and "Look up
    who runs a department … in the staff directory" share "runs".
    """
    asked = set(match_tokens(query))
    return [
        name
        for name, description in tools.items()
        if name != SEARCH
        and role_of(name, roles) == "search"
        and asked & set(match_tokens(description))
    ]


def choose_collection(query: str, collections: list[str], default: str) -> str:
    """Pick the collection whose name appears in the question, else the default."""
    lowered = query.lower()
    for name in sorted(collections, key=len, reverse=True):
        words = [w for w in re.split(r"[_\-\s]+", name.lower()) if len(w) > 2]
        if name.lower() in lowered or (words and all(w in lowered for w in words)):
            return name
    return default


def _add_tool_searches(steps: list[PlanStep], names: list[str]) -> None:
    """Search with each tool too, before the answer step, which then also depends on them."""
    answer = steps.pop()
    for name in names:
        step_id = f"t{len(steps) + 1}"
        steps.append(
            PlanStep(
                step_id=step_id,
                action=name,
                description=f"Look the question up with {name}",
                query=answer.query,
                expected_output="Facts that answer the question",
            )
        )
        answer.depends_on.append(step_id)
    steps.append(answer)


class RuleBasedPlanner:
    """Plans without a model: one search per sub-question, then one grounded answer."""

    def plan(self, request: PlanRequest, *, log: ModelLog | None = None) -> PlanOutcome:
        """Build the template plan for the request (no model: ``log`` is not used)."""
        parts = split_subquestions(request.query)[: max(request.max_steps - 1, 1)]
        collection = choose_collection(
            request.query, list(request.collections), request.default_collection
        )
        plan = template_plan(request.query, collection, subquestions=parts)
        roles = request.roles or BUILT_IN_ROLES
        _add_tool_searches(plan.steps, matching_tools(request.query, request.tools, roles))
        plan.origin = "offline"
        plan.complexity = estimate_complexity(request.query)
        return PlanOutcome(plan=plan)

    async def aplan(self, request: PlanRequest, *, log: ModelLog | None = None) -> PlanOutcome:
        """Same as :meth:`plan` (pure CPU, microseconds)."""
        return self.plan(request)

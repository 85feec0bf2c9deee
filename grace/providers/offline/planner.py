"""Rule-based planner: template plan with sub-question split and collection choice."""

from __future__ import annotations

import re

from grace.planning import estimate_complexity, split_subquestions, template_plan
from grace.providers.base import PlanOutcome, PlanRequest

__all__ = ["RuleBasedPlanner", "choose_collection"]


def choose_collection(query: str, collections: list[str], default: str) -> str:
    """Pick the collection whose name appears in the question, else the default."""
    lowered = query.lower()
    for name in sorted(collections, key=len, reverse=True):
        words = [w for w in re.split(r"[_\-\s]+", name.lower()) if len(w) > 2]
        if name.lower() in lowered or (words and all(w in lowered for w in words)):
            return name
    return default


class RuleBasedPlanner:
    """Plans without a model: one search per sub-question, then one grounded answer."""

    def plan(self, request: PlanRequest) -> PlanOutcome:
        """Build the template plan for the request."""
        parts = split_subquestions(request.query)[: max(request.max_steps - 1, 1)]
        collection = choose_collection(
            request.query, list(request.collections), request.default_collection
        )
        plan = template_plan(request.query, collection, subquestions=parts)
        plan.origin = "offline"
        plan.complexity = estimate_complexity(request.query)
        return PlanOutcome(plan=plan)

    async def aplan(self, request: PlanRequest) -> PlanOutcome:
        """Same as :meth:`plan` (pure CPU, microseconds)."""
        return self.plan(request)

"""Tool roles are kept by each registry: two registries may give one name different roles."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from langchain_core.tools import tool

from grace.context import GraceContext
from grace.providers.offline.planner import RuleBasedPlanner
from grace.schemas import ExecutionPlan, PlanStep
from grace.tools import ToolRegistry, default_registry, is_search, role_of
from nodes.common import answer_step, plan_request


@tool
def staff_directory(query: str) -> str:
    """Look up who runs a department in the staff directory."""
    return query


def _registries() -> tuple[ToolRegistry, ToolRegistry]:
    searching, answering = default_registry(), default_registry()
    searching.register(staff_directory, role="search")
    answering.register(staff_directory, role="answer")  # refused while roles were global
    return searching, answering


def test_two_registries_give_one_name_different_roles_without_colliding() -> None:
    searching, answering = _registries()
    name = "staff_directory"
    assert (searching.roles[name], answering.roles[name]) == ("search", "answer")
    assert is_search(name, searching.roles) and not is_search(name, answering.roles)
    assert role_of(name) == "other"  # the built-in actions' roles alone know nothing of it
    plan = ExecutionPlan(
        original_query="Who runs finance?",
        steps=[
            PlanStep(step_id="s1", action="rag_search", query="finance"),
            PlanStep(step_id="s2", action=name, query="finance", depends_on=["s1"]),
        ],
    )
    assert answer_step(plan, searching.roles) is None  # a search is no answer
    final = answer_step(plan, answering.roles)
    assert final is not None and final.step_id == "s2"


def test_each_runs_planner_sees_its_own_registrys_roles(offline_services: Any) -> None:
    """The planner's request carries the registry's roles (``nodes.common.plan_request``)."""
    searching, answering = _registries()
    planned = []
    for tools in (searching, answering):
        services = replace(offline_services, tools=tools)
        request = plan_request(services, GraceContext(), "Who runs finance?")
        plan = RuleBasedPlanner().plan(request).plan
        assert plan is not None
        planned.append([s.action for s in plan.steps])
    assert "staff_directory" in planned[0]  # a search tool whose description matches
    assert "staff_directory" not in planned[1]


def test_a_registry_refuses_a_built_in_action_under_another_role() -> None:
    registry = ToolRegistry()

    @tool
    def rag_search(query: str) -> str:
        """A search by another name."""
        return query

    with pytest.raises(ValueError, match="registered as a search tool, not answer"):
        registry.register(rag_search, role="answer")

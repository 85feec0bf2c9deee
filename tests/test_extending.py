"""Extending GRACE from the outside: a tool, a confidence factor, a route — no package edit.

Each test uses only the public API: ``services.tools.register`` for a plain LangChain
``@tool`` function, ``services.calculator.factors.register`` for a confidence factor, and
``make_builder(level_routes=...)`` for the route of an intervention level.
"""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver

from confidence import Factor, InterventionLevel
from grace.services import build_services
from grace.settings import GraceSettings
from grace.storage.serde import use_grace_serializer
from graph.builder import make_builder
from graph.routing import go_on
from tests.fakes import ScriptedChatModel

QUESTION = "Who runs the finance department and when did the horse tram line open?"
VERDICT = {"self_evaluation": 0.9, "query_coverage": 0.9, "rationale": "supported"}


@tool
def staff_directory(query: str) -> list[str]:
    """Look up who runs a department of the company in the staff directory."""
    return ["The finance department is run by Ada Lovelace since 2021."]


def _cfg(thread: str) -> dict[str, Any]:
    return {"configurable": {"thread_id": thread}}


def _run(
    services: Any, query: str, thread: str, level_routes: Any = None
) -> dict[str, Any]:
    """Run ``query`` to its end or first pause; the state's values and ``next`` nodes."""
    builder = make_builder(level_routes, services=services)
    app = builder.compile(checkpointer=use_grace_serializer(InMemorySaver()))
    app.invoke({"query": query}, _cfg(thread))
    snapshot = app.get_state(_cfg(thread))
    return {**snapshot.values, "next": snapshot.next}


def test_a_plain_tool_function_is_planned_executed_scored_and_cited(
    offline_services: Any,
) -> None:
    plan = {
        "complexity": 0.7,
        "steps": [
            {"step_id": "s1", "action": "staff_directory", "query": "finance department head"},
            {"step_id": "s2", "action": "reasoning", "query": QUESTION, "depends_on": ["s1"]},
        ],
    }
    model = ScriptedChatModel.of(
        plans=[plan], answers=["Ada Lovelace runs finance [S1]."], verdicts=[VERDICT]
    )
    services = build_services(
        offline_services.settings, chat_model=model, store=offline_services.store
    )
    services.tools.register(staff_directory, role="search")

    values = _run(services, QUESTION, "extend-tool")

    planner_prompt = str(model.calls[0][1][0].content)
    assert "staff_directory: Look up who runs a department" in planner_prompt
    assert [s.action for s in values["plan"].steps] == ["staff_directory", "reasoning"]
    searched = values["results"]["s1"]
    assert searched.status.value == "success" and searched.sources[0].source == "staff_directory"
    assert values["scores"]["s1"].breakdown["search_quality"] > 0  # scored as a search
    answer = values["results"]["s2"]
    assert [s.text for s in answer.sources] == [searched.sources[0].text]  # cited
    assert values["answer"].startswith("Ada Lovelace runs finance")


def _offline(offline_services: Any, **settings: Any) -> Any:
    data_dir = offline_services.settings.data_dir
    config = GraceSettings(data_dir=data_dir, provider="offline", **settings)
    return build_services(config, store=offline_services.store)


def test_a_registered_confidence_factor_changes_the_score(offline_services: Any) -> None:
    query = "When did the horse tram line open in Lumen Bay?"
    before = _run(_offline(offline_services), query, "extend-factor-before")

    services = _offline(offline_services)
    # A strict house rule: every answer step gets a zero-valued "house_review" term.
    services.calculator.factors.register(Factor("house_review", lambda f, sq: 0.0, weight=1.0))
    after = _run(services, query, "extend-factor-after")

    answer_id = before["plan"].steps[-1].step_id
    assert after["scores"][answer_id].breakdown["house_review"] == 0.0
    assert "house_review" not in before["scores"][answer_id].breakdown
    assert after["scores"][answer_id].score < before["scores"][answer_id].score
    assert after["confidence"] < before["confidence"]


def test_a_custom_route_for_a_level_comes_from_the_table(offline_services: Any) -> None:
    query = "When did the horse tram line open in Lumen Bay?"
    confirm_always = {"thresholds": {"silent": 1.0, "notify": 1.0, "confirm": 0.0}}
    services = _offline(offline_services, confidence=confirm_always)

    paused = _run(services, query, "extend-route-default")
    assert paused["next"] == ("intervene",)  # GRACE's route: CONFIRM pauses for the person

    # Our deployment: CONFIRM goes on without a pause (the person reads the answer later).
    done = _run(services, query, "extend-route-custom", {InterventionLevel.CONFIRM: go_on})
    assert done["next"] == ()
    assert done["level"] == InterventionLevel.CONFIRM
    assert done["answer"]


@pytest.mark.parametrize("role", ["search", "answer", "ask", "other"])
def test_a_tool_role_is_declared_once(offline_services: Any, role: str) -> None:
    @tool(f"extra_tool_{role}")
    def extra(query: str) -> str:
        """An extra tool."""
        return query

    services = _offline(offline_services)
    registered = services.tools.register(extra, role=role)  # type: ignore[arg-type]
    assert registered.role == role and f"extra_tool_{role}" in services.tools.descriptions()
    with pytest.raises(ValueError, match="registered twice"):
        services.tools.register(extra, role=role)  # type: ignore[arg-type]


def test_offline_the_planner_uses_a_registered_tool_its_description_matches(
    offline_services: Any,
) -> None:
    services = _offline(offline_services)
    services.tools.register(staff_directory, role="search")
    values = _run(services, "Who runs finance?", "extend-offline-tool")
    actions = [s.action for s in values["plan"].steps]
    assert "staff_directory" in actions and actions[-1] == "reasoning"
    assert "Ada Lovelace" in values["answer"]
    assert [s.source for s in values["sources"]] == ["staff_directory"]
    # a question its description does not match is planned without it
    other = _run(services, "When did the horse tram line open in Lumen Bay?", "extend-offline-no")
    assert "staff_directory" not in [s.action for s in other["plan"].steps]

"""One test per InterventionLevel route, on the router and end to end."""

from __future__ import annotations

from typing import Any

import pytest

from confidence import ActionDecision, InterventionLevel
from grace.schemas import ExecutionPlan, PlanStep, StepResult, StepStatus
from grace.services import build_services
from grace.settings import GraceSettings
from grace.state import ReplanRequest, State
from graph.builder import make_graph
from graph.routing import route_after_confidence, route_after_intervene
from tests.fakes import use_up_replans
from tests.graph.conftest import cfg


def _state(
    level: InterventionLevel, *, done: bool, failed: bool = False, low: bool = False
) -> State:
    plan = ExecutionPlan(
        original_query="q",
        steps=[
            PlanStep(step_id="s1", action="rag_search", query="q"),
            PlanStep(step_id="s2", action="reasoning", query="q", depends_on=["s1"]),
        ],
    )
    results = {"s1": StepResult(step_id="s1", status=StepStatus.SUCCESS)}
    if done:
        results["s2"] = StepResult(step_id="s2", status=StepStatus.SUCCESS)
    return State(
        query="q",
        plan=plan,
        results=results,
        decision=ActionDecision(level=level, score=0.5),
        replan_request=ReplanRequest(trigger="step_failed", detail="s1")
        if failed
        else ReplanRequest(trigger="low_confidence")
        if low
        else None,
    )


@pytest.mark.parametrize(
    ("level", "done", "expected"),
    [
        (InterventionLevel.SILENT, False, "SILENT/NOTIFY"),
        (InterventionLevel.NOTIFY, False, "SILENT/NOTIFY"),
        (InterventionLevel.SILENT, True, "all done"),
        (InterventionLevel.NOTIFY, True, "all done"),
        (InterventionLevel.CONFIRM, False, "CONFIRM/ESCALATE"),
        (InterventionLevel.ESCALATE, True, "CONFIRM/ESCALATE"),
    ],
)
def test_router_routes_on_level(level: InterventionLevel, done: bool, expected: str) -> None:
    assert route_after_confidence(_state(level, done=done)) == expected


def test_escalate_with_a_low_confidence_request_replans_first() -> None:
    # ``confidence`` asks for the replan (nodes.common.low_confidence_replan_due).
    state = _state(InterventionLevel.ESCALATE, done=True, low=True)
    assert route_after_confidence(state) == "failed/low confidence"
    use_up_replans(state)
    assert route_after_confidence(state) == "CONFIRM/ESCALATE"


def test_no_decision_asks_the_person() -> None:
    # A state with no decision (e.g. edited by hand in Studio) is never routed as silent.
    for done in (True, False):
        state = _state(InterventionLevel.SILENT, done=done)
        state.decision = None
        assert route_after_confidence(state) == "CONFIRM/ESCALATE"


def test_router_sends_failures_to_replan_within_budget() -> None:
    state = _state(InterventionLevel.SILENT, done=False, failed=True)
    assert route_after_confidence(state) == "failed/low confidence"
    use_up_replans(state)
    assert route_after_confidence(state) == "SILENT/NOTIFY"


def test_router_after_intervene() -> None:
    state = _state(InterventionLevel.CONFIRM, done=False)
    state.review = "continue"
    assert route_after_intervene(state) == "accept"
    state.review = "replan"
    assert route_after_intervene(state) == "edit/response"
    use_up_replans(state)
    assert route_after_intervene(state) == "ignore or done"
    state.review = "finalize"
    assert route_after_intervene(state) == "ignore or done"


def _run_with_thresholds(
    offline_services: Any, checkpointer: Any, silent: float, notify: float, confirm: float
) -> tuple[dict[str, Any], list[Any]]:
    settings = GraceSettings(
        data_dir=offline_services.settings.data_dir,
        provider="offline",
        confidence={"thresholds": {"silent": silent, "notify": notify, "confirm": confirm}},
    )
    services = build_services(settings, store=offline_services.store)
    app = make_graph(services=services, checkpointer=checkpointer)
    custom: list[Any] = []
    for mode, chunk in app.stream(
        {"query": "When did the horse tram line open in Lumen Bay?"},
        cfg("levels"),
        stream_mode=["custom", "values"],
    ):
        if mode == "custom":
            custom.append(chunk)
    final = app.get_state(cfg("levels"))
    return {"values": final.values, "next": final.next, "interrupts": final.interrupts}, custom


def test_silent_route_finishes_without_notice(offline_services: Any, checkpointer: Any) -> None:
    out, events = _run_with_thresholds(offline_services, checkpointer, 0.0, 0.0, 0.0)
    assert out["next"] == ()
    assert out["values"]["level"] == InterventionLevel.SILENT
    assert "1874" in out["values"]["answer"]
    assert not [e for e in events if e["event"] == "notice"]


def test_notify_route_finishes_with_a_notice(offline_services: Any, checkpointer: Any) -> None:
    out, events = _run_with_thresholds(offline_services, checkpointer, 1.0, 0.0, 0.0)
    assert out["next"] == ()
    assert out["values"]["level"] == InterventionLevel.NOTIFY
    notices = [e for e in events if e["event"] == "notice"]
    assert notices and notices[0]["level"] == "notify"


def test_confirm_route_pauses_with_accept_allowed(offline_services: Any, checkpointer: Any) -> None:
    out, _ = _run_with_thresholds(offline_services, checkpointer, 1.0, 1.0, 0.0)
    assert out["next"] == ("intervene",)
    request = out["interrupts"][0].value
    assert request["level"] == "confirm"
    assert "approve" in request["review_configs"][0]["allowed_decisions"]


def test_escalate_route_pauses_and_requires_input(offline_services: Any, checkpointer: Any) -> None:
    out, _ = _run_with_thresholds(offline_services, checkpointer, 1.0, 1.0, 1.0)
    assert out["next"] == ("intervene",)
    request = out["interrupts"][0].value
    assert request["level"] == "escalate"
    assert request["review_configs"][0]["allowed_decisions"] == ["edit", "reject"]

"""Replanning: each trigger × strategy, the budget, and that a run cannot loop."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from confidence import ActionDecision, InterventionLevel
from confidence.model_log import ModelLog
from grace.context import GraceContext
from grace.schemas import ExecutionPlan, PlanStep, StepResult, StepStatus
from grace.state import ReplanRequest, State
from grace.storage.serde import use_grace_serializer
from graph.builder import make_graph
from graph.routing import route_after_confidence, route_after_intervene
from nodes.common import low_confidence_replan_due
from nodes.replan import replan
from tests.fakes import ScriptedChatModel, use_up_replans
from tests.reliability.conftest import (
    ALWAYS_ESCALATE,
    ALWAYS_SILENT,
    COMPLEX,
    GOOD_VERDICT,
    SIMPLE,
    UNANSWERABLE,
    Wrapped,
    cfg,
    make_services,
    with_tools,
)


def _plan(*, fallback: str | None = None) -> ExecutionPlan:
    return ExecutionPlan(
        original_query=SIMPLE,
        steps=[
            PlanStep(step_id="s1", action="rag_search", query="horse tram line opened"),
            PlanStep(step_id="s2", action="rag_search", query="tram designer", fallback=fallback),
            PlanStep(
                step_id="s3",
                action="reasoning",
                query=SIMPLE,
                depends_on=["s1", "s2"],
                fallback="ask_user",
            ),
        ],
    )


def _state(
    *,
    trigger: str | None,
    detail: str = "",
    s1: StepStatus = StepStatus.SUCCESS,
    s2: StepStatus = StepStatus.FAILED,
    fallback: str | None = None,
    level: InterventionLevel = InterventionLevel.SILENT,
    **extra: Any,
) -> State:
    results = {
        "s1": StepResult(step_id="s1", action="rag_search", status=s1),
        "s2": StepResult(step_id="s2", action="rag_search", status=s2),
    }
    if s2 != StepStatus.SUCCESS:
        results["s3"] = StepResult(step_id="s3", action="reasoning", status=StepStatus.SKIPPED)
    return State(
        query=SIMPLE,
        plan=_plan(fallback=fallback),
        results=results,
        decision=ActionDecision(level=level, score=0.2),
        replan_request=ReplanRequest(trigger=trigger, detail=detail) if trigger else None,  # type: ignore[arg-type]
        **extra,
    )


@pytest.fixture
def offline_replan(offline_services: Any) -> Any:
    yield lambda state: replan(state, None, offline_services, ModelLog())  # type: ignore[arg-type]


def _check_plan(update: dict[str, Any], state: State) -> ExecutionPlan:
    """Ids unique, never an id that already has a result unless kept, dependencies valid."""
    plan: ExecutionPlan = update["plan"]
    ids = [s.step_id for s in plan.steps]
    assert len(ids) == len(set(ids))
    kept = set(update["replans"][0].kept_steps)
    for step in plan.steps:
        assert step.step_id in kept or step.step_id not in state.results
        assert all(d in ids[: ids.index(step.step_id)] for d in step.depends_on)
    assert len(update["replans"]) == 1  # one more replan (``replan_count`` counts them)
    # the request is read here and left: ``confidence`` writes the next one before routing
    assert not {"replan_request", "decision", "last_batch"} & update.keys()
    return plan


# --- trigger × strategy, on the node --------------------------------------------------------


def test_step_failed_with_unused_fallback_switches_to_it(offline_replan: Any) -> None:
    state = _state(trigger="step_failed", detail="s2", fallback="ask_user")
    update = offline_replan(state)
    record = update["replans"][0]
    assert (record.trigger, record.strategy) == ("step_failed", "fallback")
    assert "s2 rag_search → ask_user" in record.reason
    plan = _check_plan(update, state)
    by_id = {s.step_id: s for s in plan.steps}
    assert by_id["r1-s2"].action == "ask_user" and by_id["r1-s2"].fallback is None
    assert by_id["r1-s3"].depends_on == ["s1", "r1-s2"]  # rebuilt answer uses the switched step
    assert record.kept_steps == ["s1"]


def test_step_failed_with_completed_steps_is_partial(offline_replan: Any) -> None:
    update = offline_replan(_state(trigger="step_failed", detail="s2"))
    record = update["replans"][0]
    assert (record.trigger, record.strategy) == ("step_failed", "partial")
    assert record.kept_steps == ["s1"]
    plan = _check_plan(update, _state(trigger="step_failed"))
    assert plan.steps[0].step_id == "s1"
    answer = plan.steps[-1]
    assert answer.action == "reasoning" and "s1" in answer.depends_on
    assert all(s.step_id.startswith("r1-") for s in plan.steps[1:])


def test_step_failed_with_nothing_completed_is_full_with_a_reformulated_query(
    offline_replan: Any,
) -> None:
    state = _state(trigger="step_failed", detail="s1, s2", s1=StepStatus.FAILED)
    update = offline_replan(state)
    record = update["replans"][0]
    assert (record.trigger, record.strategy) == ("step_failed", "full")
    assert "'horse tram line open Lumen Bay'" in record.reason
    plan = _check_plan(update, state)
    assert record.kept_steps == []
    assert plan.steps[0].query == "horse tram line open Lumen Bay"
    assert plan.steps[-1].query == SIMPLE  # the answer still answers the person's question


def test_low_confidence_first_broadens_then_reformulates(offline_replan: Any) -> None:
    state = _state(trigger=None, s2=StepStatus.SUCCESS, level=InterventionLevel.ESCALATE)
    first = offline_replan(state)
    record = first["replans"][0]
    assert (record.trigger, record.strategy) == ("low_confidence", "partial")
    assert "broaden" in record.reason and "horse tram line open Lumen Bay" in record.reason
    plan = _check_plan(first, state)
    new_searches = [
        s for s in plan.steps if s.step_id in record.new_steps and s.action == "rag_search"
    ]
    assert new_searches and all(s.query != "horse tram line opened" for s in new_searches)
    assert record.kept_steps == ["s1", "s2"]
    second_state = replace(state, plan=plan, replans=[record], results=dict(state.results))
    assert second_state.replan_count == 1
    second = offline_replan(second_state)
    record2 = second["replans"][0]
    assert (record2.trigger, record2.strategy) == ("low_confidence", "full")
    assert "reformulated" in record2.reason
    assert all(s.step_id.startswith("r2-") for s in second["plan"].steps)


def test_low_confidence_broadens_into_collections_not_searched(
    offline_services: Any,
) -> None:
    class Store:
        def list_collections(self) -> list[str]:
            return ["grace", "manuals"]

    services = replace(offline_services, store=Store())
    state = _state(trigger=None, s2=StepStatus.SUCCESS, level=InterventionLevel.ESCALATE)
    update = replan(state, None, services, ModelLog())  # type: ignore[arg-type]
    searches = [
        s for s in update["plan"].steps if s.step_id.startswith("r1-") and s.action == "rag_search"
    ]
    assert {s.collection for s in searches} == {"grace", "manuals"}
    assert "in manuals" in update["replans"][0].reason


def test_human_edit_is_a_full_replan_for_the_new_question(offline_replan: Any) -> None:
    state = _state(trigger="human_edit", detail=COMPLEX, s2=StepStatus.SUCCESS)
    update = offline_replan(state)
    record = update["replans"][0]
    assert (record.trigger, record.strategy) == ("human_edit", "full")
    assert update["query"] == COMPLEX and record.kept_steps == []
    plan = _check_plan(update, state)
    assert [s.action for s in plan.steps] == ["rag_search", "rag_search", "reasoning"]


def test_human_response_is_partial_and_keeps_the_searches(offline_replan: Any) -> None:
    state = _state(trigger="human_response", detail="It opened in 1874.", s2=StepStatus.SUCCESS)
    update = offline_replan(state)
    record = update["replans"][0]
    assert (record.trigger, record.strategy) == ("human_response", "partial")
    plan = _check_plan(update, state)
    assert [s.step_id for s in plan.steps] == ["s1", "s2", "r1-answer"]
    assert plan.steps[-1].depends_on == ["s1", "s2"]


# --- routing and the bound ------------------------------------------------------------------


def test_escalate_replans_first_then_intervenes_once_the_budget_is_used() -> None:
    state = _state(trigger=None, s2=StepStatus.SUCCESS, level=InterventionLevel.ESCALATE)
    state.last_batch = ["s2"]
    assert low_confidence_replan_due(state, allowance=5)  # so ``confidence`` asks for one
    state.replan_request = ReplanRequest(trigger="low_confidence")
    assert route_after_confidence(state) == "failed/low confidence"
    use_up_replans(state)
    assert route_after_confidence(state) == "CONFIRM/ESCALATE"
    assert not low_confidence_replan_due(state, allowance=5)


def test_low_confidence_allowance_and_ask_user_go_to_the_person() -> None:
    state = _state(trigger=None, s2=StepStatus.SUCCESS, level=InterventionLevel.ESCALATE)
    assert not low_confidence_replan_due(state, allowance=0)
    state.results["s2"] = StepResult(step_id="s2", action="ask_user", status=StepStatus.PARTIAL)
    state.last_batch = ["s2"]
    assert not low_confidence_replan_due(state, allowance=5)
    assert route_after_confidence(state) == "CONFIRM/ESCALATE"


def test_confirm_never_replans_automatically() -> None:
    state = _state(trigger=None, s2=StepStatus.SUCCESS, level=InterventionLevel.CONFIRM)
    assert route_after_confidence(state) == "CONFIRM/ESCALATE"


def test_a_persons_reply_past_the_budget_finishes() -> None:
    state = _state(trigger="human_response", s2=StepStatus.SUCCESS, review="replan")
    assert route_after_intervene(state) == "edit/response"
    use_up_replans(state)
    assert route_after_intervene(state) == "ignore or done"


def _stream(app: Any, payload: Any, thread: str, **kw: Any) -> list[dict[str, Any]]:
    return [
        c
        for mode, c in app.stream(payload, cfg(thread), stream_mode=["custom", "updates"], **kw)
        if mode == "custom"
    ]


def test_low_confidence_end_to_end_replans_then_asks(offline_services: Any) -> None:
    services = make_services(
        offline_services,
        confidence=ALWAYS_ESCALATE,
        run={"max_replans": 3, "low_confidence_replans": 2},
    )
    app = make_graph(services=services, checkpointer=use_grace_serializer(InMemorySaver()))
    events = _stream(app, {"query": UNANSWERABLE}, "lc-e2e")
    state = app.get_state(cfg("lc-e2e"))
    replans = state.values["replans"]
    assert [(r.trigger, r.strategy) for r in replans] == [
        ("low_confidence", "partial"),
        ("low_confidence", "full"),
    ]
    streamed = [e for e in events if e["event"] == "replan"]
    assert [(e["strategy"], e["reason"]) for e in streamed] == [
        (r.strategy, r.reason) for r in replans
    ]
    assert state.next == ("intervene",)  # allowance used: now the person is asked
    assert state.interrupts[0].value["level"] == "escalate"
    # Completed steps were never executed twice.
    started = [e["step_id"] for e in events if e["event"] == "step_started"]
    assert len(started) == len(set(started))


def test_replan_bound_finalizes_with_the_best_partial_answer_and_says_why(
    offline_services: Any,
) -> None:
    services = make_services(
        offline_services, confidence=ALWAYS_ESCALATE, run={"low_confidence_replans": 10}
    )
    app = make_graph(services=services, checkpointer=use_grace_serializer(InMemorySaver()))
    out = app.invoke({"query": SIMPLE}, cfg("bound"), context=GraceContext(max_replans=2))
    values = app.get_state(cfg("bound")).values
    assert len(values["replans"]) == 2 and "__interrupt__" in out
    reply = {"type": "response", "args": "It opened in 1874."}
    final = app.invoke(Command(resume=reply), cfg("bound"))
    assert final["answer"]
    assert any("Replan budget of 2 used up" in n for n in final["notes"])
    assert len(app.get_state(cfg("bound")).values["replans"]) == 2


def test_a_step_that_always_fails_cannot_loop(offline_services: Any) -> None:
    search = Wrapped(
        offline_services.tools.get("rag_search"), fail=lambda n, c: ValueError("index corrupt")
    )
    services = with_tools(
        make_services(offline_services, confidence=ALWAYS_SILENT), rag_search=search
    )
    app = make_graph(services=services, checkpointer=use_grace_serializer(InMemorySaver()))
    out = app.invoke({"query": SIMPLE}, cfg("loop"), context=GraceContext(max_replans=3))
    while "__interrupt__" in out:
        out = app.invoke(Command(resume={"type": "ignore"}), cfg("loop"))
    values = app.get_state(cfg("loop")).values
    assert len(values["replans"]) == 3
    assert len(search.calls) == 4  # the first plan and one per replan, no more
    assert any("Replan budget of 3 used up" in n for n in out["notes"])


def test_partial_replan_after_a_failure_does_not_repeat_completed_searches(
    offline_services: Any,
) -> None:
    def fail(n: int, call: Any) -> BaseException | None:
        return ValueError("bad shard") if "Lighthouse" in call.step.query and n == 1 else None

    search = Wrapped(offline_services.tools.get("rag_search"), fail=fail)
    services = with_tools(
        make_services(offline_services, confidence=ALWAYS_SILENT), rag_search=search
    )
    app = make_graph(services=services, checkpointer=use_grace_serializer(InMemorySaver()))
    out = app.invoke({"query": COMPLEX}, cfg("partial"))
    values = app.get_state(cfg("partial")).values
    record = values["replans"][0]
    assert (record.trigger, record.strategy) == ("step_failed", "partial")
    tram = [q for q in search.calls if "tram" in q]
    assert len(tram) == 1, search.calls  # kept, not searched again
    assert record.kept_steps == ["s1"]
    assert "s1" in values["plan"].steps[-1].depends_on
    assert out["answer"]


def test_scripted_model_plan_is_used_for_a_full_replan(offline_services: Any) -> None:
    new_plan = {
        "steps": [
            {"step_id": "s1", "action": "rag_search", "query": "horse tram opened year"},
            {"step_id": "s2", "action": "reasoning", "query": "x", "depends_on": ["s1"]},
        ]
    }
    model = ScriptedChatModel.of(
        plans=[new_plan],
        answers=["It opened on 2 August 1874 [S1]."] * 3,
        verdicts=[GOOD_VERDICT] * 3,
    )
    services = make_services(offline_services, chat_model=model)
    state = _state(trigger="step_failed", detail="s1, s2", s1=StepStatus.FAILED)
    update = replan(state, None, services, ModelLog())  # type: ignore[arg-type]
    assert model.count("PlanDraft") == 1
    feedback = model.calls[0][1][0].content
    assert "failed and nothing completed" in feedback
    steps = update["plan"].steps
    assert [s.step_id for s in steps] == ["r1-s1", "r1-s2"]
    assert steps[0].query == "horse tram opened year" and steps[1].query == SIMPLE


@pytest.mark.parametrize("spent", [False, True])
def test_no_automatic_replan_once_the_model_time_is_spent(
    offline_services: Any, spent: bool
) -> None:
    """ESCALATE replans first while model time is left; once it is spent a replan would only
    call the model again, so the run asks the person straight away."""
    from confidence.model_log import ModelBudget

    budget = ModelBudget.start(3600.0)
    if spent:
        budget.spent = "an earlier call timed out"
    app = make_graph(services=offline_services, checkpointer=use_grace_serializer(InMemorySaver()))
    config = {"configurable": {"thread_id": f"spent-{spent}"}}
    out = app.invoke(
        {"query": "Who won the 2018 FIFA World Cup?"},
        config,
        context=GraceContext(model_budget=budget),
    )
    assert "__interrupt__" in out
    replans = app.get_state(config).values["replans"]
    assert [r.trigger for r in replans] == ([] if spent else ["low_confidence"])

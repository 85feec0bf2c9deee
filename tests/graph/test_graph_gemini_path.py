"""The model-backed (Gemini) code path, driven by a scripted chat model."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from grace.services import build_services
from grace.storage.serde import use_grace_serializer
from graph.builder import make_graph
from tests.fakes import ScriptedChatModel
from tests.graph.conftest import cfg

COMPLEX = "When did the horse tram line open and who designed the Wren Point Lighthouse?"
SIMPLE = "When did the horse tram line open in Lumen Bay?"
GOOD_VERDICT = {"self_evaluation": 0.95, "query_coverage": 0.9, "rationale": "supported"}
VALID_PLAN = {
    "complexity": 0.7,
    "steps": [
        {"step_id": "s1", "action": "rag_search", "query": "horse tram line opened"},
        {"step_id": "s2", "action": "rag_search", "query": "Wren Point Lighthouse designer"},
        {
            "step_id": "s3",
            "action": "reasoning",
            "query": COMPLEX,
            "depends_on": ["s1", "s2"],
            "fallback": "ask_user",
        },
    ],
}


@pytest.fixture
def run(offline_services: Any) -> Iterator[Any]:
    def _run(model: ScriptedChatModel, query: str, thread: str) -> tuple[dict[str, Any], Any]:
        services = build_services(
            offline_services.settings, chat_model=model, store=offline_services.store
        )
        app = make_graph(services=services, checkpointer=use_grace_serializer(InMemorySaver()))
        out = app.invoke({"query": query}, cfg(thread))
        return out, app.get_state(cfg(thread)).values

    yield _run


def test_valid_plan_is_used(run: Any) -> None:
    model = ScriptedChatModel.of(
        plans=[VALID_PLAN],
        answers=["The horse tram line opened on 2 August 1874 [S1]."],
        verdicts=[GOOD_VERDICT],
    )
    out, values = run(model, COMPLEX, "g-valid")
    plan = values["plan"]
    assert plan.origin == "llm"
    assert [s.step_id for s in plan.steps] == ["s1", "s2", "s3"]
    assert plan.steps[1].query == "Wren Point Lighthouse designer"
    answer_score = values["scores"]["s3"]
    assert answer_score.breakdown["llm_self_eval"] == pytest.approx(0.95)
    assert answer_score.breakdown["query_coverage"] == pytest.approx(0.9)
    assert values["usage"].model_calls == 3
    assert values["usage"].input_tokens == 300
    assert values["results"]["s3"].token_usage.model_calls == 2  # reader + judge
    reader_prompt = model.calls[1][1][-1].content
    assert '<passage id="S1"' in reader_prompt


def test_malformed_plan_json_falls_back_to_the_template(run: Any) -> None:
    model = ScriptedChatModel.of(
        plans=["{not json"],
        answers=["It opened on 2 August 1874 [S1]."],
        verdicts=[GOOD_VERDICT],
    )
    _, values = run(model, COMPLEX, "g-malformed")
    plan = values["plan"]
    assert plan.origin == "template"
    assert any("plan output invalid" in r for r in plan.repairs)
    assert [s.action for s in plan.steps][-1] == "reasoning"


def test_plan_with_an_invented_tool_is_replaced(run: Any) -> None:
    bad = {"steps": [{"step_id": "s1", "action": "send_email", "query": "x"}]}
    model = ScriptedChatModel.of(
        plans=[bad], answers=["It opened in 1874 [S1]."], verdicts=[GOOD_VERDICT]
    )
    _, values = run(model, COMPLEX, "g-invented")
    assert values["plan"].origin == "template"
    assert any("unknown action 'send_email'" in r for r in values["plan"].repairs)
    assert all(s.action in {"rag_search", "reasoning"} for s in values["plan"].steps)


def test_simple_question_skips_the_planner_call(run: Any) -> None:
    model = ScriptedChatModel.of(
        answers=["It opened on 2 August 1874 [S1]."], verdicts=[GOOD_VERDICT]
    )
    out, values = run(model, SIMPLE, "g-simple")
    assert model.count("PlanDraft") == 0
    assert values["usage"].model_calls == 2 <= 3
    assert "1874" in out["answer"]


def test_judge_output_that_does_not_parse_is_not_measured(run: Any) -> None:
    model = ScriptedChatModel.of(answers=["It opened in 1874 [S1]."], verdicts=["garbage"])
    _, values = run(model, SIMPLE, "g-judge-bad")
    breakdown = values["scores"]["s2"].breakdown
    assert "llm_self_eval" not in breakdown
    assert "query_coverage" not in breakdown


def test_low_judge_verdict_lowers_confidence_and_pauses(run: Any) -> None:
    model = ScriptedChatModel.of(
        answers=["It opened in 1874 [S1]."],
        verdicts=[{"self_evaluation": 0.0, "query_coverage": 0.0, "rationale": "wrong"}],
    )
    out, values = run(model, SIMPLE, "g-judge-low")
    assert values["scores"]["s2"].breakdown["llm_self_eval"] == 0.0
    assert "__interrupt__" in out


def test_reader_refusal_is_an_abstention_not_an_answer(run: Any) -> None:
    model = ScriptedChatModel.of(answers=["INSUFFICIENT_CONTEXT"], verdicts=[GOOD_VERDICT])
    out, values = run(model, SIMPLE, "g-refuse")
    assert values["results"]["s2"].status.value == "partial"
    assert "do not contain" in values["results"]["s2"].output


def test_reader_failure_uses_the_fallback_and_asks_the_person(run: Any) -> None:
    model = ScriptedChatModel.of(answers=[RuntimeError("model down")], verdicts=[])
    out, values = run(model, SIMPLE, "g-fallback")
    result = values["results"]["s2"]
    assert result.used_fallback and result.action == "ask_user"
    assert out["__interrupt__"][0].value["level"] == "escalate"


def test_offline_calibration_is_not_applied_to_model_scores(run: Any) -> None:
    model = ScriptedChatModel.of(
        answers=["It opened on 2 August 1874 [S1]."], verdicts=[GOOD_VERDICT]
    )
    out, values = run(model, SIMPLE, "g-calibration")
    assert "calibrated" not in values["decision"].reason
    ordered = [values["scores"][s.step_id].score for s in values["plan"].steps]
    from confidence import ConfidenceAggregator

    assert out["confidence"] == pytest.approx(ConfidenceAggregator().aggregate(ordered))

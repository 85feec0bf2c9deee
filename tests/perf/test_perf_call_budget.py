"""Call budget: a simple question costs at most 3 model calls in the model-backed path.

Plan skipped (complexity estimate), one answer, one judge call for self-evaluation and
coverage together. Counted twice: by the scripted model and by the run's ``usage``
(state and :class:`graph.app.RunOutcome`).
"""

from __future__ import annotations

from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from grace.services import build_services
from grace.storage.serde import use_grace_serializer
from graph.app import GraceApp
from graph.builder import make_graph
from tests.fakes import ScriptedChatModel

VERDICT = {"self_evaluation": 0.95, "query_coverage": 0.9, "rationale": "supported"}
SIMPLE = [
    "When did the horse tram line open in Lumen Bay?",
    "Who designed the Wren Point Lighthouse?",
]
TOKENS = (100, 20)  # ScriptedChatModel's usage per call


def _model() -> ScriptedChatModel:
    return ScriptedChatModel.of(answers=["It is stated in [S1]."], verdicts=[VERDICT])


def _assert_budget(model: ScriptedChatModel, usage: Any) -> None:
    assert model.count("PlanDraft") == 0, "simple questions must skip the planner call"
    assert model.count("text") == 1, "one answer call"
    assert model.count("AnswerVerdict") == 1, "one judge call (self-evaluation + coverage)"
    calls = len(model.calls)
    assert calls <= 3
    assert usage.model_calls == calls
    assert usage.input_tokens == TOKENS[0] * calls
    assert usage.output_tokens == TOKENS[1] * calls


@pytest.mark.parametrize("question", SIMPLE)
def test_simple_question_costs_at_most_three_calls(offline_services: Any, question: str) -> None:
    model = _model()
    services = build_services(
        offline_services.settings, chat_model=model, store=offline_services.store
    )
    app = make_graph(services=services, checkpointer=use_grace_serializer(InMemorySaver()))
    cfg = {"configurable": {"thread_id": f"budget-{question[:10]}"}}
    out = app.invoke({"query": question}, cfg)
    values = app.get_state(cfg).values
    assert values["plan"].origin == "template"
    assert out["answer"]
    _assert_budget(model, values["usage"])
    per_step = sum((r.token_usage.model_calls for r in values["results"].values()), 0)
    assert per_step == values["usage"].model_calls


async def test_budget_holds_with_ainvoke(offline_services: Any) -> None:
    model = _model()
    services = build_services(
        offline_services.settings, chat_model=model, store=offline_services.store
    )
    app = make_graph(services=services, checkpointer=use_grace_serializer(InMemorySaver()))
    cfg = {"configurable": {"thread_id": "budget-async"}}
    await app.ainvoke({"query": SIMPLE[0]}, cfg)
    _assert_budget(model, (await app.aget_state(cfg)).values["usage"])


def test_run_outcome_exposes_usage(offline_services: Any) -> None:
    model = _model()
    services = build_services(
        offline_services.settings, chat_model=model, store=offline_services.store
    )
    saver = use_grace_serializer(InMemorySaver())
    grace_app = GraceApp(offline_services.settings, saver, services=services)
    outcome = grace_app.ask(SIMPLE[0])
    assert outcome.status == "completed"
    calls = len(model.calls)
    assert calls <= 3
    assert outcome.usage["model_calls"] == calls
    assert outcome.usage["input_tokens"] == TOKENS[0] * calls
    assert outcome.usage["output_tokens"] == TOKENS[1] * calls

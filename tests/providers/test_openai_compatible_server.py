"""End to end through the real langchain-openai client against a loopback OpenAI-compatible
server (as llama.cpp, vLLM or LM Studio serve): plan → answer → judge, all over HTTP."""

from __future__ import annotations

from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from grace.services import build_services
from grace.settings import GraceSettings
from grace.storage.serde import use_grace_serializer
from graph.app import GraceApp
from tests.providers.openai_server import fake_openai

COMPLEX = "When did the horse tram line open and who designed the Wren Point Lighthouse?"
PLAN = {
    "steps": [
        {"step_id": "s1", "action": "rag_search", "query": "horse tram line opened"},
        {"step_id": "s2", "action": "rag_search", "query": "Wren Point Lighthouse lamp"},
        {
            "step_id": "s3",
            "action": "reasoning",
            "query": COMPLEX,
            "depends_on": ["s1", "s2"],
        },
    ],
    "complexity": 0.7,
}
ANSWER = (
    "The horse tram line opened on 2 August 1874 [S1]; the first lamp at Wren Point was "
    "placed by the harbour master Tobias Wren [S2]."
)
VERDICT = {"self_evaluation": 0.9, "query_coverage": 0.9, "rationale": "supported by S1, S2"}


@pytest.fixture
def local_server() -> Any:
    with fake_openai({"PlanDraft": PLAN, "AnswerVerdict": VERDICT, "text": ANSWER}) as server:
        yield server


def _settings(offline_services: Any, base_url: str) -> GraceSettings:
    return GraceSettings(
        data_dir=offline_services.settings.data_dir,
        models={"chat": "openai:local-model", "base_url": base_url},
        confidence={"thresholds": {"silent": 0.0, "notify": 0.0, "confirm": 0.0}},
    )


def test_plan_answer_and_judge_go_through_the_openai_client(
    offline_services: Any, local_server: Any
) -> None:
    settings = _settings(offline_services, local_server.base_url)
    services = build_services(settings, store=offline_services.store)
    assert type(services.planner).__name__ == "LLMPlanner"
    assert services.provider == "openai"
    app = GraceApp(settings, use_grace_serializer(InMemorySaver()), services=services)
    outcome = app.ask(COMPLEX)
    assert outcome.status == "completed"
    assert "1874" in (outcome.answer or "") and "Tobias Wren" in (outcome.answer or "")
    kinds = local_server.kinds()
    assert kinds[0] == "PlanDraft" and "text" in kinds and "AnswerVerdict" in kinds
    assert all(body["model"] == "local-model" for body in local_server.requests)
    assert outcome.usage["model_calls"] == len(kinds)
    assert outcome.usage["input_tokens"] == 50 * len(kinds)  # usage read from the server


def test_the_model_can_be_chosen_per_run_through_the_context(
    offline_services: Any, local_server: Any
) -> None:
    from grace.context import GraceContext

    settings = GraceSettings(
        data_dir=offline_services.settings.data_dir,
        models={"base_url": local_server.base_url},
        confidence={"thresholds": {"silent": 0.0, "notify": 0.0, "confirm": 0.0}},
    )
    services = build_services(settings, store=offline_services.store)
    assert services.provider == "offline"
    app = GraceApp(settings, use_grace_serializer(InMemorySaver()), services=services)
    offline = app.ask(COMPLEX)
    assert local_server.requests == [] and offline.usage["model_calls"] == 0
    chosen = app.ask(COMPLEX, context=GraceContext(model="openai:local-model"))
    assert chosen.usage["model_calls"] > 0 and "Tobias Wren" in (chosen.answer or "")
    assert local_server.kinds()[0] == "PlanDraft"

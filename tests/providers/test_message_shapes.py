"""One graph, three ways models return structured output: an OpenAI-style tool call, JSON in
the message content (Gemini's JSON-schema mode), and JSON in plain text from a model with no
structured output at all (with one repair try)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from grace.providers.llm.judge import AnswerVerdict
from grace.providers.llm.planner import PlanDraft
from grace.providers.llm.structured import StructuredCall, read_structured
from grace.services import build_services
from grace.storage.serde import use_grace_serializer
from graph.builder import make_graph
from tests.fakes import RawToolArgs, ScriptedChatModel
from tests.providers.test_openai_compatible_server import ANSWER, COMPLEX, PLAN, VERDICT


class TextOnlyChatModel(ScriptedChatModel):
    """A chat model without tool calling (``with_structured_output`` is not available)."""

    def bind_tools(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("this model has no tool calling")


def _shape_replies(shape: str) -> list[Any]:
    """Replies in call order (plan, answer, judge) in one provider's message shape."""
    if shape == "openai-tool-call":
        return [RawToolArgs(json.dumps(PLAN)), ANSWER, RawToolArgs(json.dumps(VERDICT))]
    # Gemini's JSON-schema mode and text-only models both put the object in the content.
    return [json.dumps(PLAN), ANSWER, f"```json\n{json.dumps(VERDICT)}\n```"]


@pytest.mark.parametrize(
    ("shape", "model_cls"),
    [
        ("openai-tool-call", ScriptedChatModel),
        ("json-in-content", ScriptedChatModel),
        ("json-in-text", TextOnlyChatModel),
    ],
)
def test_each_shape_plans_answers_and_judges(
    offline_services: Any, shape: str, model_cls: type[ScriptedChatModel]
) -> None:
    model = model_cls.replying(*_shape_replies(shape))
    services = build_services(
        offline_services.settings, chat_model=model, store=offline_services.store
    )
    graph = make_graph(services=services, checkpointer=use_grace_serializer(InMemorySaver()))
    out = graph.invoke({"query": COMPLEX}, {"configurable": {"thread_id": shape}})
    values = graph.get_state({"configurable": {"thread_id": shape}}).values
    assert values["plan"].origin == "llm", values["plan"].repairs
    assert [s.step_id for s in values["plan"].steps] == [
        "s1",
        "s2",
        "s3",
    ]
    assert values["results"]["s3"].output.startswith("The horse tram line opened")
    final = values["scores"]["s3"]
    assert final.breakdown.get("llm_self_eval") == pytest.approx(0.9), final.breakdown
    assert out["answer"] and values["usage"].model_calls == 3


def _calls_text(model: ScriptedChatModel) -> list[str]:
    return [str(messages[-1].content) for messages in model.messages]


def test_json_in_text_gets_one_repair_try_with_the_error() -> None:
    model = TextOnlyChatModel.replying(
        "Sure! The verdict is: high.",  # not JSON
        json.dumps(VERDICT),
    )
    call = StructuredCall(model, AnswerVerdict)
    outcome = read_structured(call.invoke([HumanMessage("judge this")]), AnswerVerdict)
    assert outcome.value is not None and outcome.value.self_evaluation == 0.9
    asked, repair = _calls_text(model)
    assert "JSON object only" in asked and '"self_evaluation"' in asked  # the schema is shown
    assert "not usable" in repair and "no structured verdict" in repair


def test_json_in_text_that_stays_invalid_is_an_error_not_a_guess() -> None:
    model = TextOnlyChatModel.replying('{"self_evaluation": 7}', '{"self_evaluation": "high"}')
    outcome = read_structured(StructuredCall(model, AnswerVerdict).invoke([]), AnswerVerdict)
    assert outcome.value is None and outcome.error is not None
    assert model.count() == 2  # exactly one repair try


async def test_json_in_text_async_path_is_the_same() -> None:
    model = TextOnlyChatModel.replying(json.dumps(PLAN))
    result = await StructuredCall(model, PlanDraft).ainvoke([HumanMessage("plan")])
    assert read_structured(result, PlanDraft).value is not None and model.count() == 1


def _unused(messages: Sequence[BaseMessage]) -> AIMessage:  # pragma: no cover - typing aid
    return AIMessage(content="")

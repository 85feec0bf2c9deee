"""A local server that refuses ``json_schema`` (llama.cpp's: HTTP 500 "Input should be 'text'
or 'json_object'"): GRACE steps down once to JSON mode, never repeats the refused request, and
remembers what works for the process (issue 29.1)."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import HumanMessage
from pydantic import BaseModel

from grace.providers.llm.structured import FormatMemory, StructuredCall, read_structured
from grace.providers.models import chat_model, structured_methods
from tests.providers.openai_server import fake_openai


class Verdict(BaseModel):
    """A small schema for the test."""

    score: float
    why: str


def test_a_refused_json_schema_steps_down_once_and_is_remembered(monkeypatch: Any) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-local")
    reply = {"Verdict": {"score": 0.5, "why": "json mode"}, "text": "plain"}
    with fake_openai(reply, refuse_json_schema=True) as server:
        model = chat_model("openai:local", base_url=server.base_url, temperature=0.0, timeout=5)
        memory = FormatMemory()  # what the calls of one set of services share
        first = StructuredCall(model, Verdict, methods=structured_methods(model), memory=memory)
        result = read_structured(first.invoke([HumanMessage("Judge this.")]), Verdict)
        assert result.value == Verdict(score=0.5, why="json mode")
        assert first.method == "json_mode"
        assert len(server.refused) == 1  # stepped down at once, no identical retry
        # a new call of the same model and memory: no refusal
        second = StructuredCall(model, Verdict, methods=structured_methods(model), memory=memory)
        assert read_structured(second.invoke([HumanMessage("Again.")]), Verdict).value
        assert len(server.refused) == 1 and second.method == "json_mode"
        assert [b["response_format"]["type"] for b in server.requests] == ["json_object"] * 2
        # Nothing is remembered for the process: other services (another memory) learn afresh.
        other = StructuredCall(model, Verdict, methods=structured_methods(model))
        assert read_structured(other.invoke([HumanMessage("Once more.")]), Verdict).value
        assert len(server.refused) == 2 and other.method == "json_mode"


async def test_the_async_path_steps_down_too(monkeypatch: Any) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-local")
    reply = {"Verdict": {"score": 0.7, "why": "async"}, "text": "plain"}
    with fake_openai(reply, refuse_json_schema=True) as server:
        model = chat_model("openai:local", base_url=server.base_url, temperature=0.0, timeout=5)
        call = StructuredCall(model, Verdict, methods=structured_methods(model))
        result = read_structured(await call.ainvoke([HumanMessage("Judge this.")]), Verdict)
        assert result.value is not None and result.value.why == "async"
        assert len(server.refused) == 1


def test_an_error_that_is_not_a_refusal_propagates(monkeypatch: Any) -> None:

    class Down(Exception):
        pass

    class Model:
        model_name = "m"

        def with_structured_output(self, schema: Any, **kwargs: Any) -> Any:
            raise Down("connection refused")

    call = StructuredCall(Model(), Verdict)  # type: ignore[arg-type]
    try:
        call.invoke([HumanMessage("x")])
    except Down:
        pass
    else:  # pragma: no cover - the assertion below names the failure
        raise AssertionError("a connection error must reach the caller (RetryPolicy)")

"""Against a loopback server that behaves like llama.cpp's (issue 29.2-29.4): every request
carries its role's ``max_tokens``, a reply streamed past its budget is closed (the server sees
the connection end), and a model that failed is named in the notes, ``--json``
(``model_errors``) and the pause — never passed off as documents that lack the answer."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from langchain_openai import ChatOpenAI

from grace.schemas import Source
from grace.services import build_services
from grace.settings import GraceSettings
from tests.cli_runner import invoke_cli
from tests.providers.openai_server import RUNAWAY_TOKENS, fake_openai

QUESTION = "When did the horse tram line open and who designed the Wren Point Lighthouse?"
PLAN = {
    "steps": [
        {"step_id": "s1", "action": "rag_search", "query": "horse tram line opened"},
        {"step_id": "s2", "action": "reasoning", "query": QUESTION, "depends_on": ["s1"]},
    ],
    "complexity": 0.7,
}
ANSWER = "The horse tram line opened on 2 August 1874 [S1]."
VERDICT = {"self_evaluation": 0.9, "query_coverage": 0.9, "rationale": "supported by S1"}
BUDGETS = {"plan": 300, "answer": 40, "judge": 120, "rewrite": 30}
PAUSE = {"silent": 0.999, "notify": 0.998, "confirm": 0.997}
"""Thresholds at which the run pauses for a person."""
PASSAGES = [Source(source_id="S1", source="trams.md", text="The line opened in 1874.")]


@pytest.fixture(autouse=True)
def _local_key(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each test's services learn the server's formats afresh (no process-wide memory).
    monkeypatch.setenv("OPENAI_API_KEY", "sk-local")


def _services(offline_services: Any, base_url: str, **confidence: Any) -> Any:
    settings = GraceSettings(
        data_dir=offline_services.settings.data_dir,
        models={"chat": "openai:gemma-local", "base_url": base_url, "max_tokens": BUDGETS},
        confidence=confidence or {"thresholds": {"silent": 0.0, "notify": 0.0, "confirm": 0.0}},
    )
    return build_services(settings, store=offline_services.store)


def slow_services(offline_services: Any, base_url: str) -> Any:
    """Services whose answer only the run's model time of 2 s stops."""
    models = {
        "chat": "openai:gemma-local",
        "base_url": base_url,
        "max_tokens": {**BUDGETS, "answer": 4000},
        "run_budget_seconds": 2.0,
    }
    settings = GraceSettings(
        data_dir=offline_services.settings.data_dir,
        models=models,
        confidence={"thresholds": {"silent": 0.0, "notify": 0.0, "confirm": 0.0}},
    )
    return build_services(settings, store=offline_services.store)


def test_every_request_carries_the_max_tokens_of_its_role(offline_services: Any) -> None:
    with fake_openai({"PlanDraft": PLAN, "AnswerVerdict": VERDICT, "text": ANSWER}) as server:
        services = _services(offline_services, server.base_url)
        services.planner.plan(_plan_request(services))
        services.reader.answer(QUESTION, PASSAGES)
        services.reader.answer(QUESTION, PASSAGES, feedback="cite the year")
        services.judge.judge(QUESTION, ANSWER, ["The line opened in 1874."])
        services.evaluator.evaluate_scoring(QUESTION, ANSWER, ["The line opened in 1874."])
    kinds = server.kinds()
    bodies = zip(kinds, server.requests, strict=True)
    budgets = [(kind, body.get("max_tokens")) for kind, body in bodies]
    assert budgets == [
        ("PlanDraft", 300),
        ("text", 40),
        ("text", 30),  # the rewrite after a reviewer's feedback
        ("AnswerVerdict", 120),
        ("ScoreVerdict", 120),  # the quality gate's evaluator judges too
    ]
    texts = [body for kind, body in zip(kinds, server.requests, strict=True) if kind == "text"]
    assert all(body["stop"] == ["\nQuestion:", "<passage"] for body in texts)
    assert all(body["stream"] for body in server.requests)  # closed at the deadline if need be


def _plan_request(services: Any) -> Any:
    from grace.providers.base import PlanRequest

    return PlanRequest(query=QUESTION, collections=["grace"], default_collection="grace")


def test_a_stream_past_its_budget_is_closed_and_named(offline_services: Any) -> None:
    replies = {"text": ANSWER}
    with fake_openai(replies, runaway=True, honour_max_tokens=False) as server:
        services = _services(offline_services, server.base_url)
        from confidence.model_log import ModelLog

        log = ModelLog()
        answer = services.reader.answer(QUESTION, PASSAGES, log=log)
        events = log.events
    (sent,) = server.streams_closed  # the client closed the stream: generation stopped
    assert BUDGETS["answer"] < sent <= BUDGETS["answer"] + 5 < RUNAWAY_TOKENS
    assert server.streams_done == []
    assert answer.text.startswith("The horse tram line opened on 2 August 1874 [S1]")
    assert [(e.kind, e.role) for e in events] == [("failure", "answer")]
    assert "40-token budget: stream closed" in events[0].detail


async def test_an_async_stream_past_its_budget_is_closed(offline_services: Any) -> None:
    with fake_openai({"text": ANSWER}, runaway=True, honour_max_tokens=False) as server:
        services = _services(offline_services, server.base_url)
        answer = await services.reader.aanswer(QUESTION, PASSAGES, feedback="shorter")
        for _ in range(50):  # the handler thread notices the closed socket on its next write
            if server.streams_closed:
                break
            await _sleep(0.02)
    (sent,) = server.streams_closed
    assert BUDGETS["rewrite"] < sent <= BUDGETS["rewrite"] + 5
    assert "1874" in answer.text


async def _sleep(seconds: float) -> None:
    import asyncio

    await asyncio.sleep(seconds)


def test_a_failed_model_is_named_in_json_notes_and_the_pause(
    offline_services: Any, cli_services: Any
) -> None:
    """llama.cpp's refusals, a babbling reader and an unparsable judge, through ``grace ask``."""
    replies = {"PlanDraft": PLAN, "AnswerVerdict": "I think it is good", "text": ANSWER}
    with fake_openai(replies, refuse_json_schema=True, runaway=True) as server:
        cli_services(_services(offline_services, server.base_url, thresholds=PAUSE))
        out = json.loads(invoke_cli("ask", QUESTION, "--json").stdout)
    assert len(server.refused) == 1  # json_schema refused once, never asked again
    served = {b["response_format"]["type"] for b in server.requests if "response_format" in b}
    assert served == {"json_object"}  # every structured request after the refusal
    assert all(body.get("max_tokens") for body in server.requests)
    errors = out["model_errors"]
    assert errors and all(error in out["notes"] for error in errors)
    cut = "Model failure (answer): the reply reached its 40-token budget"
    assert any(error.startswith(cut) for error in errors)
    assert any(e.startswith("Model failure (judge): malformed judge output") for e in errors)
    method = "Structured output (plan): json_object (json_schema refused"
    assert any(note.startswith(method) for note in out["notes"])
    assert out["status"] == "interrupted", out
    description = out["interrupt"]["action_requests"][0]["description"]
    assert "**The model failed** (not the documents)" in description
    assert errors[0] in description
    assert "do not contain" not in json.dumps(out)


def test_a_structured_call_streams_and_is_closed_at_its_deadline() -> None:
    """A judge that babbles past its deadline: the connection is closed, not left."""
    from confidence.model_log import ModelLog
    from grace.providers.llm.judge import LLMAnswerJudge
    from grace.providers.llm.streaming import Budget
    from grace.providers.models import chat_model, structured_methods

    babble = " ".join(f"word{n}" for n in range(RUNAWAY_TOKENS))  # ~5 s at 1 ms a token
    with fake_openai({"AnswerVerdict": babble}, refuse_json_schema=True) as server:
        url = server.base_url
        model = chat_model("openai:gemma-local", base_url=url, temperature=0, timeout=5.0)
        judge = LLMAnswerJudge(
            model, stream=Budget(seconds=0.5), methods=structured_methods(model)
        )
        log = ModelLog()
        judgement = judge.judge(QUESTION, ANSWER, ["The line opened in 1874."], log=log)
        events = log.events
        for _ in range(50):
            if server.streams_closed:
                break
            time.sleep(0.02)
    assert judgement.self_eval is None and "0.5 s: stream closed" in (judgement.rationale or "")
    (sent,) = server.streams_closed  # closed by the client at its deadline
    assert 0 < sent < RUNAWAY_TOKENS and server.streams_done == []
    assert all(body["stream"] for body in server.requests)
    assert [(e.kind, e.role) for e in events] == [("method", "judge"), ("failure", "judge")]
    assert events[0].detail.startswith("json_object (json_schema refused")  # said on failure too


def test_an_empty_answer_is_a_model_failure_not_an_abstention(offline_services: Any) -> None:
    from confidence.model_log import ModelLog
    from grace.providers.llm.reader import NO_REPLY

    with fake_openai({"text": ""}) as server:
        services = _services(offline_services, server.base_url)
        log = ModelLog()
        answer = services.reader.answer(QUESTION, PASSAGES, log=log)
        events = log.events
    assert answer.text == NO_REPLY and "documents" not in answer.text.split(":")[0]
    assert [(e.kind, e.role) for e in events] == [("failure", "answer")]
    assert events[0].detail.startswith("the model's reply was empty (it may have begun with")


def test_a_run_whose_judge_failed_pauses_for_review(
    offline_services: Any, cli_services: Any
) -> None:
    """Issue 29 (honesty): thresholds that would end the run SILENT, but the judge failed."""
    replies = {"PlanDraft": PLAN, "AnswerVerdict": "I think it is good", "text": ANSWER}
    with fake_openai(replies) as server:
        cli_services(_services(offline_services, server.base_url))
        out = json.loads(invoke_cli("ask", QUESTION, "--json").stdout)
    assert any(e.startswith("Model failure (judge)") for e in out["model_errors"])
    assert out["status"] == "interrupted", out
    assert out["level"] in ("confirm", "escalate"), out
    description = out["interrupt"]["action_requests"][0]["description"]
    assert "**The model failed** (not the documents)" in description


def test_a_slow_server_stops_the_model_calls_at_the_run_budget(
    offline_services: Any, cli_services: Any
) -> None:
    """Issue 29 (time): a slow runaway answer spends the run's model time (``grace ask``).

    The answer's stream is closed at the run's budget, the judge is never asked (no
    request), no replan calls the model again, and the run pauses naming the failures.
    """
    replies = {"PlanDraft": PLAN, "AnswerVerdict": VERDICT, "text": ANSWER}
    with fake_openai(replies, runaway=True, honour_max_tokens=False, token_delay=0.02) as server:
        cli_services(slow_services(offline_services, server.base_url))
        out = json.loads(invoke_cli("ask", QUESTION, "--json").stdout)
    assert server.kinds() == ["PlanDraft", "text"], server.kinds()  # no judge, no replan
    assert len(server.streams_closed) == 1  # the answer's, closed at the run's budget
    errors = out["model_errors"]
    assert any(e.startswith("Model failure (answer): the reply ran past") for e in errors)
    judge = "Model failure (judge): ModelBudgetSpent: no model call: a model call timed out"
    assert any(e.startswith(judge) for e in errors), errors
    assert out["status"] == "interrupted", out
    assert out["level"] in ("confirm", "escalate"), out
    description = out["interrupt"]["action_requests"][0]["description"]
    assert "**The model failed** (not the documents)" in description


def test_the_run_budget_defaults_to_local_servers_only() -> None:
    """Unset: 22 s against a named server, no limit for a hosted provider or offline."""
    local = GraceSettings(models={"chat": "openai:gemma", "base_url": "http://127.0.0.1:1/v1"})
    assert local.model_run_budget() == 22.0
    named = GraceSettings(models={"base_url": "http://127.0.0.1:1/v1"})  # chat from --model
    assert named.model_run_budget() == 22.0
    hosted = GraceSettings(models={"chat": "google_genai:gemini-2.5-flash"})
    assert hosted.model_run_budget() is None
    assert GraceSettings(models={"chat": "offline"}).model_run_budget() is None
    chosen = GraceSettings(models={"chat": "google_genai:g", "run_budget_seconds": 90})
    assert chosen.model_run_budget() == 90.0


class LocalChat(ChatOpenAI):
    """A client of the OpenAI API under another class name (a user's subclass)."""


def test_a_server_that_sends_nothing_times_out_at_the_run_budget() -> None:
    """A server still reading a long prompt sends no chunk: the request times out at the
    run's budget (not at ``models.timeout_seconds``), and the run makes no further call.

    Whether a client takes a per-request timeout is the provider table's to say
    (``request_timeout_arg``), not a class name's: a subclass of ``ChatOpenAI`` times out too.
    """
    from confidence.model_log import ModelBudget, ModelBudgetSpent, ModelLog
    from grace.providers.llm.streaming import Budget, stream_within
    from grace.providers.models import request_timeout_arg

    with fake_openai({"text": "one two three"}, token_delay=5.0) as server:
        model = LocalChat(model="local", base_url=server.base_url, max_retries=0)
        budget = ModelBudget.start(0.5)
        within = Budget(seconds=60.0, timeout_arg=request_timeout_arg("openai:local"))
        started = time.monotonic()
        with pytest.raises(Exception, match="timed out"):
            stream_within(model, [("human", "hi")], within, ModelLog(budget))
        assert time.monotonic() - started < 3.0  # the run's 0.5 s, not the server's 5 s
        assert budget.spent is not None and "timed out" in budget.spent
        with pytest.raises(ModelBudgetSpent, match="no model call"):
            ModelLog(budget).time_left()


def test_a_token_budget_close_is_not_reported_as_a_timeout(offline_services: Any) -> None:
    """A judge that babbles past its token budget on a server that ignores ``max_tokens``:
    its stream is closed at the budget and named so — not a timeout, and the run's model
    time is not spent by it (the next call may start)."""
    from confidence.model_log import ModelBudget, ModelLog

    babble = " ".join(f"word{n}" for n in range(RUNAWAY_TOKENS))
    with fake_openai({"AnswerVerdict": babble}, honour_max_tokens=False) as server:
        services = _services(offline_services, server.base_url)
        budget = ModelBudget.start(60.0)
        log = ModelLog(budget)
        judgement = services.judge.judge(QUESTION, ANSWER, ["The line opened in 1874."], log=log)
        assert log.time_left() is not None  # no ModelBudgetSpent
        events = log.events
        for _ in range(50):
            if server.streams_closed:
                break
            time.sleep(0.02)
    (sent,) = server.streams_closed  # closed at the judge's budget, not at the stream's end
    assert BUDGETS["judge"] < sent <= BUDGETS["judge"] + 5
    assert budget.spent is None
    (failure,) = [e for e in events if e.kind == "failure"]
    assert "120-token budget: stream closed" in failure.detail
    assert "Timeout" not in failure.detail and "Timeout" not in (judgement.rationale or "")


def test_why_a_stream_was_closed_is_a_field() -> None:
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage, HumanMessage

    from confidence.model_log import ModelBudget, ModelLog
    from grace.providers.llm.streaming import Budget, stream_within

    def model() -> GenericFakeChatModel:
        return GenericFakeChatModel(messages=iter([AIMessage("a b c d e f g h i j")]))

    budget = ModelBudget.start(60.0)
    log = ModelLog(budget)
    by_tokens = stream_within(model(), [HumanMessage("hi")], Budget(max_tokens=3), log)
    whole = stream_within(model(), [HumanMessage("hi")], Budget(max_tokens=100), log)
    assert (by_tokens.closed, whole.closed, whole.cut) == ("tokens", None, None)
    assert budget.spent is None  # a token close spends no time
    by_time = stream_within(model(), [HumanMessage("hi")], Budget(seconds=0.0), log)
    assert by_time.closed == "time" and budget.spent is not None


def test_a_streamed_json_schema_call_logs_no_serializer_warning(offline_services: Any) -> None:
    """``json_schema`` through the OpenAI SDK's parsing stream helper warned on every call
    (``PydanticSerializationUnexpectedValue`` for the parsed object); the request is the
    same strict JSON schema, the reply validated by GRACE."""
    import warnings

    with fake_openai({"AnswerVerdict": VERDICT, "PlanDraft": PLAN}) as server:
        services = _services(offline_services, server.base_url)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            judgement = services.judge.judge(QUESTION, ANSWER, ["The line opened in 1874."])
            outcome = services.planner.plan(_plan_request(services))
    assert [str(w.message) for w in caught] == []
    assert judgement.self_eval == 0.9 and outcome.plan is not None
    formats = [body["response_format"] for body in server.requests]
    assert [f["json_schema"]["name"] for f in formats] == ["AnswerVerdict", "PlanDraft"]
    assert all(f["type"] == "json_schema" and f["json_schema"]["strict"] for f in formats)
    assert all(body["stream"] for body in server.requests)


def test_a_reply_closed_before_its_first_word_is_named_once() -> None:
    """A server still reading the prompt sends empty chunks until the deadline closes the
    stream: one failure, the cut — not also an "empty reply" that blames a stop sequence."""
    from collections.abc import Iterator

    from langchain_core.language_models import BaseChatModel
    from langchain_core.messages import AIMessageChunk, BaseMessage
    from langchain_core.outputs import ChatGenerationChunk, ChatResult

    from confidence.model_log import ModelLog
    from grace.providers.generation import ReplyLimits
    from grace.providers.llm.reader import NO_REPLY, LLMReader

    class Silent(BaseChatModel):
        @property
        def _llm_type(self) -> str:
            return "silent"

        def _generate(self, messages: list[BaseMessage], *args: Any, **kw: Any) -> ChatResult:
            raise NotImplementedError

        def _stream(
            self, messages: list[BaseMessage], *args: Any, **kw: Any
        ) -> Iterator[ChatGenerationChunk]:
            for _ in range(100):
                time.sleep(0.02)
                yield ChatGenerationChunk(message=AIMessageChunk(content=""))

    limits = ReplyLimits(answer=100, stop=("\nQuestion:",), seconds=0.2)
    log = ModelLog()
    answer = LLMReader(Silent(), limits=limits).answer(QUESTION, PASSAGES, log=log)
    events = log.events
    assert answer.text == NO_REPLY
    assert [(e.kind, e.role) for e in events] == [("failure", "answer")]
    assert "s: stream closed" in events[0].detail


def test_a_call_the_spent_run_time_stopped_counts_no_model_call(offline_services: Any) -> None:
    """Usage counts the calls made: a judge, evaluator or planner that the spent run time
    stopped made none (the smoke run's "calls" must match the requests the server saw)."""
    from confidence.model_log import ModelBudget, ModelLog

    with fake_openai({"PlanDraft": PLAN, "AnswerVerdict": VERDICT}) as server:
        services = _services(offline_services, server.base_url)
        log = ModelLog(ModelBudget.start(60.0))
        log.timed_out("an earlier call")
        judgement = services.judge.judge(QUESTION, ANSWER, ["The line opened in 1874."], log=log)
        gate = services.evaluator.evaluate_scoring(QUESTION, ANSWER, ["S1"], log=log)
        outcome = services.planner.plan(_plan_request(services), log=log)
        events = log.events
    assert server.requests == []
    assert (judgement.model_calls, outcome.usage.model_calls) == (0, 0)
    assert gate.model_calls == 0
    assert len(events) == 3 and all("ModelBudgetSpent" in e.detail for e in events)

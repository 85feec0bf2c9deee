"""Transient errors are retried by LangGraph's RetryPolicy; permanent ones fail the step;
nothing escapes ``invoke``; per-step timeouts."""

from __future__ import annotations

from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from grace.storage.serde import use_grace_serializer
from nodes.execute import TransientToolError, is_transient_error
from tests.fakes import ScriptedChatModel
from tests.reliability.conftest import (
    ALWAYS_SILENT,
    COMPLEX,
    GOOD_VERDICT,
    SIMPLE,
    Wrapped,
    cfg,
    make_services,
    with_tools,
)

ANSWER = "It opened on 2 August 1874 [S1]."


class HTTPError(Exception):
    def __init__(self, status_code: int) -> None:
        super().__init__(f"HTTP {status_code}")
        self.status_code = status_code


class ResourceExhausted(Exception):
    """Named like google-api-core's 429 error."""


class _Resp:
    status_code = 503


class WithResponse(Exception):
    response = _Resp()


def _chained() -> Exception:
    try:
        raise HTTPError(429)
    except HTTPError as inner:
        try:
            raise RuntimeError("model call failed") from inner
        except RuntimeError as outer:
            return outer


@pytest.mark.parametrize(
    ("exc", "transient"),
    [
        (TimeoutError("slow"), True),
        (ConnectionError("reset"), True),
        (TransientToolError("s1"), True),
        (HTTPError(429), True),
        (HTTPError(503), True),
        (HTTPError(500), True),
        (HTTPError(408), True),
        (WithResponse("bad gateway"), True),
        (ResourceExhausted("quota"), True),
        (_chained(), True),
        (HTTPError(400), False),
        (HTTPError(401), False),
        (ValueError("bad request"), False),
        (KeyError("x"), False),
    ],
)
def test_transient_classification(exc: Exception, transient: bool) -> None:
    assert is_transient_error(exc) is transient


def _run(fast_retries: Any, services: Any, query: str, thread: str) -> tuple[dict[str, Any], Any]:
    app = fast_retries(services).compile(checkpointer=use_grace_serializer(InMemorySaver()))
    out = app.invoke({"query": query}, cfg(thread))
    return out, app.get_state(cfg(thread)).values


def test_a_rate_limited_model_call_is_retried_and_succeeds(
    offline_services: Any, fast_retries: Any
) -> None:
    model = ScriptedChatModel.of(answers=[HTTPError(429), ANSWER], verdicts=[GOOD_VERDICT])
    search = Wrapped(offline_services.tools.get("rag_search"))
    services = with_tools(
        make_services(offline_services, chat_model=model, confidence=ALWAYS_SILENT),
        rag_search=search,
    )
    out, values = _run(fast_retries, services, SIMPLE, "retry-ok")
    assert model.count("text") == 2  # the 429, then the answer
    assert len(search.calls) == 1  # the earlier step is not run again
    assert values["results"]["s2"].status.value == "success"
    assert not values["results"]["s2"].used_fallback and values["replans"] == []
    assert "1874" in out["answer"]


def test_finished_steps_of_a_retried_batch_are_not_run_again(
    offline_services: Any, fast_retries: Any
) -> None:
    def fail(n: int, call: Any) -> BaseException | None:
        return ConnectionError("reset") if "Lighthouse" in call.step.query and n == 1 else None

    search = Wrapped(offline_services.tools.get("rag_search"), fail=fail)
    services = with_tools(
        make_services(offline_services, confidence=ALWAYS_SILENT), rag_search=search
    )
    out, values = _run(fast_retries, services, COMPLEX, "retry-batch")
    tram = [q for q in search.calls if "tram" in q]
    lighthouse = [q for q in search.calls if "Lighthouse" in q]
    assert (len(tram), len(lighthouse)) == (1, 2), search.calls
    assert values["results"]["s1"].status.value == "success"
    assert values["results"]["s2"].status.value == "success"
    assert values["replans"] == [] and out["answer"]


def test_retries_used_up_fail_the_step_and_replan_switches_to_the_fallback(
    offline_services: Any, fast_retries: Any
) -> None:
    model = ScriptedChatModel.of(answers=[HTTPError(503)] * 3, verdicts=[])
    services = make_services(offline_services, chat_model=model)
    out, values = _run(fast_retries, services, SIMPLE, "retry-exhausted")  # never raises
    assert model.count("text") == 3  # retry_max_attempts
    failed = values["results"]["s2"]
    assert failed.status.value == "failed" and not failed.used_fallback
    assert "no retry left" in (failed.error or "")
    record = values["replans"][0]
    assert (record.trigger, record.strategy) == ("step_failed", "fallback")
    assert values["results"]["r1-s2"].action == "ask_user"
    assert out["__interrupt__"][0].value["level"] == "escalate"


def test_a_permanent_error_fails_at_once_and_uses_the_fallback(
    offline_services: Any, fast_retries: Any
) -> None:
    model = ScriptedChatModel.of(answers=[HTTPError(400)], verdicts=[])
    services = make_services(offline_services, chat_model=model)
    out, values = _run(fast_retries, services, SIMPLE, "permanent")
    assert model.count("text") == 1  # no retry
    result = values["results"]["s2"]
    assert result.used_fallback and result.action == "ask_user"
    assert "HTTPError" in (result.error or "")
    assert "__interrupt__" in out


def test_an_unexpected_exception_in_a_tool_never_escapes_invoke(
    offline_services: Any, fast_retries: Any
) -> None:
    search = Wrapped(offline_services.tools.get("rag_search"), fail=lambda n, c: KeyError("boom"))
    services = with_tools(make_services(offline_services), rag_search=search)
    out, values = _run(fast_retries, services, SIMPLE, "boom")
    assert values["results"]["s1"].status.value == "failed"
    assert "KeyError" in (values["results"]["s1"].error or "")
    assert "__interrupt__" in out or out["answer"]


def test_a_step_over_its_timeout_is_retried_then_fails(
    offline_services: Any, fast_retries: Any
) -> None:
    import threading

    hold = threading.Event()  # the model never answers until the run is over
    model = ScriptedChatModel.of(answers=[ANSWER] * 6, verdicts=[GOOD_VERDICT] * 3, hold=hold)
    services = make_services(offline_services, chat_model=model, run={"step_timeout_seconds": 0.15})
    try:
        out, values = _run(fast_retries, services, SIMPLE, "timeout")
        # The run returned while its timed-out calls still wait: it abandoned them.
        assert model.script.waiting > 0
    finally:
        hold.set()
    failed = values["results"]["s2"]
    assert failed.status.value == "failed"
    assert "timed out after 0.15s" in (failed.error or "")
    assert values["replans"][0].strategy == "fallback"
    assert "__interrupt__" in out


def test_the_plan_steps_timeout_overrides_the_default(offline_services: Any) -> None:
    from grace.schemas import PlanStep
    from grace.tools import ToolCall
    from nodes.execute import run_step

    model = ScriptedChatModel.of(answers=[ANSWER] * 2, latency=0.5)
    services = make_services(offline_services, chat_model=model)
    env = services.tool_env(__import__("grace.context", fromlist=["GraceContext"]).GraceContext())
    step = PlanStep(step_id="s1", action="reasoning", query=SIMPLE, timeout_seconds=0.1)
    with pytest.raises(TransientToolError, match="timed out after 0.1s"):
        run_step(services, step, ToolCall(step=step), env, default_timeout=60.0)


def test_the_failure_path_is_langgraphs_retry_policy_and_error_handler() -> None:
    from graph.builder import ERROR_HANDLERS, make_builder
    from nodes.execute import step_failed

    nodes = make_builder().nodes
    handler = nodes["execute"].error_handler_node
    assert nodes["execute"].retry_policy is not None
    assert handler is not None and nodes[handler].is_error_handler
    assert ERROR_HANDLERS["execute"] == (step_failed, "confidence")


def test_a_handler_resumed_with_the_errors_text_runs_the_step_once_more(
    offline_services: Any,
) -> None:
    """After a restart LangGraph hands the handler the error's text only: the step runs again."""
    from langgraph.runtime import Runtime

    from confidence.model_log import ModelLog
    from grace.context import GraceContext
    from grace.schemas import PlanStep
    from grace.state import StepTask
    from nodes.execute import step_failed

    search = Wrapped(offline_services.tools.get("rag_search"))
    services = with_tools(make_services(offline_services), rag_search=search)
    step = PlanStep(step_id="s1", action="rag_search", query="horse tram line")
    text = "TransientToolError('step s1: rag_search failed: ConnectionError: reset')"
    runtime = Runtime(context=GraceContext())
    update = step_failed(StepTask(step=step), text, runtime, services, ModelLog())
    assert search.calls == ["horse tram line"]
    assert update["results"]["s1"].status.value == "success"


def test_an_error_outside_the_tool_stops_the_run_before_the_batch_is_scored(
    offline_services: Any, fast_retries: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The error handler raises what is not a tool's failure again: the run stops at once."""
    from grace.services import Services

    def broken_env(*args: Any, **kwargs: Any) -> Any:
        raise LookupError("no environment")

    services = make_services(offline_services)
    monkeypatch.setattr(Services, "tool_env", broken_env)
    app = fast_retries(services).compile(checkpointer=use_grace_serializer(InMemorySaver()))
    with pytest.raises(LookupError, match="no environment"):
        app.invoke({"query": SIMPLE}, cfg("broken"))
    snapshot = app.get_state(cfg("broken"))
    assert snapshot.next == ("execute",)  # stopped at the step: confidence never ran
    assert "confidence" not in snapshot.values


def test_the_handler_raises_a_copy_of_what_is_not_a_tool_failure(offline_services: Any) -> None:
    """LangGraph counts the handed-in exception as handled; a copy (same type) stops the run."""
    from langgraph.runtime import Runtime

    from confidence.model_log import ModelLog
    from grace.context import GraceContext
    from grace.errors import ModelSetupError
    from grace.schemas import PlanStep
    from grace.state import StepTask
    from nodes.execute import step_failed

    step = PlanStep(step_id="s1", action="rag_search", query="horse tram line")
    original = ModelSetupError("no key for openai")
    runtime = Runtime(context=GraceContext())
    with pytest.raises(ModelSetupError, match="no key for openai") as raised:
        step_failed(StepTask(step=step), original, runtime, offline_services, ModelLog())
    assert raised.value is not original and raised.value.__dict__ == original.__dict__

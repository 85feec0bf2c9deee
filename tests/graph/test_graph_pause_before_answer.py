"""``run.pause_before_answer``: when a batch before the answer step may pause the run."""

from __future__ import annotations

from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from grace.schemas import ToolResult
from grace.storage.serde import use_grace_serializer
from grace.tools import ToolCall, ToolEnv
from graph.builder import make_graph
from tests.graph.conftest import cfg
from tests.reliability.conftest import Wrapped, make_services, with_tools

ANSWERABLE = "When did the horse tram line open in Lumen Bay?"
ALWAYS_CONFIRM = {"thresholds": {"silent": 1.0, "notify": 1.0, "confirm": 0.0}}


class EmptySearch:
    """A search tool that always succeeds with no hits."""

    name = "rag_search"
    description = "Retrieve passages (finds nothing)."
    role = "search"
    signals = ()

    def runs_inline(self, env: ToolEnv) -> bool:
        return False

    def run(self, call: ToolCall, env: ToolEnv) -> ToolResult:
        return ToolResult(
            success=True,
            output="0 passages from nothing (best score 0.00)",
            sources=[],
            confidence_factors={
                "result_count": 0.0,
                "max_score": 0.0,
                "mean_score": 0.0,
                "spread": 0.0,
            },
        )

    async def arun(self, call: ToolCall, env: ToolEnv) -> ToolResult:
        return self.run(call, env)


def _app(services: Any) -> Any:
    return make_graph(services=services, checkpointer=use_grace_serializer(InMemorySaver()))


def _events(app: Any, thread: str) -> list[dict[str, Any]]:
    return list(app.stream({"query": ANSWERABLE}, cfg(thread), stream_mode="custom"))


def test_default_is_on_failure() -> None:
    from grace.settings import RunSettings

    assert RunSettings().pause_before_answer == "on_failure"


@pytest.mark.parametrize("mode", ["on_failure", "never"])
def test_a_mediocre_search_goes_on_to_a_draft_answer(offline_services: Any, mode: str) -> None:
    services = make_services(
        offline_services, confidence=ALWAYS_CONFIRM, run={"pause_before_answer": mode}
    )
    app = _app(services)
    events = _events(app, f"mediocre-{mode}")
    scored = [e for e in events if e["event"] == "step_scored"]
    assert [e["step_id"] for e in scored] == ["s1", "s2"]  # every step is scored and streamed
    assert scored[0]["level"] == "confirm"  # the search alone would have paused
    pauses = [e for e in events if e["event"] == "intervention_required"]
    assert [p["step_id"] for p in pauses] == ["s2"]  # but the run pauses on the draft answer
    notices = [e for e in events if e["event"] == "notice"]
    assert any("draft answer" in n["message"] for n in notices)
    state = app.get_state(cfg(f"mediocre-{mode}"))
    assert state.values["results"]["s2"].output  # the person reviews a draft


def test_always_keeps_the_per_step_gating(offline_services: Any) -> None:
    services = make_services(
        offline_services, confidence=ALWAYS_CONFIRM, run={"pause_before_answer": "always"}
    )
    app = _app(services)
    events = _events(app, "always")
    pause = events[-1]
    assert pause["event"] == "intervention_required"
    assert (pause["step_id"], pause["level"]) == ("s1", "confirm")
    assert "s2" not in app.get_state(cfg("always")).values["results"]


def test_a_search_without_hits_pauses_before_the_answer(offline_services: Any) -> None:
    services = with_tools(
        make_services(offline_services, run={"low_confidence_replans": 0}),
        rag_search=EmptySearch(),
    )
    app = _app(services)
    out = app.invoke({"query": ANSWERABLE}, cfg("empty"))
    request = out["__interrupt__"][0].value
    assert (request["step_id"], request["level"]) == ("s1", "escalate")
    values = app.get_state(cfg("empty")).values
    assert "found no passage" in values["decision"].reason
    assert "s2" not in values["results"]


def test_a_search_without_hits_broadens_the_search_before_asking(offline_services: Any) -> None:
    services = with_tools(make_services(offline_services), rag_search=EmptySearch())
    app = _app(services)
    out = app.invoke({"query": ANSWERABLE}, cfg("empty-replan"))
    assert "__interrupt__" in out
    replans = app.get_state(cfg("empty-replan")).values["replans"]
    assert [(r.trigger, r.strategy) for r in replans] == [("low_confidence", "partial")]


def test_never_answers_even_without_hits(offline_services: Any) -> None:
    services = with_tools(
        make_services(
            offline_services, run={"pause_before_answer": "never", "low_confidence_replans": 0}
        ),
        rag_search=EmptySearch(),
    )
    app = _app(services)
    out = app.invoke({"query": ANSWERABLE}, cfg("never-empty"))
    request = out["__interrupt__"][0].value
    assert request["step_id"] == "s2"  # the (abstaining) answer step ran and was scored
    assert request["level"] == "escalate"


def test_a_failed_search_pauses_before_the_answer_once_replans_are_used(
    offline_services: Any,
) -> None:
    search = Wrapped(
        offline_services.tools.get("rag_search"), fail=lambda n, c: ValueError("index corrupt")
    )
    services = with_tools(
        make_services(offline_services, run={"max_replans": 0}), rag_search=search
    )
    app = _app(services)
    out = app.invoke({"query": ANSWERABLE}, cfg("failed"))
    assert out["__interrupt__"][0].value["level"] == "escalate"
    values = app.get_state(cfg("failed")).values
    assert "failed" in values["decision"].reason
    assert "s2" not in values["results"]
    out = app.invoke(Command(resume={"type": "ignore"}), cfg("failed"))
    assert out["answer"]


def test_a_handled_step_error_outlives_its_run(
    offline_services: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The error LangGraph routed to ``execute``'s handler is still alive when the run ends.

    LangGraph's runner remembers a handled error by ``id()`` for the whole invocation; were
    the error freed, the pause's ``GraphInterrupt`` could be given its id, be taken as
    handled and dropped, and the resume above would find nothing to resume (it did, about
    once in 40 runs under thread jitter: ``graph.builder._keep_alive``).
    """
    import gc
    import weakref

    from graph import builder as graph_builder
    from nodes.execute import StepFailedError, step_failed

    seen: list[weakref.ref[BaseException]] = []

    def spy(task: Any, error: BaseException | str, *rest: Any) -> dict[str, Any]:
        assert isinstance(error, StepFailedError)
        seen.append(weakref.ref(error))
        return step_failed(task, error, *rest)

    monkeypatch.setitem(graph_builder.ERROR_HANDLERS, "execute", (spy, "confidence"))
    search = Wrapped(
        offline_services.tools.get("rag_search"), fail=lambda n, c: ValueError("index corrupt")
    )
    services = with_tools(
        make_services(offline_services, run={"max_replans": 0}), rag_search=search
    )
    app = _app(services)
    assert app.invoke({"query": ANSWERABLE}, cfg("kept"))["__interrupt__"]
    del app
    gc.collect()
    assert len(seen) == 1
    assert seen[0]() is not None


def test_going_on_names_the_thresholds_that_will_decide_the_run(offline_services: Any) -> None:
    # A search scored 0.77 goes on to the draft answer; its notice names the thresholds the
    # run's level is decided at (the learned model's), not the configured 0.98 / 0.6 / 0.4.
    from confidence import ConfidenceScore
    from grace.schemas import StepResult, StepStatus
    from grace.scoring.decision import thresholds_in_force
    from nodes.confidence import decide_before_answer

    services = offline_services
    configured = services.settings.confidence.thresholds
    batch = [StepResult(step_id="s1", action="rag_search", status=StepStatus.SUCCESS,
                        factors={"result_count": 5.0})]
    decision = decide_before_answer(
        services, batch, {"s1": ConfidenceScore(score=0.77)}, configured
    )
    deciding, source = thresholds_in_force(services.calculator, services.provider, configured)
    assert decision.level.value == "notify"
    assert "going on to a draft answer" in decision.reason
    # as written as the final notice writes them (0.9259, not 0.93: one figure for one rule)
    assert f"silent {deciding.silent:.4g} / notify {deciding.notify:.4g}" in decision.reason
    assert f"({source})" in decision.reason
    assert "silent threshold 0.98" not in decision.reason

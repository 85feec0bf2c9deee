"""Streaming: GRACE's ``custom`` events (schema in ``grace/notes/events.py``), ``updates`` and
``messages`` (answer tokens on the model-backed path), sync and async.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.messages import AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGenerationChunk
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from grace.notes.events import EVENT_TYPES
from grace.services import build_services
from grace.storage.serde import use_grace_serializer
from graph.builder import make_graph
from tests.fakes import ScriptedChatModel
from tests.graph.conftest import services_with_thresholds

ANSWERABLE = "When did the horse tram line open in Lumen Bay?"
UNANSWERABLE = "Who won the 2018 FIFA World Cup?"
GOOD_VERDICT = {"self_evaluation": 0.95, "query_coverage": 0.9, "rationale": "supported"}
LEVELS = {"silent", "notify", "confirm", "escalate"}

# Required fields of each event (the documented schema); other types in EVENT_TYPES (e.g. the
# quality gate's) must only be known names.
SCHEMA: dict[str, set[str]] = {
    "plan_ready": {"plan_id", "origin", "steps", "repairs"},
    "step_started": {"step_id", "action"},
    "step_finished": {"step_id", "status", "execution_time_ms"},
    "step_scored": {"step_id", "confidence", "level"},
    "notice": {"level", "confidence", "message"},
    "intervention_required": {"level", "confidence", "step_id"},
    "replan": {"trigger", "strategy", "reason"},
    "final": {"confidence", "level"},
}


def cfg(thread: str) -> Any:
    return {"configurable": {"thread_id": thread}}


@pytest.fixture
def app(offline_services: Any) -> Iterator[Any]:
    yield make_graph(
        services=offline_services, checkpointer=use_grace_serializer(InMemorySaver())
    )


def check_run_grammar(events: list[dict[str, Any]]) -> None:
    """One run's events: plan_ready, then per step started → finished → scored (+ notice),
    ending with final or intervention_required; every event carries its schema's fields.
    """
    assert SCHEMA.keys() <= set(EVENT_TYPES)
    for e in events:
        assert e["event"] in EVENT_TYPES, e
        missing = SCHEMA.get(e["event"], set()) - e.keys()
        assert not missing, f"{e['event']} lacks {missing}"
    names = [e["event"] for e in events]
    assert names[0] == "plan_ready"
    assert names[-1] in {"final", "intervention_required"}
    planned = {s["step_id"] for e in events if e["event"] == "plan_ready" for s in e["steps"]}
    started: list[str] = []
    for e in events:
        if e["event"] == "step_started":
            started.append(e["step_id"])
        elif e["event"] == "step_finished":
            assert e["step_id"] in started
            assert e["status"] in {"success", "failed", "partial", "skipped"}
        elif e["event"] == "step_scored":
            assert e["step_id"] in started
            assert 0.0 <= e["confidence"] <= 1.0
            assert e["level"] in LEVELS
        elif e["event"] in {"final", "intervention_required", "notice"}:
            assert e["level"] in LEVELS
    assert set(started) <= planned
    # Each started step finishes before it is scored.
    for sid in started:
        order = [e["event"] for e in events if e.get("step_id") == sid]
        assert order[:2] == ["step_started", "step_finished"], (sid, order)
        if "step_scored" in order:
            assert order.index("step_scored") > 1, (sid, order)


def test_custom_events_of_an_answered_run(app: Any) -> None:
    events = list(app.stream({"query": ANSWERABLE}, cfg("s-ok"), stream_mode="custom"))
    check_run_grammar(events)
    names = [e["event"] for e in events]
    assert names[:4] == ["plan_ready", "step_started", "step_finished", "step_scored"]
    assert names[-1] == "final"
    assert "intervention_required" not in names
    plan = events[0]
    assert [s["action"] for s in plan["steps"]] == ["rag_search", "reasoning"]
    scored = [e["step_id"] for e in events if e["event"] == "step_scored"]
    assert scored == [s["step_id"] for s in plan["steps"]]
    assert events[-1]["level"] in {"silent", "notify"}


def test_custom_events_of_a_paused_run(app: Any) -> None:
    events = list(app.stream({"query": UNANSWERABLE}, cfg("s-pause"), stream_mode="custom"))
    check_run_grammar(events)
    last = events[-1]
    assert last["event"] == "intervention_required"
    assert last["level"] in {"confirm", "escalate"}
    scored = [e for e in events if e["event"] == "step_scored"]
    assert last["step_id"] == scored[-1]["step_id"]
    state = app.get_state(cfg("s-pause")).values
    assert state["plan"].steps[-1].step_id == last["step_id"]  # paused on the draft answer
    # After the last step the pause is decided on the run's overall (calibrated) confidence.
    assert state["confidence"] is not None
    assert last["confidence"] == pytest.approx(state["confidence"])
    assert last["confidence"] == pytest.approx(state["decision"].score)


def test_replan_event_after_an_edit(app: Any) -> None:
    list(app.stream({"query": UNANSWERABLE}, cfg("s-edit"), stream_mode="custom"))
    edit = {"type": "edit", "args": {"args": {"query": ANSWERABLE}}}
    events = list(app.stream(Command(resume=edit), cfg("s-edit"), stream_mode="custom"))
    names = [e["event"] for e in events]
    assert "replan" in names
    replan = events[names.index("replan")]
    assert replan["trigger"] and replan["strategy"]
    after = names[names.index("replan") :]
    assert "step_started" in after
    assert names[-1] == "final"


def test_notify_writes_a_notice_and_never_pauses(offline_services: Any) -> None:
    # notify 0: even the abstention (scored 0 on answer evidence) is NOTIFY, never a pause.
    services = services_with_thresholds(offline_services, silent=0.999, notify=0.0, confirm=0.0)
    app = make_graph(services=services, checkpointer=use_grace_serializer(InMemorySaver()))
    chunks = list(
        app.stream({"query": UNANSWERABLE}, cfg("s-notify"), stream_mode=["custom", "updates"])
    )
    events = [c for mode, c in chunks if mode == "custom"]
    check_run_grammar(events)
    notices = [e for e in events if e["event"] == "notice"]
    assert notices and all(n["level"] == "notify" and n["message"] for n in notices)
    assert events[-1]["event"] == "final"
    updates = [c for mode, c in chunks if mode == "updates"]
    assert not any("__interrupt__" in u for u in updates)


def test_updates_name_the_nodes_in_order(app: Any) -> None:
    nodes = [
        next(iter(u))
        for u in app.stream({"query": UNANSWERABLE}, cfg("s-upd"), stream_mode="updates")
    ]
    assert nodes[:3] == ["plan", "execute", "confidence"]
    assert nodes[-1] == "__interrupt__"


async def test_astream_yields_the_same_events(app: Any) -> None:
    sync = [
        e["event"] for e in app.stream({"query": ANSWERABLE}, cfg("s-sync"), stream_mode="custom")
    ]
    events = [
        e async for e in app.astream({"query": ANSWERABLE}, cfg("s-async"), stream_mode="custom")
    ]
    check_run_grammar(events)
    assert [e["event"] for e in events] == sync

    paused = [
        e async for e in app.astream({"query": UNANSWERABLE}, cfg("s-apause"), stream_mode="custom")
    ]
    assert paused[-1]["event"] == "intervention_required"
    resumed = [
        e
        async for e in app.astream(
            Command(resume={"type": "ignore"}), cfg("s-apause"), stream_mode="custom"
        )
    ]
    assert resumed[-1]["event"] == "final"


# --- messages: answer tokens on the model-backed (Gemini) path -------------------------------


class StreamingScriptedChatModel(ScriptedChatModel):
    """The scripted model, streaming its text replies word by word (as Gemini streams)."""

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        message = self._generate(messages, stop, None, **kwargs).generations[0].message
        if self.tool_names:  # structured output: one chunk
            yield ChatGenerationChunk(
                message=AIMessageChunk(
                    content="",
                    tool_call_chunks=[
                        {"name": c["name"], "args": _json(c["args"]), "id": c["id"], "index": 0}
                        for c in getattr(message, "tool_calls", [])
                    ],
                    usage_metadata=message.usage_metadata,  # type: ignore[attr-defined]
                )
            )
            return
        words = str(message.content).split(" ")
        for i, word in enumerate(words):
            last = i == len(words) - 1
            yield ChatGenerationChunk(
                message=AIMessageChunk(
                    content=word if last else word + " ",
                    usage_metadata=message.usage_metadata if last else None,  # type: ignore[attr-defined]
                )
            )


def _json(args: Any) -> str:
    import json

    return json.dumps(args)


ANSWER = "The horse tram line opened on 2 August 1874 [S1]."


def _gemini_services(offline_services: Any) -> tuple[Any, StreamingScriptedChatModel]:
    model = StreamingScriptedChatModel.of(answers=[ANSWER], verdicts=[GOOD_VERDICT])
    assert isinstance(model, StreamingScriptedChatModel)
    services = build_services(
        offline_services.settings, chat_model=model, store=offline_services.store
    )
    return services, model


def _reader_tokens(chunks: list[tuple[Any, dict[str, Any]]]) -> list[str]:
    return [
        str(msg.content)
        for msg, meta in chunks
        if meta.get("langgraph_node") == "execute"
        and isinstance(msg, AIMessageChunk)
        and msg.content
    ]


def test_messages_stream_carries_the_answer_tokens(offline_services: Any) -> None:
    services, model = _gemini_services(offline_services)
    app = make_graph(services=services, checkpointer=use_grace_serializer(InMemorySaver()))
    chunks = list(app.stream({"query": ANSWERABLE}, cfg("s-msg"), stream_mode="messages"))
    final = app.get_state(cfg("s-msg")).values
    tokens = _reader_tokens(chunks)
    assert len(tokens) == len(ANSWER.split(" ")) > 1
    assert "".join(tokens) == ANSWER
    assert final["answer"] == ANSWER
    assert model.count("text") == 1
    # Reader usage is still counted from the streamed chunks.
    assert final["results"]["s2"].token_usage.model_calls >= 1


async def test_messages_astream_carries_the_answer_tokens(offline_services: Any) -> None:
    services, _ = _gemini_services(offline_services)
    app = make_graph(services=services, checkpointer=use_grace_serializer(InMemorySaver()))
    chunks = [
        c
        async for c in app.astream({"query": ANSWERABLE}, cfg("s-amsg"), stream_mode="messages")
    ]
    assert "".join(_reader_tokens(chunks)) == ANSWER


def test_a_non_streaming_model_still_surfaces_its_answer(offline_services: Any) -> None:
    model = ScriptedChatModel.of(answers=[ANSWER], verdicts=[GOOD_VERDICT])
    services = build_services(
        offline_services.settings, chat_model=model, store=offline_services.store
    )
    app = make_graph(services=services, checkpointer=use_grace_serializer(InMemorySaver()))
    chunks = list(app.stream({"query": ANSWERABLE}, cfg("s-msg1"), stream_mode="messages"))
    from_reader = [m for m, meta in chunks if meta.get("langgraph_node") == "execute"]
    assert [m.content for m in from_reader] == [ANSWER]

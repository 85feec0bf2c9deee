"""Thread semantics: a new question on a finished thread is a new turn, never the old answer;
a paused thread refuses a new question; an incomplete thread runs on with ``grace resume``."""

from __future__ import annotations

import json
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from grace.state import ABANDONED_TURN_NOTE
from grace.storage.serde import use_grace_serializer
from graph.app import GraceApp, ThreadNotIncompleteError, ThreadPausedError
from graph.builder import make_graph
from tests.cli_runner import invoke_cli
from tests.reliability.conftest import SIMPLE, UNANSWERABLE, cfg

FESTIVAL_JA = "霧ヶ丘の祭りはいつ？"


@pytest.fixture
def grace_app(offline: Any) -> GraceApp:
    return GraceApp(offline.settings, use_grace_serializer(InMemorySaver()), services=offline)


@pytest.fixture
def run_cli(offline: Any) -> Any:
    return invoke_cli


def test_cli_second_question_on_a_finished_thread_is_answered_itself(run_cli: Any) -> None:
    first = json.loads(run_cli("ask", SIMPLE, "--thread-id", "turns", "--json").stdout)
    assert first["status"] == "completed" and "1874" in first["answer"]
    second = json.loads(run_cli("ask", FESTIVAL_JA, "--thread-id", "turns", "--json").stdout)
    if second["status"] == "interrupted":  # the level is the model's call, not this test's
        approve = '{"decisions": [{"type": "approve"}]}'
        second = json.loads(run_cli("resume", "turns", "--response", approve, "--json").stdout)
    assert second["status"] == "completed"
    assert "10月" in second["answer"] and "1874" not in second["answer"]
    shown = json.loads(run_cli("show", "turns", "--json").stdout)
    assert shown["summary"]["query"] == FESTIVAL_JA


def test_cli_unanswerable_second_question_does_not_inherit_the_old_silent_answer(
    run_cli: Any,
) -> None:
    run_cli("ask", SIMPLE, "--thread-id", "reused", "--json")
    second = json.loads(run_cli("ask", UNANSWERABLE, "--thread-id", "reused", "--json").stdout)
    assert second["status"] == "interrupted"  # the reported defect: 1874 again, at SILENT
    assert second["interrupt"]["action_requests"][0]["args"]["query"] == UNANSWERABLE


def test_python_api_new_turn_keeps_the_transcript_and_clears_the_old_run(
    grace_app: GraceApp,
) -> None:
    grace_app.ask(SIMPLE, thread_id="api")
    outcome = grace_app.ask(FESTIVAL_JA, thread_id="api")
    if outcome.status == "interrupted":  # the level is the model's call, not this test's
        outcome = grace_app.resume("api", {"type": "accept"})
    assert "10月" in (outcome.answer or "")
    values = grace_app.graph.get_state(cfg("api")).values
    kinds = [type(m) for m in values["messages"]]
    # The first turn's question and answer kept, then the new question and its answer (a
    # pause in between posts its draft to the chat too: one more AI message).
    assert kinds[:3] == [HumanMessage, AIMessage, HumanMessage]
    assert kinds[3:] in ([AIMessage], [AIMessage, AIMessage])
    assert values["messages"][2].content == FESTIVAL_JA
    sources = {s.source for r in values["results"].values() for s in r.sources}
    assert sources and all(name.startswith("ja-kirigaoka") for name in sources), sources


def test_chat_turns_sent_as_messages_each_get_their_own_answer(offline: Any) -> None:
    graph = make_graph(services=offline, checkpointer=use_grace_serializer(InMemorySaver()))
    first = graph.invoke({"messages": [HumanMessage(SIMPLE)]}, cfg("chat"))
    assert "1874" in first["answer"]
    second = graph.invoke({"messages": [HumanMessage(FESTIVAL_JA)]}, cfg("chat"))
    if second.get("__interrupt__"):  # the level is the model's call, not this test's
        second = graph.invoke(Command(resume={"type": "accept"}), cfg("chat"))
    assert "10月" in second["answer"] and "1874" not in second["answer"]
    assert second["messages"][-1].content.startswith(second["answer"][:20])


def test_asking_on_a_paused_thread_is_refused_and_it_stays_resumable(
    grace_app: GraceApp, run_cli: Any
) -> None:
    paused = grace_app.ask(UNANSWERABLE, thread_id="paused")
    assert paused.status == "interrupted"
    with pytest.raises(ThreadPausedError, match="paused"):
        grace_app.ask(SIMPLE, thread_id="paused")
    assert grace_app.outcome("paused").status == "interrupted"
    run_cli("ask", UNANSWERABLE, "--thread-id", "paused-cli", "--json")
    refused = run_cli("ask", SIMPLE, "--thread-id", "paused-cli", "--json", code=2)
    assert "grace resume paused-cli" in refused.stderr
    reply = '{"decisions": [{"type": "reject", "message": "France won the 2018 World Cup."}]}'
    done = json.loads(run_cli("resume", "paused-cli", "--response", reply, "--json").stdout)
    assert done["status"] == "completed" and "France" in done["answer"]


def test_an_incomplete_thread_runs_on_and_other_threads_are_refused(
    grace_app: GraceApp, run_cli: Any
) -> None:
    # A run that stopped after `plan` (as a killed process leaves it; the SIGKILL case is in
    # test_reliability_durability).
    grace_app.graph.invoke({"query": SIMPLE}, cfg("cut"), interrupt_after=["plan"])
    assert grace_app.summary("cut").status == "incomplete"
    outcome = grace_app.continue_run("cut")
    assert outcome.status == "completed" and "1874" in (outcome.answer or "")
    with pytest.raises(ThreadNotIncompleteError, match="finished"):
        grace_app.continue_run("cut")
    run_cli("ask", UNANSWERABLE, "--thread-id", "waits", "--json")
    refused = run_cli("resume", "waits", "--json", code=2)
    assert "paused" in refused.stderr and "--response" in refused.stderr


@pytest.mark.parametrize(
    "question", [{"query": SIMPLE}, {"messages": [HumanMessage(SIMPLE)]}], ids=["query", "chat"]
)
def test_graph_input_on_a_paused_thread_says_the_pause_was_set_aside(
    offline: Any, question: dict[str, Any]
) -> None:
    """The SDK / Studio path: no app in front to refuse, so the graph says it in a note."""
    graph = make_graph(services=offline, checkpointer=use_grace_serializer(InMemorySaver()))
    assert "__interrupt__" in graph.invoke({"query": UNANSWERABLE}, cfg("open"))
    out = graph.invoke(question, cfg("open"))
    assert "1874" in out["answer"]
    assert ABANDONED_TURN_NOTE in out["notes"]
    assert "not answered" in out["messages"][-1].content  # the chat shows the note too
    finished = graph.invoke({"query": UNANSWERABLE}, cfg("open"))  # after a finished turn
    assert ABANDONED_TURN_NOTE not in finished.get("notes", [])

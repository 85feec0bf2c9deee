"""Interrupt → resume for every LangChain 1.0 decision (and the Agent Inbox replies older
clients send); malformed replies; SQLite."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.types import Command

from confidence import InterventionLevel
from grace.storage.serde import use_grace_serializer
from graph.builder import make_graph
from tests.graph.conftest import cfg, services_with_thresholds

UNANSWERABLE = "Who won the 2018 FIFA World Cup?"
ANSWERABLE = "When did the horse tram line open in Lumen Bay?"
APPROVE = {"decisions": [{"type": "approve"}]}
FINISH = {"decisions": [{"type": "reject"}]}


def _edit(**args: str) -> dict[str, Any]:
    return {
        "decisions": [{"type": "edit", "edited_action": {"name": "review_answer", "args": args}}]
    }


def _reject(message: str) -> dict[str, Any]:
    return {"decisions": [{"type": "reject", "message": message}]}


def _pause(app: Any, thread: str, query: str = UNANSWERABLE) -> dict[str, Any]:
    out = app.invoke({"query": query}, cfg(thread))
    assert "__interrupt__" in out, out
    return out


def test_unanswerable_question_pauses_with_a_langchain_hitl_request(app: Any) -> None:
    out = _pause(app, "t-pause")
    request = out["__interrupt__"][0].value
    assert set(request) >= {"action_requests", "review_configs", "level", "confidence"}
    [action] = request["action_requests"]
    [review] = request["review_configs"]
    assert action["name"] == review["action_name"]
    assert set(action["args"]) == {"query", "answer", "sources"}
    assert action["args"]["query"] == UNANSWERABLE
    assert "Confidence" in action["description"]
    assert request["level"] == "escalate"
    assert review["allowed_decisions"] == ["edit", "reject"]  # no approve at ESCALATE
    state = app.get_state(cfg("t-pause"))
    assert state.next == ("intervene",)
    assert not state.values.get("answer")


@pytest.mark.parametrize(
    ("mode", "reviews"),
    [
        ("on_failure", ["review_answer"]),  # default: the draft answer is reviewed, once
        ("never", ["review_answer"]),
        ("always", ["review_step", "review_answer"]),  # per-step gating: the search too
    ],
)
def test_accept_continues_to_the_answer(
    offline_services: Any, checkpointer: Any, mode: str, reviews: list[str]
) -> None:
    services = services_with_thresholds(  # always CONFIRM
        offline_services, 1.0, 1.0, 0.0, run={"pause_before_answer": mode}
    )
    app = make_graph(services=services, checkpointer=checkpointer)
    seen: list[str] = []
    out = _pause(app, "t-accept", ANSWERABLE)
    review = out["__interrupt__"][0].value["review_configs"][0]
    assert review["allowed_decisions"] == ["approve", "edit", "reject"]
    while "__interrupt__" in out:
        seen.append(out["__interrupt__"][0].value["action_requests"][0]["name"])
        out = app.invoke(Command(resume=APPROVE), cfg("t-accept"))
    assert seen == reviews
    assert "1874" in out["answer"]
    records = app.get_state(cfg("t-accept")).values["interventions"]
    assert [r.response_type for r in records] == ["accept"] * len(reviews)


@pytest.mark.parametrize("approve", [APPROVE, {"type": "accept"}])
def test_approve_is_refused_at_escalate_and_thread_stays_resumable(app: Any, approve: Any) -> None:
    out = _pause(app, "t-esc")
    assert out["__interrupt__"][0].value["level"] == "escalate"
    again = app.invoke(Command(resume=approve), cfg("t-esc"))
    retry = again["__interrupt__"][0].value
    assert "'approve' (accept) is not allowed at ESCALATE" in retry["error"]
    final = app.invoke(Command(resume=FINISH), cfg("t-esc"))
    assert final["answer"]
    assert app.get_state(cfg("t-esc")).next == ()


@pytest.mark.parametrize(
    "bad",
    [
        {"type": "approve"},  # a bare decision, not {"decisions": [...]}
        {"decisions": []},
        {"decisions": [{"type": "reject"}, {"type": "reject"}]},
        {"decisions": [{"type": "maybe"}]},
        {"decisions": [{"type": "edit"}]},  # no edited_action
        {"decisions": [{"type": "edit", "edited_action": {"name": "x", "args": {}}}]},
        {"decisions": [{"type": "reject", "message": 3}]},
        {"decisions": "approve"},
        "yes",
        [{"type": "accept"}, {"type": "ignore"}],
        {"type": "edit", "args": {}},
        {"type": "response", "args": ""},
        {"type": "ignore", "extra": 1},
        _edit(query="x" * 4001),  # an edited question is validated like `ask`
        _edit(query="   "),
    ],
)
def test_malformed_resume_is_rejected_clearly_and_thread_still_resumable(
    app: Any, bad: Any
) -> None:
    _pause(app, "t-bad")
    out = app.invoke(Command(resume=bad), cfg("t-bad"))
    retry = out["__interrupt__"][0].value
    assert retry["error"], retry
    assert "rejected" in retry["action_requests"][0]["description"]
    assert app.get_state(cfg("t-bad")).next == ("intervene",)
    final = app.invoke(Command(resume=FINISH), cfg("t-bad"))
    assert final["answer"]


@pytest.mark.parametrize("finish", [FINISH, _reject("  "), {"type": "ignore"}])
def test_reject_without_a_message_finalizes_with_a_note(app: Any, finish: Any) -> None:
    _pause(app, "t-ignore")
    final = app.invoke(Command(resume=finish), cfg("t-ignore"))
    assert any("without review" in n for n in final["notes"])
    assert final["level"] in (InterventionLevel.CONFIRM, InterventionLevel.ESCALATE)


@pytest.mark.parametrize(
    "reply",
    [
        _edit(query=ANSWERABLE, answer="", sources=""),  # what Agent Chat UI sends back
        {"type": "edit", "args": {"action": "review_step", "args": {"query": ANSWERABLE}}},
    ],
)
def test_edit_with_a_new_question_replans_and_answers_it(app: Any, reply: Any) -> None:
    _pause(app, "t-edit")
    final = app.invoke(Command(resume=reply), cfg("t-edit"))
    values = app.get_state(cfg("t-edit")).values
    assert values["replans"][-1].trigger == "human_edit"
    assert values["replans"][-1].strategy == "full"
    assert "1874" in (
        final.get("answer") or values["results"][values["plan"].steps[-1].step_id].output
    )


@pytest.mark.parametrize(
    "reply",
    [
        _edit(query=UNANSWERABLE, answer="France won it.", sources="[1, 2]"),
        {"type": "edit", "args": {"args": {"answer": "France won it."}}},
    ],
)
def test_edit_with_an_answer_uses_the_persons_answer(app: Any, reply: Any) -> None:
    _pause(app, "t-edit-answer")
    final = app.invoke(Command(resume=reply), cfg("t-edit-answer"))
    assert final["answer"] == "France won it."
    assert any("written by a person" in n for n in final["notes"])


TEXT = "France won the 2018 FIFA World Cup, beating Croatia in the final."


@pytest.mark.parametrize("reply", [_reject(TEXT), {"type": "response", "args": TEXT}])
def test_reject_with_a_message_becomes_a_source_and_replans(app: Any, reply: Any) -> None:
    _pause(app, "t-resp")
    text = TEXT
    out = app.invoke(Command(resume=reply), cfg("t-resp"))
    values = app.get_state(cfg("t-resp")).values
    assert values["replans"][-1].trigger == "human_response"
    assert values["human_sources"][0].text == text
    # The answer rests on the person's information only: the run finishes, citing it.
    assert "__interrupt__" not in out
    assert "France" in out["answer"]
    assert [s.source for s in out["sources"]] == ["human"]
    assert out["level"] in (InterventionLevel.SILENT, InterventionLevel.NOTIFY)


def test_sqlite_resume_across_two_graph_instances(offline_services: Any, tmp_path: Path) -> None:
    path = tmp_path / "threads.sqlite"
    conn1 = sqlite3.connect(path, check_same_thread=False)
    first = make_graph(
        services=offline_services, checkpointer=use_grace_serializer(SqliteSaver(conn1))
    )
    _pause(first, "t-sqlite")
    conn1.close()
    conn2 = sqlite3.connect(path, check_same_thread=False)
    try:
        second = make_graph(
            services=offline_services, checkpointer=use_grace_serializer(SqliteSaver(conn2))
        )
        assert second.get_state(cfg("t-sqlite")).next == ("intervene",)
        final = second.invoke(Command(resume=FINISH), cfg("t-sqlite"))
        assert final["answer"]
        assert second.get_state(cfg("t-sqlite")).next == ()
    finally:
        conn2.close()


def test_studio_chat_input_uses_the_last_human_message(app: Any) -> None:
    out = app.invoke({"messages": [{"role": "user", "content": ANSWERABLE}]}, cfg("t-chat"))
    values = app.get_state(cfg("t-chat")).values
    assert values["query"] == ANSWERABLE
    if "__interrupt__" not in out:
        assert out["messages"][-1].content.startswith(out["answer"])

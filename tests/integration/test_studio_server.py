"""LangGraph Studio / server: ``langgraph dev`` serves ``langgraph.json``'s graph offline.

One ``langgraph dev --no-browser --no-reload`` per module on a free loopback port, driven
with the official ``langgraph_sdk`` sync client: thread → run to the LangChain 1.0 HITL
interrupt → resume with each decision (reject with and without a message, edit of the question
or the answer; approve is refused at ESCALATE) and the Agent Inbox replies older clients send →
final answer; malformed decisions; Studio's chat input (``messages``); the custom event
stream. The server's process group is killed afterwards.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from langgraph_sdk import get_sync_client
from langgraph_sdk.client import SyncLangGraphClient

from tests.integration._langgraph_dev import Server, langgraph_dev

pytestmark = pytest.mark.slow

UNANSWERABLE = "Who won the 2018 FIFA World Cup?"
ANSWERABLE = "When did the horse tram line open in Lumen Bay?"
CONFIRM_QUESTION = "Who won the prize for the best lantern at the Lantern Tide Festival?"
"""A bundled sample question whose draft pauses at CONFIRM (approve allowed)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``langgraph dev`` on a free port with a private data dir."""
    with langgraph_dev(tmp_path_factory.mktemp("studio")) as running:
        yield running


@pytest.fixture
def client(server: Server) -> SyncLangGraphClient:
    return get_sync_client(url=server.url)


def _pause(
    client: SyncLangGraphClient, question: str = UNANSWERABLE
) -> tuple[str, dict[str, Any]]:
    """Run a question to its interrupt; return (thread id, request)."""
    thread_id = client.threads.create()["thread_id"]
    out = client.runs.wait(thread_id, "grace", input={"query": question})
    assert isinstance(out, dict)
    assert "__interrupt__" in out, out
    (pending,) = out["__interrupt__"]
    return thread_id, pending["value"]


def test_graph_is_served(client: SyncLangGraphClient) -> None:
    assert [a["graph_id"] for a in client.assistants.search()] == ["grace"]


def _resume(client: SyncLangGraphClient, thread_id: str, reply: Any) -> dict[str, Any]:
    out = client.runs.wait(thread_id, "grace", command={"resume": reply})
    assert isinstance(out, dict)
    return out


def _edit(**args: str) -> dict[str, Any]:
    action = {"name": "review_answer", "args": args}
    return {"decisions": [{"type": "edit", "edited_action": action}]}


def test_run_to_interrupt_read_hitl_payload_and_reject(client: SyncLangGraphClient) -> None:
    thread_id, request = _pause(client)
    # LangChain 1.0 HumanInTheLoopMiddleware shape plus GRACE's fields.
    [action] = request["action_requests"]
    [review] = request["review_configs"]
    assert action["name"] == review["action_name"] == "review_answer"
    assert action["args"]["query"] == UNANSWERABLE
    assert set(action["args"]) == {"query", "answer", "sources"}
    assert action["description"].startswith("## GRACE needs you")
    assert request["level"] == "escalate"
    assert review["allowed_decisions"] == ["edit", "reject"]
    assert 0.0 <= request["confidence"] < 0.7

    thread = client.threads.get(thread_id)
    assert thread["status"] == "interrupted"
    assert client.threads.get_state(thread_id)["next"] == ["intervene"]

    final = _resume(client, thread_id, {"decisions": [{"type": "reject"}]})
    assert "__interrupt__" not in final
    assert final["answer"]
    assert any("without review" in n for n in final["notes"])
    assert final["level"] == request["level"]
    assert client.threads.get(thread_id)["status"] == "idle"


@pytest.mark.parametrize(
    "reply",
    [
        {"decisions": [{"type": "reject", "message": "France won it."}]},
        [{"type": "response", "args": "France won it."}],  # Agent Inbox
    ],
)
def test_reject_with_a_message_is_heard(client: SyncLangGraphClient, reply: Any) -> None:
    thread_id, _ = _pause(client)
    # The reply shares no content word with the question: it is heard all the same.
    final = _resume(client, thread_id, reply)
    assert "__interrupt__" not in final
    assert "France" in final["answer"]
    assert [(s["source_id"], s["source"]) for s in final["sources"]] == [("H1", "human")]
    assert final["level"] == "notify"


@pytest.mark.parametrize(
    "reply",
    [
        _edit(query=UNANSWERABLE, answer="France (2018).", sources=""),
        {"type": "edit", "args": {"args": {"answer": "France (2018)."}}},  # Agent Inbox
    ],
)
def test_edit_of_the_answer_is_final(client: SyncLangGraphClient, reply: Any) -> None:
    thread_id, _ = _pause(client)
    final = _resume(client, thread_id, reply)
    assert "__interrupt__" not in final
    assert final["answer"] == "France (2018)."


def test_approve_at_confirm_finishes_with_the_draft(client: SyncLangGraphClient) -> None:
    thread_id, request = _pause(client, CONFIRM_QUESTION)
    assert request["level"] == "confirm"
    assert request["review_configs"][0]["allowed_decisions"] == ["approve", "edit", "reject"]
    draft = request["action_requests"][0]["args"]["answer"]
    final = _resume(client, thread_id, {"decisions": [{"type": "approve"}]})
    assert "__interrupt__" not in final
    assert final["answer"] == draft
    history = client.threads.get_state(thread_id)["values"]["interventions"]
    assert [i["response_type"] for i in history] == ["accept"]


def test_edit_of_the_question_answers_the_new_one(client: SyncLangGraphClient) -> None:
    thread_id, _ = _pause(client)
    final = _resume(client, thread_id, _edit(query=ANSWERABLE, answer="", sources=""))
    assert "__interrupt__" not in final
    assert "1874" in final["answer"]


@pytest.mark.parametrize(
    ("reply", "message"),
    [
        ({"decisions": [{"type": "approve"}]}, "'approve' (accept) is not allowed at ESCALATE"),
        ({"decisions": [{"type": "maybe"}]}, "invalid decisions"),
        ({"decisions": []}, "exactly one decision"),
        ({"decisions": [{"type": "edit"}]}, "edited_action"),
        (_edit(query="x" * 4001), "over the limit of 4000"),
        ({"type": "dance"}, "invalid HumanResponse"),
    ],
)
def test_malformed_decisions_keep_the_thread_resumable(
    client: SyncLangGraphClient, reply: Any, message: str
) -> None:
    thread_id, _ = _pause(client)
    out = _resume(client, thread_id, reply)
    (again,) = out["__interrupt__"]
    assert message in again["value"]["error"]
    final = _resume(client, thread_id, {"type": "ignore"})  # Agent Inbox
    assert final["answer"]


def test_deeply_nested_reply_is_refused_cleanly(client: SyncLangGraphClient) -> None:
    thread_id, _ = _pause(client)
    nested: Any = "x"
    for _ in range(200):  # orjson (client and server) stops at 255 levels, far below 40,000
        nested = [nested]
    out = _resume(client, thread_id, {"decisions": nested})
    (again,) = out["__interrupt__"]
    assert "nested more than 32 levels" in again["value"]["error"]


def test_pause_posts_to_the_chat_and_resolve_finishes_the_run(
    client: SyncLangGraphClient,
) -> None:
    thread_id, _ = _pause(client)
    messages = client.threads.get_state(thread_id)["values"]["messages"]
    assert messages[-1]["type"] == "ai"
    assert messages[-1]["content"].startswith("I need your help:")
    # Agent Chat UI's "Mark as Resolved": Command(goto=END), no resume value.
    out = client.runs.wait(thread_id, "grace", command={"goto": "__end__"})
    assert isinstance(out, dict)
    assert "__interrupt__" not in out
    assert out["answer"]
    assert any("Marked resolved by the client" in n for n in out["notes"])
    assert client.threads.get(thread_id)["status"] == "idle"


def test_studio_chat_input_messages(client: SyncLangGraphClient) -> None:
    thread_id = client.threads.create()["thread_id"]
    out = client.runs.wait(
        thread_id, "grace", input={"messages": [{"role": "human", "content": ANSWERABLE}]}
    )
    assert isinstance(out, dict)
    assert "1874" in out["answer"]
    assert [m["type"] for m in out["messages"]] == ["human", "ai"]
    assert out["messages"][-1]["content"].startswith(out["answer"])
    assert "**Sources:**" in out["messages"][-1]["content"]


def test_a_second_question_on_a_thread_is_a_new_turn(client: SyncLangGraphClient) -> None:
    thread_id = client.threads.create()["thread_id"]
    first = client.runs.wait(thread_id, "grace", input={"query": ANSWERABLE})
    assert isinstance(first, dict) and first["answer"]
    second = client.runs.wait(thread_id, "grace", input={"query": UNANSWERABLE})
    assert isinstance(second, dict)
    assert "__interrupt__" in second  # not the first answer again, at SILENT
    (pending,) = second["__interrupt__"]
    assert pending["value"]["action_requests"][0]["args"]["query"] == UNANSWERABLE


def test_custom_events_stream_through_the_server(client: SyncLangGraphClient) -> None:
    thread_id = client.threads.create()["thread_id"]
    events = [
        part.data["event"]
        for part in client.runs.stream(
            thread_id, "grace", input={"query": ANSWERABLE}, stream_mode=["custom", "updates"]
        )
        if part.event == "custom"
    ]
    assert events[0] == "plan_ready"
    assert "step_scored" in events
    assert events[-1] == "final"


@pytest.mark.xfail(
    strict=True,
    reason="langgraph-api's in-memory checkpointer unpacks msgpack with its own hook, which "
    "ignores a graph's allow-list: non-strict it warns once per GRACE type, and with "
    "LANGGRAPH_STRICT_MSGPACK=true it returns GRACE's models as dicts. Known gap, reported "
    "in docs/reliability.md; in-process compiles (builder.compile, GraceApp) are clean.",
)
def test_server_log_has_no_unregistered_type_warning(
    server: Server, client: SyncLangGraphClient
) -> None:
    # Independent of order: this test writes and reads a paused checkpoint itself.
    thread = client.threads.create()["thread_id"]
    client.runs.wait(thread, "grace", input={"query": UNANSWERABLE})
    client.runs.wait(thread, "grace", command={"resume": {"decisions": [{"type": "reject"}]}})
    log = server.log.read_text(errors="replace")
    assert "unregistered type" not in log, log[-3000:]

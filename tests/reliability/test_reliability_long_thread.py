"""A long thread (issue 40, item 3): its state keeps the latest ``checkpoint.turns_in_state``
turns, older ones move to the store, so a turn's checkpoint stops growing with the thread;
``GraceApp.history`` / ``transcript``, ``grace show`` and the page still see every turn, and a
paused turn on a long thread resumes."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.store.memory import InMemoryStore
from langgraph.types import Command

from checkpoints import open_checkpointer
from confidence import InterventionLevel
from grace.hitl.request import allowed_decisions_for
from grace.storage.serde import use_grace_serializer
from grace.storage.transcript import namespace, split_turns, turns_to_move
from graph.app import GraceApp
from graph.builder import make_builder, make_graph
from graph.ui.session import transcript
from tests.cli_runner import invoke_cli
from tests.reliability.conftest import SIMPLE, UNANSWERABLE, cfg, make_services

KEEP = 2
QUESTIONS = (
    SIMPLE,
    "Who designed the Wren Point Lighthouse?",
    "When is the lantern festival held?",
    "When was the university founded?",
)


@pytest.fixture
def services(offline_services: Any) -> Any:
    return make_services(offline_services, checkpoint={"turns_in_state": KEEP})


@pytest.fixture
def app(services: Any, tmp_path: Path) -> Iterator[GraceApp]:
    with open_checkpointer("sqlite", sqlite_path=tmp_path / "cp.sqlite") as saver:
        yield GraceApp(services.settings, saver, InMemoryStore(), services=services)


def _go_on(allowed: list[str]) -> dict[str, Any]:
    """A reply that ends the turn at any pause: approve, or reject where approving is not
    offered (an ESCALATE draft). The level is the engine's call, not this test's."""
    return {"decisions": [{"type": "approve" if "approve" in allowed else "reject"}]}


def _allowed_at(level: str | None) -> list[str]:
    return list(allowed_decisions_for(InterventionLevel(level or "confirm")))


def _allowed_in(out: dict[str, Any]) -> list[str]:
    """The decisions a graph-API pause's HITL request offers."""
    return list(out["__interrupt__"][0].value["review_configs"][0]["allowed_decisions"])


def _turn(app: GraceApp, thread: str, question: str) -> None:
    outcome = app.ask(question, thread_id=thread)
    if outcome.status == "interrupted":
        outcome = app.resume(thread, _go_on(_allowed_at(outcome.level)))
    assert outcome.status == "completed"


def _latest_checkpoint_bytes(app: GraceApp, thread: str) -> int:
    """The thread's newest checkpoint with every value in it, serialised: the state's size,
    whatever the saver stores apart (GRACE's SQLite saver keeps values in their own table)."""
    found = app.checkpointer.get_tuple(cfg(thread))
    assert found is not None
    return len(app.checkpointer.serde.dumps_typed(found.checkpoint)[1])


def _asked(messages: list[Any]) -> list[str]:
    return [str(m.content) for m in messages if isinstance(m, HumanMessage)]


def test_turns_beyond_the_bound_move_out_of_state_and_the_checkpoint_stops_growing(
    app: GraceApp,
) -> None:
    asked, sizes = [], []
    for i in range(10):
        question = QUESTIONS[i % len(QUESTIONS)]
        _turn(app, "long", question)
        asked.append(question)
        sizes.append(_latest_checkpoint_bytes(app, "long"))
    values = app.graph.get_state(cfg("long")).values
    # the latest KEEP answered turns and the turn just answered; 7 turns in the store
    assert _asked(values["messages"]) == asked[-KEEP - 1 :]
    assert values["archived_turns"] == len(asked) - KEEP - 1
    stored = app.store.search(namespace("long"), limit=100) if app.store else []
    assert len(stored) == len(asked) - KEEP - 1
    # same question cycle, same state size: the checkpoint of turn 10 is no bigger than
    # turn 6's (on a thread that keeps every turn it grows by every turn's messages)
    assert sizes[9] <= sizes[5] * 1.05, sizes
    # the whole conversation is still there, in order, every answer after its question
    whole = app.transcript("long")
    assert _asked(whole) == asked
    assert [type(t[-1]) for t in split_turns(whole)] == [AIMessage] * len(asked)


def test_history_show_and_the_page_list_every_turn(app: GraceApp, cli_services: Any) -> None:
    asked = [QUESTIONS[i % len(QUESTIONS)] for i in range(6)]
    for question in asked:
        _turn(app, "shown", question)
    history = app.history("shown")
    users = [m["text"] for m in history["transcript"] if m["role"] == "user"]
    assert users == asked
    assert sum(m["role"] == "assistant" for m in history["transcript"]) >= len(asked)
    assert _asked(transcript(app, "shown")) == asked[:-1]  # the page: turns before the latest


def test_grace_show_lists_every_turn_of_a_long_thread(services: Any, cli_services: Any) -> None:
    cli_services(services)
    asked = [QUESTIONS[i % len(QUESTIONS)] for i in range(5)]
    for question in asked:
        out = json.loads(invoke_cli("ask", question, "--thread-id", "cli", "--json").stdout)
        if out["status"] == "interrupted":
            reply = json.dumps(_go_on(_allowed_at(out["level"])))
            invoke_cli("resume", "cli", "--response", reply, "--json")
    shown = json.loads(invoke_cli("show", "cli", "--json").stdout)
    assert [m["text"] for m in shown["transcript"] if m["role"] == "user"] == asked
    text = invoke_cli("show", "cli").stdout
    assert "conversation: 4 earlier turns" in text
    for question in asked[:-1]:
        assert question in text


def test_a_paused_turn_on_a_long_thread_resumes(app: GraceApp) -> None:
    asked = [QUESTIONS[i % len(QUESTIONS)] for i in range(5)]
    for question in asked:
        _turn(app, "paused", question)
    outcome = app.ask(UNANSWERABLE, thread_id="paused")
    assert outcome.status == "interrupted"
    values = app.graph.get_state(cfg("paused")).values
    assert _asked(values["messages"]) == [*asked[-KEEP:], UNANSWERABLE]
    resumed = app.resume("paused", {"decisions": [{"type": "reject"}]})
    assert resumed.status == "completed"
    assert _asked(app.transcript("paused")) == [*asked, UNANSWERABLE]
    _turn(app, "paused", SIMPLE)  # and the thread goes on
    assert _asked(app.transcript("paused")) == [*asked, UNANSWERABLE, SIMPLE]


def test_async_runs_move_turns_too(services: Any) -> None:
    store = InMemoryStore()
    graph = make_builder(services=services).compile(
        checkpointer=use_grace_serializer(InMemorySaver()), store=store
    )

    async def run() -> None:
        for i in range(5):
            out = await graph.ainvoke({"query": QUESTIONS[i % len(QUESTIONS)]}, cfg("a"))
            if out.get("__interrupt__"):  # the level is the engine's call, not this test's
                await graph.ainvoke(Command(resume=_go_on(_allowed_in(out))), cfg("a"))

    asyncio.run(run())
    state = graph.get_state(cfg("a")).values
    assert len(_asked(state["messages"])) == KEEP + 1
    assert len(store.search(namespace("a"), limit=100)) == 5 - KEEP - 1


def test_without_a_store_nothing_moves(services: Any) -> None:
    graph = make_graph(services=services, checkpointer=use_grace_serializer(InMemorySaver()))
    for i in range(5):
        out = graph.invoke({"query": QUESTIONS[i % len(QUESTIONS)]}, cfg("nostore"))
        if out.get("__interrupt__"):
            graph.invoke(Command(resume=_go_on(_allowed_in(out))), cfg("nostore"))
    assert len(_asked(graph.get_state(cfg("nostore")).values["messages"])) == 5


def test_what_moves_is_whole_turns_oldest_first() -> None:
    messages: list[Any] = []
    for i in range(4):
        messages += [HumanMessage(f"q{i}", id=f"h{i}"), AIMessage(f"a{i}", id=f"a{i}")]
    messages.append(HumanMessage("now", id="now"))
    moved = turns_to_move(messages, current_is_last=True, keep=2, archived=3)
    assert moved is not None
    assert [key for key, _ in moved.items()] == ["0000000003", "0000000004"]
    assert [r.id for r in moved.removals()] == ["h0", "a0", "h1", "a1"]
    assert turns_to_move(messages, current_is_last=True, keep=4, archived=0) is None

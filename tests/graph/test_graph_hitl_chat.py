"""The chat reads naturally: the draft at a pause, the answer with its sources, nothing the
person wrote replaced; a client's "resolve" (``Command(goto=END)``, no reply) finishes the run."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.graph import END
from langgraph.types import Command

from tests.graph.conftest import cfg

UNANSWERABLE = "Who won the 2018 FIFA World Cup?"
ANSWERABLE = "When did the horse tram line open in Lumen Bay?"
FACT = "France won the 2018 FIFA World Cup."


def _chat(app: Any, thread: str, question: str) -> dict[str, Any]:
    return app.invoke({"messages": [HumanMessage(question, id="person-1")]}, cfg(thread))


def test_a_pause_posts_a_help_request_to_the_chat(app: Any) -> None:
    out = _chat(app, "c-pause", UNANSWERABLE)
    assert "__interrupt__" in out
    messages = app.get_state(cfg("c-pause")).values["messages"]
    assert [type(m) for m in messages] == [HumanMessage, AIMessage]
    assert messages[0].content == UNANSWERABLE
    assert messages[1].content.startswith("I need your help:")
    assert "reject it with what you know" in messages[1].content


def test_the_answer_cites_the_person_and_keeps_their_messages(app: Any) -> None:
    _chat(app, "c-fact", UNANSWERABLE)
    reply = {"decisions": [{"type": "reject", "message": FACT}]}
    out = app.invoke(Command(resume=reply), cfg("c-fact"))
    messages = out["messages"]
    assert [type(m) for m in messages] == [HumanMessage, AIMessage, AIMessage]
    assert (messages[0].id, messages[0].content) == ("person-1", UNANSWERABLE)
    final = messages[-1].content
    assert final.startswith(out["answer"])
    assert "**Sources:**" in final and "[H1] Your reply" in final
    assert "Answered from your reply" in final  # the run's notes appear in the chat too


def test_an_answer_from_the_documents_lists_its_sources_without_a_pause(app: Any) -> None:
    out = _chat(app, "c-doc", ANSWERABLE)
    assert "__interrupt__" not in out
    [person, answer] = out["messages"]
    assert person.content == ANSWERABLE
    assert "1874" in answer.content
    for source in out["sources"]:
        assert f"[{source.source_id}]" in answer.content


@pytest.mark.parametrize("run", ["invoke", "ainvoke"])
async def test_resolve_without_a_reply_finishes_honestly(app: Any, run: str) -> None:
    if run == "ainvoke" and type(app.checkpointer).__name__ == "SqliteSaver":
        pytest.skip("SqliteSaver has no async API (the async path runs on the in-memory saver)")
    thread = f"c-resolve-{run}"
    _chat(app, thread, UNANSWERABLE)
    if run == "invoke":
        out = app.invoke(Command(goto=END), cfg(thread))
    else:
        out = await app.ainvoke(Command(goto=END), cfg(thread))
    assert "__interrupt__" not in out
    assert app.get_state(cfg(thread)).next == ()
    assert out["answer"]
    assert any("Marked resolved by the client with no decision" in n for n in out["notes"])
    records = app.get_state(cfg(thread)).values["interventions"]
    assert [r.response_type for r in records] == ["ignore"]


def test_resolve_after_a_refused_reply_still_finishes(app: Any) -> None:
    _chat(app, "c-resolve-retry", UNANSWERABLE)
    again = app.invoke(Command(resume={"decisions": [{"type": "approve"}]}), cfg("c-resolve-retry"))
    assert again["__interrupt__"][0].value["error"]
    out = app.invoke(Command(goto=END), cfg("c-resolve-retry"))
    assert "__interrupt__" not in out and out["answer"]


def test_a_plain_rerun_without_resolve_stays_paused(app: Any) -> None:
    _chat(app, "c-none", UNANSWERABLE)
    out = app.invoke(None, cfg("c-none"))
    assert "__interrupt__" in out
    assert app.get_state(cfg("c-none")).next == ("intervene",)

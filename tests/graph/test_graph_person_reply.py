"""A person's reply at a pause is evidence of its own kind (docs/architecture.md §5).

Replies here share no content word with the question on purpose: the person's reply is
judged on whether it answers, never on overlap with the question.
"""

from __future__ import annotations

from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from confidence import InterventionLevel
from grace.hitl.reply import PERSON_PASSAGE_LABEL, assess_reply
from grace.services import build_services
from grace.storage.serde import use_grace_serializer
from graph.builder import make_graph
from tests.fakes import ScriptedChatModel
from tests.graph.conftest import cfg, services_with_thresholds

EN_QUESTION = "Who won the 2018 FIFA World Cup?"
JA_QUESTION = "2018年のFIFAワールドカップで優勝した国はどこですか？"


def _pause(app: Any, thread: str, query: str) -> dict[str, Any]:
    out = app.invoke({"query": query}, cfg(thread))
    assert "__interrupt__" in out, out
    return out


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        (EN_QUESTION, "France won it."),
        (EN_QUESTION, "France, beating Croatia in the final."),
        (JA_QUESTION, "フランスが優勝した。"),
        (JA_QUESTION, "フランスです。"),
    ],
)
def test_a_reply_that_answers_finishes_the_run_citing_the_person(
    app: Any, question: str, reply: str
) -> None:
    thread = f"t-person-{abs(hash((question, reply)))}"
    _pause(app, thread, question)
    out = app.invoke(Command(resume={"type": "response", "args": reply}), cfg(thread))
    assert "__interrupt__" not in out, out["__interrupt__"][0].value
    assert "フランス" in out["answer"] or "France" in out["answer"]
    assert out["answer"].endswith("[H1]")
    assert [(s.source_id, s.source) for s in out["sources"]] == [("H1", "human")]
    # The person's authority: never SILENT (they should see it is their answer), never a pause.
    assert out["level"] == InterventionLevel.NOTIFY
    assert any("Answered from your reply" in n for n in out["notes"])
    assert app.get_state(cfg(thread)).next == ()


def test_a_reply_that_does_not_answer_is_not_quoted_as_the_answer(app: Any) -> None:
    _pause(app, "t-dont-know", EN_QUESTION)
    reply = Command(resume={"type": "response", "args": "I don't know."})
    out = app.invoke(reply, cfg("t-dont-know"))
    while "__interrupt__" in out:
        out = app.invoke(Command(resume={"type": "ignore"}), cfg("t-dont-know"))
    assert "I don't know" not in out["answer"]
    assert not any("Answered from your reply" in n for n in out["notes"])


def test_an_edit_that_writes_the_answer_is_final_and_says_so(app: Any) -> None:
    _pause(app, "t-edit-final", EN_QUESTION)
    reply = {"type": "edit", "args": {"args": {"answer": "France (2018)."}}}
    out = app.invoke(Command(resume=reply), cfg("t-edit-final"))
    assert "__interrupt__" not in out
    assert out["answer"] == "France (2018)."
    assert out["confidence"] == 1.0
    assert out["level"] == InterventionLevel.NOTIFY
    assert [s.source for s in out["sources"]] == ["human"]
    assert any("it is final" in n for n in out["notes"])


def test_an_edit_that_keeps_a_citation_keeps_its_passage_among_the_sources(
    offline_services: Any, checkpointer: Any
) -> None:
    services = services_with_thresholds(offline_services, 1.0, 1.0, 0.0)  # always CONFIRM
    app = make_graph(services=services, checkpointer=checkpointer)
    out = _pause(app, "t-edit-cites", "When did the horse tram line open in Lumen Bay?")
    drafted = out["__interrupt__"][0].value["action_requests"][0]["args"]["answer"]
    assert "1874" in drafted and "[S1]" in drafted
    reply = {"type": "edit", "args": {"args": {"answer": "On 2 August 1874. [S1]"}}}
    out = app.invoke(Command(resume=reply), cfg("t-edit-cites"))
    assert [s.source_id for s in out["sources"]] == ["H1", "S1"]
    assert "tram" in out["sources"][1].source
    assert "[S1]" in out["messages"][-1].content and "[H1]" in out["messages"][-1].content


@pytest.mark.parametrize(
    ("text", "answers"),
    [
        ("France won it.", True),
        ("フランスが優勝した。", True),
        ("42", True),
        ("", False),
        ("   ", False),
        ("Who knows?", False),
        ("どこですか？", False),
        ("I don't know", False),
        ("no idea, sorry", False),
        ("わからない", False),
        ("分かりません。", False),
    ],
)
def test_assess_reply_judges_form_not_overlap(text: str, answers: bool) -> None:
    assert assess_reply(text).answers is answers


def test_model_path_tells_reader_and_judge_the_source_is_the_person(offline_services: Any) -> None:
    # Before the pause: a draft and one low-confidence replan, both without an answer.
    unsure = {"self_evaluation": 0.05, "query_coverage": 0.1, "rationale": "no answer"}
    model = ScriptedChatModel.of(
        answers=["INSUFFICIENT_CONTEXT", "INSUFFICIENT_CONTEXT", "France won it [H1]."],
        verdicts=[unsure, unsure, {"self_evaluation": 0.9, "query_coverage": 1.0}],
    )
    services = build_services(
        offline_services.settings, chat_model=model, store=offline_services.store
    )
    app = make_graph(services=services, checkpointer=use_grace_serializer(InMemorySaver()))
    assert "__interrupt__" in app.invoke({"query": EN_QUESTION}, cfg("g-person"))
    reply = Command(resume={"type": "response", "args": "France won it."})
    out = app.invoke(reply, cfg("g-person"))
    reader_prompts = [str(m.content) for kind, msgs in model.calls if kind == "text" for m in msgs]
    assert 'author="person"' in reader_prompts[-1]
    judge_prompts = [
        str(m.content) for kind, msgs in model.calls if kind == "AnswerVerdict" for m in msgs
    ]
    assert PERSON_PASSAGE_LABEL.strip() in judge_prompts[-1]
    assert "__interrupt__" not in out
    assert "France" in out["answer"]
    assert [s.source_id for s in out["sources"]] == ["H1"]
    assert out["level"] == InterventionLevel.NOTIFY

"""Notes about a draft the quality gate discarded are not repeated beside the person's final
answer (issue 28.5): once a person answers at the pause, the gate's verdict on GRACE's draft
is history (``grace show`` keeps it in ``quality``), not a note on their answer."""

from __future__ import annotations

from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from grace.services import build_services
from grace.settings import GraceSettings
from grace.storage.serde import use_grace_serializer
from graph.app import GraceApp
from tests.fakes import ScriptedChatModel

SIMPLE = "When did the horse tram line open in Lumen Bay?"
BAD = {"self_evaluation": 0.1, "query_coverage": 0.5, "rationale": "unsupported date"}
GOOD = {"self_evaluation": 0.95, "query_coverage": 0.9, "rationale": "supported by H1"}
GATE = "did not pass the quality gate"


def _paused(offline_services: Any, thread: str) -> tuple[GraceApp, Any, Any]:
    model = ScriptedChatModel.of(
        answers=["It opened in 1990 [S1].", "In 1990 [S1]."], verdicts=[BAD, BAD]
    )
    model.script.fixed["AnswerVerdict"] = GOOD  # the answer from the person's reply passes
    model.script.fixed["text"] = "The horse tram line opened on 2 August 1874 [H1]."
    settings = GraceSettings(
        data_dir=offline_services.settings.data_dir,
        confidence={"thresholds": {"silent": 0.99, "notify": 0.98, "confirm": 0.97}},
        run={"low_confidence_replans": 0},
    )
    services = build_services(settings, chat_model=model, store=offline_services.store)
    app = GraceApp(settings, use_grace_serializer(InMemorySaver()), services=services)
    outcome = app.ask(SIMPLE, thread_id=thread)
    assert outcome.status == "interrupted"
    assert any(GATE in note for note in outcome.notes)  # said while GRACE's draft is shown
    return app, services, outcome


@pytest.mark.parametrize(
    "decision",
    [
        {"type": "edit", "edited_action": {"name": "review_answer", "args": {"answer": "1874."}}},
        {"type": "reject", "message": "The horse tram line opened on 2 August 1874."},
    ],
    ids=["edit-answer", "respond"],
)
def test_a_persons_final_answer_carries_no_note_about_the_discarded_draft(
    offline_services: Any, decision: dict[str, Any]
) -> None:
    thread = f"gate-{decision['type']}"
    app, services, _ = _paused(offline_services, thread)
    done = app.resume(thread, {"decisions": [decision]})
    while done.status == "interrupted":  # a further check of the answer from the reply
        done = app.resume(thread, {"decisions": [{"type": "approve"}]})
    assert "1874" in (done.answer or "")
    assert not any(GATE in note for note in done.notes), done.notes
    chat = app.graph.get_state({"configurable": {"thread_id": thread}}).values["messages"]
    assert GATE not in str(chat[-1].content)  # nor in the chat's final answer
    assert app.history(thread)["notes"] == done.notes


def test_the_gates_note_on_the_final_answer_itself_is_kept() -> None:
    from grace.notes.runs import gate_note, notes_for_final

    draft, final = gate_note("s2", 0.1, 0.5, 1, 0.1), gate_note("r1-s2", 0.2, 0.5, 1, 0.1)
    other = "Asked as a follow-up: \u201cAnd?\u201d was read as \u201cX?\u201d."
    assert notes_for_final([other, draft, final], "r1-s2") == [other, final]
    assert notes_for_final([other, draft, final], None) == [other]  # a person's answer

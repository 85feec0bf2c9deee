"""Follow-up questions (issue 28.2): a question that leans on the conversation is rewritten
into a standalone one before planning; on the bundled sample it is answered from the right
document. The follow-up set below is the project's own (about the sample corpus)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from grace.followup import contextualize, leans_on_context, subject_of
from grace.services import use_services
from tests.cli_runner import invoke_cli

# (previous question, follow-up, expected standalone form or None when it stands alone)
REWRITES = [
    ("How many passengers can the MV Sound Spirit carry?", "And how many cars?",
     "How many cars — the MV Sound Spirit?"),
    ("How many passengers can the MV Sound Spirit carry?", "What is its top speed?",
     "What is the MV Sound Spirit's top speed?"),
    ("When was the Westmarch College of Navigation founded?", "Who paid for it?",
     "Who paid for the Westmarch College of Navigation?"),
    ("When did the horse tram line open in Lumen Bay?", "And when did it close?",
     "When did Lumen Bay close?"),
    ("霧ヶ丘鉄道霧ヶ丘線の全長は何キロメートルか。", "では、開業したのはいつ？",
     "霧ヶ丘鉄道霧ヶ丘線が開業したのはいつ？"),
    ("霧ヶ丘鉄道霧ヶ丘線の全長は何キロメートルか。", "では、駅の数は？",
     "霧ヶ丘鉄道霧ヶ丘線の駅の数は？"),
    ("霧ヶ丘鉄道霧ヶ丘線の全長は何キロメートルか。", "それはいつ開業した？",
     "霧ヶ丘鉄道霧ヶ丘線はいつ開業した？"),
    # stand-alone questions are left as they are
    ("How many passengers can the MV Sound Spirit carry?",
     "When did the horse tram line open in Lumen Bay?", None),
    ("How many passengers can the MV Sound Spirit carry?", "What about the university?", None),
    ("霧ヶ丘鉄道霧ヶ丘線の全長は何キロメートルか。", "霧灯まつりの灯籠はおよそ何個か。", None),
]


@pytest.mark.parametrize(("previous", "question", "expected"), REWRITES)
def test_the_follow_up_set(previous: str, question: str, expected: str | None) -> None:
    assert contextualize(question, [previous]) == expected


def test_nothing_is_rewritten_on_a_first_turn() -> None:
    assert contextualize("And how many cars?", []) is None
    assert leans_on_context("And how many cars?")
    assert not leans_on_context("How many cars can the MV Sound Spirit carry?")


def test_the_subject_is_the_longest_name_with_its_article() -> None:
    assert subject_of("How many passengers can the MV Sound Spirit carry?") == (
        "the MV Sound Spirit"
    )
    assert subject_of("霧ヶ丘鉄道が開業したのはいつ？") == "霧ヶ丘鉄道"
    assert subject_of("how many?") is None


ANSWERED = [
    ("How many passengers can the MV Sound Spirit carry?", "And how many cars?", "120"),
    ("霧ヶ丘鉄道が設立されたのは何年か。", "では、開業したのはいつ？", "1914"),
]


@pytest.mark.parametrize(("first", "second", "answer"), ANSWERED)
def test_a_follow_up_on_a_thread_is_answered_and_says_how_it_was_read(
    offline_services: Any, first: str, second: str, answer: str
) -> None:
    thread = f"followup-{abs(hash(second))}"
    with use_services(offline_services):
        turn = json.loads(invoke_cli("ask", first, "--thread-id", thread, "--json").stdout)
        if turn["status"] == "interrupted":  # finish the first turn as it stands
            reply = json.dumps({"decisions": [{"type": "reject"}]})
            invoke_cli("resume", thread, "--response", reply, "--json")
        out = json.loads(invoke_cli("ask", second, "--thread-id", thread, "--json").stdout)
    text = out["answer"] or out["draft"]["answer"]
    assert answer in text
    cited = out["sources"] or out["draft"]["sources"]
    assert cited and ("harbour" in cited[0]["source"] or "railway" in cited[0]["source"])
    assert any("was read as" in note for note in out["notes"])

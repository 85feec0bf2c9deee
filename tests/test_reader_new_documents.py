"""The offline reader on a new user's own documents (issue 42, misses found by asking).

Each test is a small fixture written for one miss — a shop, a club's rules, a company page —
and the question a user would ask of it; the reader's answer (final or the draft a person
reviews) quotes the sentence that states the fact. Levels are the confidence model's call.
"""

from __future__ import annotations

from grace.providers.offline.evidence import asked_tokens
from grace.providers.offline.reader import ExtractiveReader
from grace.schemas import Source

CLUB_RULES = (
    "練習は毎週土曜日の午前9時から正午までです。遅刻する場合は、事前にキャプテンに連絡して"
    "ください。雨天の場合は練習を中止します。"
)


def _passages(*texts: str, title: str = "") -> list[Source]:
    return [
        Source(source_id=f"S{i}", source=f"doc{i}.md", title=title or f"doc{i}",
               text=text, score=0.8)
        for i, text in enumerate(texts, start=1)
    ]


# ------------------------------------------------ question words and how-to frames (Japanese)


def test_the_modal_frame_of_a_how_to_question_is_not_a_term() -> None:
    """「どうすればいい」 asks for a course of action: its いい is not *good*."""
    assert asked_tokens("遅刻したらどうすればいいですか？") == {"遅刻"}
    assert asked_tokens("退会するにはどうしたらいいですか？") == {"退会"}
    assert "遣る" not in asked_tokens("どうやって申し込みますか？")
    assert "良い" in asked_tokens("良い点は何ですか？")  # the adjective itself is asked
    assert "誰" in asked_tokens("社長は誰ですか？")  # other question words are unchanged


def test_a_how_to_question_is_answered_by_the_rule_that_states_its_case() -> None:
    answer = ExtractiveReader().answer("遅刻したらどうすればいいですか？", _passages(CLUB_RULES))
    assert not answer.abstained
    assert "キャプテンに連絡" in answer.text


def test_an_english_question_keeps_its_tokens() -> None:
    """English question words are stopwords already: nothing is dropped."""
    assert asked_tokens("Who founded the club?") == {"found", "club"}

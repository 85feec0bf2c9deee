"""The answer-shape features of the learned confidence model (grace/scoring/answer_shape.py), on
hand-written English and Japanese sentences with hand-derived values."""

from __future__ import annotations

import pytest

from grace.schemas import Source
from grace.scoring.answer_shape import (
    is_slot_question,
    phrase_share,
    quantity_swap,
    restates_question,
    subject_absent,
)
from grace.scoring.features import RunSignals, run_features


@pytest.mark.parametrize(
    ("question", "slot"),
    [
        ("ビーグル号が寄港したのはどこ？", True),  # a question word
        ("基本的に運営は低コストであるのは？", True),  # a cleft: 「…のは？」 asks for the topic
        ("人文科学とも呼称するのは", True),
        ("ビーグル号は寄港しましたか", False),  # yes / no
        ("Who founded the bakery?", True),
        ("Was the bakery founded in 1901?", False),
        ("", False),
    ],
)
def test_a_slot_question_asks_for_a_value_not_for_yes_or_no(question: str, slot: bool) -> None:
    assert is_slot_question(question) is slot


def test_a_japanese_answer_that_only_restates_the_question_is_seen() -> None:
    asked = "ビーグル号が寄港したのはどこ？"
    # ビーグル号 and 寄港 are both in the question: the place (the answer) is elided.
    assert restates_question(asked, "ビーグル号が寄港している。 [S1]") == 1.0
    # リオデジャネイロ is not in the question: the sentence names something.
    assert restates_question(asked, "ビーグル号はリオデジャネイロに寄港した。 [S1]") == 0.0
    cleft = "基本的に運営は低コストであるのは？"
    assert restates_question(cleft, "基本的に運営は低コストである。") == 1.0
    assert restates_question(cleft, "ジェイ・キャストは基本的に運営は低コストである。") == 0.0


def test_restating_is_answering_a_yes_no_question_and_english_is_not_judged() -> None:
    assert restates_question("ビーグル号は寄港しましたか", "ビーグル号は寄港した。") == 0.0
    assert restates_question("ビーグル号が寄港したのはどこ？", "") == 0.0
    # The subject "Construction" stems like the question's "constructing": not a restatement.
    english = "What is the process of constructing a building?"
    stated = "Construction is the process of constructing a building."
    assert restates_question(english, stated) == 0.0


def test_a_quantity_of_the_question_counted_otherwise_is_a_swap() -> None:
    asked = "Who can propose the date be varied by up to three months?"
    assert quantity_swap(asked, "It may be varied by up to one month by the Monarch.") == 1.0
    assert quantity_swap(asked, "It may be varied by up to three months.") == 0.0
    assert quantity_swap(asked, "It may be varied by the Monarch.") == 0.0  # no month counted
    century = "What is continuing far beyond the turn of the 20th century?"
    assert quantity_swap(century, "It continues beyond the turn of the 19th century.") == 1.0
    assert quantity_swap(century, "It continues beyond the turn of the 20th century.") == 0.0


def test_a_japanese_counter_counted_otherwise_is_a_swap() -> None:
    asked = "議会を3か月延長できるのは誰？"
    assert quantity_swap(asked, "議長は議会を1か月延長できる。") == 1.0
    assert quantity_swap(asked, "議長は議会を3か月延長できる。") == 0.0
    launched = "2006年にニュー・ホライズンズを打ち上げた。"
    assert quantity_swap("2006年に打ち上げたのは？", launched) == 0.0


def test_phrase_share_counts_the_question_word_pairs_kept_together() -> None:
    # Content words: french, defeat, canada -> pairs (french, defeat), (defeat, canada).
    asked = "Where were the French defeated in Canada?"
    assert phrase_share(asked, "The French were defeated in Canada at Quebec.") == 1.0
    assert phrase_share(asked, "The French were defeated at Quebec, in Canada.") == 0.5
    recombined = "Though the British were later defeated at Quebec, the French ceded Canada."
    assert phrase_share(asked, recombined) == 0.0


def test_phrase_share_without_pairs_or_answer() -> None:
    assert phrase_share("Who is Tesla?", "Tesla was an inventor.") == 1.0  # one content word
    assert phrase_share("ビーグル号が寄港したのはどこ？", "ビーグル号が寄港している。") == 1.0
    assert phrase_share("Where were the French defeated in Canada?", "") == 0.0


@pytest.mark.parametrize(
    ("question", "answer", "absent"),
    [
        # "Toyota", the subject after "did", is not in the sentence: another company did it.
        ("What did Toyota rebrand its Forte as?", "Mitsubishi rebranded its Forte. [S1]", 1.0),
        ("What did Toyota rebrand its Forte as?", "Toyota rebranded its Forte. [S1]", 0.0),
        # The determiner is skipped ("the" -> "engines"), and words compare after stemming.
        ("What did the engines drive?", "The engine drove a pump.", 0.0),
        ("What did the engines drive?", "The turbine drove a pump.", 1.0),
        # A pronoun does not name the subject: the sentence may be about someone else.
        ("Who did Davies tell about the work?", "He told him about it.", 1.0),
        # Not measured without a named subject:
        ("Who founded the bakery?", "Smith founded it.", 0.0),  # no "did"
        ("What did it cost?", "The ticket cost five pounds.", 0.0),  # a pronoun subject
        ("What did Toyota rebrand its Forte as?", "", 0.0),  # no answer
        ("トヨタは何を改名したか", "三菱が改名した。", 0.0),  # Japanese
    ],
)
def test_the_subject_of_a_do_support_question_must_be_named_in_the_answer(
    question: str, answer: str, absent: float
) -> None:
    assert subject_absent(question, answer) == absent


def _signals(question: str, answer: str) -> RunSignals:
    src = Source(source_id="d#0", source="d.md", chunk_index=0, score=0.9, text=answer)
    return RunSignals(
        question=question,
        passages=[src],
        answer=f"{answer} [S1]",
        search={"result_count": 1.0, "max_score": 0.9},
        answer_factors={},
        search_score=0.8,
        answer_score=0.9,
    )


def test_run_features_carry_the_answer_shape() -> None:
    question, answer = "ビーグル号が寄港したのはどこ？", "ビーグル号が寄港している。"
    restating = run_features(_signals(question, answer))
    assert restating["a_restates"] == 1.0 and restating["a_phrase_share"] == 1.0
    swapped = run_features(
        _signals(
            "Who can propose the date be varied by up to three months?",
            "The Presiding Officer can propose the date be varied by up to one month.",
        )
    )
    assert swapped["a_quantity_swap"] == 1.0 and swapped["a_restates"] == 0.0
    # (propos, date), (date, vari), (vari, three), (three, month): the first two kept.
    assert swapped["a_phrase_share"] == 0.5
    assert swapped["a_subject_absent"] == 0.0  # no do-support subject to look for
    other = run_features(
        _signals("What did Toyota rebrand its Forte as?", "Mitsubishi rebranded its Forte.")
    )
    assert other["a_subject_absent"] == 1.0

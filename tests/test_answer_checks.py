"""Answer verification of the offline reader and judge, on small hand-written sentences.

Each check in English and Japanese: negated, swapped, answer in the neighbouring sentence,
and a plain correct answer that passes everything.
"""

from __future__ import annotations

import pytest

from grace.providers.offline import ExtractiveReader, HeuristicAnswerJudge
from grace.providers.offline.checks import CHECKS, CheckInput, failed_checks
from grace.schemas import Source


def _failed(question: str, sentence: str) -> dict[str, str]:
    return failed_checks(list(CHECKS), CheckInput(question=question, sentence=sentence,
                                                  window=sentence))


@pytest.mark.parametrize(
    ("question", "sentence"),
    [
        ("What can not be seen from the harbour?", "The lighthouse can be seen from the harbour."),
        ("When did the tram line open?", "The tram line did not open in 1874."),
        ("霧ヶ丘の駅が開業したのはいつですか？", "霧ヶ丘の駅は開業しなかった。"),
        ("霧ヶ丘の駅が開業しなかったのはいつですか？", "霧ヶ丘の駅は1901年に開業した。"),
    ],
)
def test_polarity_fails_when_question_and_sentence_disagree_on_negation(
    question: str, sentence: str
) -> None:
    assert set(_failed(question, sentence)) == {"polarity"}


@pytest.mark.parametrize(
    ("question", "sentence", "asked", "instead"),
    [
        (
            "What city served as Prussia's capital in 1313?",
            "In 1313 Kraków served as the Polish capital city.",
            "prussia",
            "kraków",
        ),
        (
            "プロイセンの首都はどこですか？",
            "ポーランドの首都はクラクフであった。",
            "プロイセン",
            "ポーランド",
        ),
    ],
)
def test_swapped_term_names_what_stands_in_its_place(
    question: str, sentence: str, asked: str, instead: str
) -> None:
    reason = _failed(question, sentence)["swapped_term"]
    assert asked in reason and instead in reason


def test_swapped_term_sees_a_name_replaced_in_the_same_slot_even_when_the_window_has_it() -> None:
    # The neighbour names the asked city, so the window check alone passes; the sentence
    # itself says the same thing of another city, governed by the same preposition.
    question = "What already existed in Lumen Bay before 1874?"
    sentence = "In Port Alder, a horse tram line already existed before 1874."
    window = f"{sentence} Lumen Bay followed a decade later."
    failed = failed_checks(
        list(CHECKS), CheckInput(question=question, sentence=sentence, window=window)
    )
    assert "in lumen bay" in failed["swapped_term"] and "in port alder" in failed["swapped_term"]
    # The same slot holding the asked name, or another preposition, is no swap.
    same = "In Lumen Bay, a horse tram line already existed before 1874, as in Port Alder."
    other = "From Port Alder, a horse tram line already ran to Lumen Bay before 1874."
    for fine in (same, other):
        assert failed_checks(
            list(CHECKS), CheckInput(question=question, sentence=fine, window=fine)
        ) == {}


@pytest.mark.parametrize(
    ("question", "sentence"),
    [
        (
            "When did the horse tram line open in Lumen Bay?",
            "The horse tram line opened in Lumen Bay on 2 August 1874.",
        ),
        ("霧ヶ丘の駅が開業したのはいつですか？", "霧ヶ丘の駅は1901年に開業した。"),
    ],
)
def test_a_plain_correct_answer_passes_every_check(question: str, sentence: str) -> None:
    assert _failed(question, sentence) == {}


@pytest.mark.parametrize(
    ("question", "text", "expected"),
    [
        (
            "Who designed the harbour crane of Lumen Bay?",
            "The inventor was Ada Wren. She is said to have designed the harbour crane of "
            "Lumen Bay in 1850 for the port.",
            "Ada Wren",
        ),
        (
            "霧ヶ丘の時計塔の設計者といわれるのは誰ですか？",
            "田中一郎は霧ヶ丘の技師であった。霧ヶ丘の時計塔の設計者といわれる。",
            "田中一郎",
        ),
    ],
)
def test_reader_takes_the_answer_from_the_neighbouring_sentence_and_cites_it(
    question: str, text: str, expected: str
) -> None:
    passage = Source(source_id="S1", source="doc.md", text=text)
    answer = ExtractiveReader().answer(question, [passage])
    assert not answer.abstained
    assert expected in answer.text and answer.cited == ["S1"]


def test_reader_reports_its_margin_over_the_runner_up() -> None:
    clear = [Source(source_id="S1", source="a.md",
                    text="The horse tram line opened in 1874. Gulls nest on the pier.")]
    close = [Source(source_id="S1", source="a.md",
                    text="The horse tram line opened in 1874. The horse tram line closed in 1931.")]
    question = "When did the horse tram line open?"
    wide = ExtractiveReader().answer(question, clear).margin
    narrow = ExtractiveReader().answer(question, close).margin
    assert wide is not None and narrow is not None and wide > narrow


def test_judge_reports_each_check_and_sees_the_title() -> None:
    judge = HeuristicAnswerJudge()
    bad = judge.judge(
        "What can not be seen from the harbour?",
        "The lighthouse can be seen from the harbour. [S1]",
        ["The lighthouse can be seen from the harbour."],
    )
    assert bad.checks == {"polarity": 0.5, "swapped_term": 1.0}
    assert "polarity" in bad.rationale
    # "Lumen Bay" is only in the title: not a missing term once the judge sees the title.
    titled = judge.judge(
        "When did the Lumen Bay tram open?",
        "The tram opened in 1874. [S1]",
        ["[title] Lumen Bay\nThe tram opened in 1874."],
    )
    untitled = judge.judge(
        "When did the Lumen Bay tram open?", "The tram opened in 1874. [S1]",
        ["The tram opened in 1874."],
    )
    assert titled.self_eval is not None and untitled.self_eval is not None
    assert titled.self_eval > untitled.self_eval


def test_unknown_check_names_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown answer checks"):
        HeuristicAnswerJudge(checks=["telepathy"])


def test_reader_matches_irregular_verb_forms_to_the_question() -> None:
    # "fled" is a form of "flee" the stemmer cannot see: without folding it, both sentences
    # shared only "council" with the question.
    text = "The council met in the old town hall. In 1901 the council fled to Harbour Depot."
    passage = Source(source_id="S1", source="doc.md", text=text)
    answer = ExtractiveReader().answer("Where did the council flee to?", [passage])
    assert "Harbour Depot" in answer.text
    assert answer.margin is not None and answer.margin > 0.5


def test_reader_sees_a_tie_where_only_the_noun_matched_before() -> None:
    # Before folding, the sentence repeating "withdrawal" (a withdrawal *from*) won with a
    # clear margin; now the sentence with "withdrew" matches as well: no clear win.
    text = (
        "The council demanded an immediate tram withdrawal from the pier. "
        "After the storm the trams withdrew to the Harbour Depot, where they were repaired."
    )
    passage = Source(source_id="S1", source="doc.md", text=text)
    answer = ExtractiveReader().answer("Where was the tram withdrawal to?", [passage])
    assert answer.margin is not None and answer.margin < 0.5


def test_match_tokens_folds_irregular_forms_and_keeps_ambiguous_ones() -> None:
    from grace.providers.offline.word_forms import match_tokens
    from grace.retrieval import tokenize

    assert match_tokens("withdrew fled built") == match_tokens("withdraw flee build")
    # "found" (to found a city) and "left" keep their own meaning.
    assert match_tokens("founded left") == tokenize("founded left")


def test_the_reader_reports_a_number_in_another_role() -> None:
    from grace.providers.offline.evidence import assess
    from grace.schemas import Source

    texts = [
        "The item number 1692 is called Gizmo1692 and weighs 7 grams.",
        "The item number 7 is called Gizmo7 and weighs 12 grams.",
    ]
    passages = [
        Source(source_id=f"d{i}", source=f"f{i}.md", chunk_index=0, score=0.9, text=t)
        for i, t in enumerate(texts)
    ]
    rows = {r.sentence: r for r in assess("What is item number 7 called?", passages)}
    assert rows[texts[0]].number_role and not rows[texts[1]].number_role

"""Near-miss checks of the offline reader and judge: contradicted words and missing numbers."""

from __future__ import annotations

import pytest

from grace.providers.offline.evidence import assess
from grace.providers.offline.judge import HeuristicAnswerJudge
from grace.providers.offline.reader import ExtractiveReader
from grace.schemas import Source
from grace.text import contrasts, in_closed_set

PASSAGE = (
    "Electric trams replaced the horses in 1899, after the city council bought the company. "
    "The first electric service ran on 21 June 1899 between Oyelaran Square and Sandmere. "
    "The conversion of the whole network was finished in 1903."
)
CORAL = (
    "The university is best known for ocean science. In 1974 a team led by the oceanographer "
    "Helena Marsh discovered the cold-water coral reef in the Caldera Sound."
)


def _sources(*texts: str) -> list[Source]:
    return [
        Source(source_id=f"S{i}", source=f"doc{i}.md", text=t, score=1.0)
        for i, t in enumerate(texts, 1)
    ]


@pytest.mark.parametrize(
    ("question", "sentence", "expected"),
    [
        ("When did the last service run?", "The first service ran in 1899.", ["last≠first"]),
        ("Who was the second dean?", "Okonkwo was the first dean.", ["second≠first"]),
        ("Which warm-water reef?", "the cold-water coral reef", ["warm≠cold"]),
        ("When did the hall close?", "The hall opened in 1904.", ["close≠opened"]),
        ("Which is the newest boat?", "It is led by the oldest boat.", ["newest≠oldest"]),
        ("How many undergraduates?", "5,200 were postgraduates", ["undergraduates≠postgraduates"]),
    ],
)
def test_contrasts_found(question: str, sentence: str, expected: list[str]) -> None:
    assert contrasts(question, sentence) == expected


@pytest.mark.parametrize(
    ("question", "sentence"),
    [
        # the asked word is stated too: no contradiction
        ("When did the hall open?", "It opened in 1904 and closed in 1961."),
        ("Who was the first dean?", "The first dean was Okonkwo."),
        # the sentence states another member the question also names
        ("Was the first or the last tram faster?", "The first tram was faster."),
        # unrelated words
        ("How long is the breakwater?", "The breakwater is 1.4 kilometres long."),
        ("", "The first service ran in 1899."),
    ],
)
def test_contrasts_not_found(question: str, sentence: str) -> None:
    assert contrasts(question, sentence) == []


@pytest.mark.parametrize("word", ["before", "eastern", "largest", "won", "following", "Average"])
def test_a_closed_set_word_is_known(word: str) -> None:
    assert in_closed_set(word)


@pytest.mark.parametrize("word", ["colour", "bridge", "busiest", "ferry", "it's"])
def test_a_word_outside_the_sets_has_no_opposite_word(word: str) -> None:
    """What the readings skip on: no single word contradicts a word outside every set."""
    assert not in_closed_set(word)
    for other in ("after", "western", "smallest", "lost", "preceding", "maximum", word):
        assert contrasts(word, other) == []


def test_evidence_records_contrast_of_sentence() -> None:
    question = "When did the last electric service run between Oyelaran Square and Sandmere?"
    best = assess(question, _sources(PASSAGE))[0]
    assert best.sentence.startswith("The first electric service")
    assert best.contrast == ("last≠first",)


def test_reader_abstains_on_contrast_and_answers_otherwise() -> None:
    reader = ExtractiveReader()
    near_miss = reader.answer(
        "Which oceanographer discovered the warm-water coral reef in the Caldera Sound?",
        _sources(CORAL),
    )
    assert near_miss.abstained
    assert "contrast" in near_miss.text and "warm≠cold" in near_miss.text
    answer = reader.answer(
        "Which oceanographer discovered the cold-water coral reef in the Caldera Sound?",
        _sources(CORAL),
    )
    assert not answer.abstained
    assert "Helena Marsh" in answer.text


def test_judge_halves_self_eval_for_contrast() -> None:
    judge = HeuristicAnswerJudge()
    sentence = (
        "The first electric service ran on 21 June 1899 between Oyelaran Square and Sandmere."
    )
    stated = judge.judge(
        "When did the first electric service run between Oyelaran Square and Sandmere?",
        sentence,
        [PASSAGE],
    )
    swapped = judge.judge(
        "When did the last electric service run between Oyelaran Square and Sandmere?",
        sentence,
        [PASSAGE],
    )
    assert "contradicts" in swapped.rationale and "last≠first" in swapped.rationale
    assert "contradicts" not in stated.rationale
    assert swapped.self_eval < 0.5 * stated.self_eval + 1e-9


def test_judge_halves_self_eval_for_a_number_not_near_the_answer() -> None:
    judge = HeuristicAnswerJudge()
    passage = (
        "The festival began in 1923. It was cancelled during the war. "
        "The oldest boat leads the flotilla. About 350,000 people came in 2023."
    )
    answer = "The festival began in 1923."
    right = judge.judge("In what year did the festival begin?", answer, [passage])
    wrong = judge.judge("What did the festival begin with in 2023?", answer, [passage])
    assert "number of the question" in wrong.rationale
    assert "number of the question" not in right.rationale

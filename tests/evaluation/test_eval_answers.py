"""Answer normalisation and matching against hand-computed values."""

from __future__ import annotations

import pytest

from graph.evaluation.answers import (
    contains,
    exact_match,
    is_correct,
    match_answer,
    normalise,
    token_f1,
)


def test_normalise_strips_citations_articles_punctuation() -> None:
    assert normalise("The  Golden Wick! [S1]") == "golden wick"
    assert normalise("ＡＢＣ　１２３") == "abc 123"


def test_token_f1_english_hand_computed() -> None:
    # pred {golden, wick, prize} vs gold {golden, wick}: P = 2/3, R = 1 → F1 = 0.8
    assert token_f1("the Golden Wick prize", "Golden Wick") == pytest.approx(0.8)
    assert token_f1("nothing", "Golden Wick") == 0.0


def test_token_f1_japanese_is_character_level() -> None:
    # pred 1623年に (4 chars: 1 6 2 3 年 に → 6) vs gold 1623年 (5): common 5 → P 5/6, R 1
    assert token_f1("1623年に", "1623年", lang="ja") == pytest.approx(2 * (5 / 6) / (5 / 6 + 1))


def test_exact_and_containment() -> None:
    assert exact_match("the Beacon Card.", "Beacon Card")
    assert contains("It is called the Beacon Card [S1]", "Beacon Card")
    assert not contains("Beacon Cardigan", "Beacon Card")
    assert contains("霧ヶ丘は1623年に名付けられた。", "1623年", lang="ja")


def test_match_answer_and_correctness_rule() -> None:
    m = match_answer("Tobias Wren installed a lamp.", ["Tobias Wren", "Wren"])
    assert m.contained and m.correct and m.best_gold == "Tobias Wren"
    assert is_correct("in 1764", ["1764"])
    assert not is_correct("in 1765", ["1764"])
    assert is_correct("about 1.4 km", ["one point four"], patterns=[r"1\.4\s*km"])
    # F1 ≥ 0.5 without containment: pred {steam, indicator} vs gold {steam, engine, indicator}
    assert is_correct("steam indicator", ["steam engine indicator"])

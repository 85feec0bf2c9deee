"""Aggregation of step scores and source agreement."""

from __future__ import annotations

import pytest

from confidence import ConfidenceAggregator, SourceAgreementCalculator, char_ngram_vector, cosine
from confidence.config import AggregationMethod

# --- aggregation ------------------------------------------------------------------------


def test_mean() -> None:
    assert ConfidenceAggregator("mean").aggregate([0.2, 0.4, 0.9]) == pytest.approx(0.5)


def test_min() -> None:
    assert ConfidenceAggregator("min").aggregate([0.2, 0.4, 0.9]) == pytest.approx(0.2)


def test_weighted_is_linear_recency() -> None:
    # weights 1, 2, 3 (/ 6): later steps weigh more
    got = ConfidenceAggregator("weighted").aggregate([0.3, 0.6, 0.9])
    assert got == pytest.approx((1 * 0.3 + 2 * 0.6 + 3 * 0.9) / 6)
    assert ConfidenceAggregator.weights(3) == pytest.approx([1 / 6, 2 / 6, 3 / 6])


def test_weighted_favours_later_steps() -> None:
    agg = ConfidenceAggregator("weighted")
    assert agg.aggregate([0.2, 0.9]) > agg.aggregate([0.9, 0.2])


def test_method_override_and_default() -> None:
    agg = ConfidenceAggregator()
    assert agg.method == "final"  # the answer step's score: retrieval is not counted twice
    assert agg.aggregate([0.2, 0.9, 0.4]) == pytest.approx(0.4)
    assert agg.aggregate([0.2, 0.9], "min") == pytest.approx(0.2)


@pytest.mark.parametrize("method", ["final", "mean", "min", "weighted"])
def test_empty_is_zero(method: str) -> None:
    assert ConfidenceAggregator().aggregate([], method) == 0.0  # type: ignore[arg-type]


@pytest.mark.parametrize("method", ["mean", "min", "weighted"])
def test_single_score_is_itself(method: str) -> None:
    assert ConfidenceAggregator().aggregate([0.42], method) == pytest.approx(0.42)  # type: ignore[arg-type]


def test_unknown_method_raises() -> None:
    with pytest.raises(ValueError):
        ConfidenceAggregator().aggregate([0.5], "median")  # type: ignore[arg-type]


@pytest.mark.parametrize("method", ["final", "mean", "min", "weighted"])
def test_scores_outside_zero_one_are_clamped(method: AggregationMethod) -> None:
    agg = ConfidenceAggregator(method)
    assert agg.aggregate([1.5, 2.0]) == 1.0
    assert agg.aggregate([-0.5, -1.0]) == 0.0


# --- source agreement -------------------------------------------------------------------


def test_fewer_than_two_texts_agree() -> None:
    calc = SourceAgreementCalculator()
    assert calc.calculate([]) == 1.0
    assert calc.calculate(["only one"]) == 1.0


def test_identical_texts_agree_fully() -> None:
    assert SourceAgreementCalculator().calculate(["same text", "same text"]) == pytest.approx(1.0)


def test_disjoint_texts_do_not_agree() -> None:
    assert SourceAgreementCalculator().calculate(["aaaa", "zzzz"]) == 0.0


def test_similar_beats_dissimilar_english() -> None:
    calc = SourceAgreementCalculator()
    similar = calc.calculate(
        ["The refund period is 30 days.", "Refunds are possible within 30 days."]
    )
    different = calc.calculate(["The refund period is 30 days.", "Our office is in Osaka."])
    assert similar > different


def test_japanese_without_spaces() -> None:
    calc = SourceAgreementCalculator()
    similar = calc.calculate(
        ["返品は購入後30日以内に受け付けます。", "購入後30日以内であれば返品を受け付けます。"]
    )
    different = calc.calculate(["返品は購入後30日以内に受け付けます。", "本社は大阪にあります。"])
    assert similar > different
    assert similar > 0.3


def test_offline_representation_is_character_trigrams() -> None:
    v = char_ngram_vector("AbC  abc")
    # NFKC + casefold + whitespace collapse -> "abc abc"
    assert v == {"abc": 2, "bc ": 1, "c a": 1, " ab": 1}
    assert char_ngram_vector("ＡＢ") == {"ab": 1}  # full-width normalised, shorter than n
    assert char_ngram_vector("  ") == {}


def test_mean_pairwise_cosine() -> None:
    texts = ["abcd", "abce", "xyzw"]
    vs = [char_ngram_vector(t) for t in texts]
    expected = (cosine(vs[0], vs[1]) + cosine(vs[0], vs[2]) + cosine(vs[1], vs[2])) / 3
    assert SourceAgreementCalculator().calculate(texts) == pytest.approx(expected)
    assert cosine(vs[0], vs[1]) == pytest.approx(0.5)


def test_empty_text_has_zero_similarity() -> None:
    assert SourceAgreementCalculator().calculate(["", "abc"]) == 0.0


def test_custom_embedder_and_clamp() -> None:
    vectors = {"a": [1.0, 0.0], "b": [0.0, 1.0], "c": [1.0, 1.0], "neg": [-1.0, 0.0]}

    def embed(texts: list[str]) -> list[list[float]]:
        return [vectors[t] for t in texts]

    calc = SourceAgreementCalculator(embed)
    assert calc.calculate(["a", "c"]) == pytest.approx(2**-0.5)
    assert calc.calculate(["a", "b"]) == pytest.approx(0.0)
    assert calc.calculate(["a", "neg"]) == 0.0  # cosine -1 clamped to 0
    assert calc.calculate(["a", "a", "b"]) == pytest.approx((1 + 0 + 0) / 3)


def test_embedder_wrong_shape_raises() -> None:
    calc = SourceAgreementCalculator(lambda texts: [[1.0]])
    with pytest.raises(ValueError):
        calc.calculate(["a", "b"])

"""Focused tests with hand-derived values (issue 30.8): plan templates and complexity
(``grace/planning/blocks.py``), score normalisation (``grace/retrieval/scoring.py``)."""

from __future__ import annotations

import math

import pytest

from grace.planning.blocks import (
    broadened_queries,
    estimate_complexity,
    keyword_query,
    split_subquestions,
    template_plan,
)
from grace.retrieval.scoring import hybrid_score, idf, normalise_sparse

COMPOUND = "Who designed the lighthouse and when did the tram open?"


def test_a_compound_question_splits_at_and_before_a_question_word() -> None:
    assert split_subquestions(COMPOUND) == [
        "Who designed the lighthouse",
        "when did the tram open?",
    ]
    assert split_subquestions("When did it open? Who built it?") == [
        "When did it open?",
        "Who built it?",
    ]
    assert split_subquestions("霧ヶ丘線はいつ開業したか。また、誰が設計したか。") == [
        "霧ヶ丘線はいつ開業したか。",
        "誰が設計したか。",
    ]
    assert split_subquestions("Fish and chips?") == ["Fish and chips?"]  # no question word


def test_keywords_drop_stopwords_in_order_and_japanese_endings() -> None:
    assert keyword_query("When did the horse tram open?") == "horse tram open"
    assert keyword_query("霧ヶ丘線はいつ開業しましたか？") == "霧ヶ丘線はいつ開業"
    assert broadened_queries(COMPOUND) == [
        "designed lighthouse tram open",
        "designed lighthouse",
        "tram open",
    ]
    assert broadened_queries("horse tram open") == []  # nothing differs from the question


def test_complexity_is_the_documented_weighted_sum() -> None:
    # 0.35 per extra sub-question (two at most) + 0.2 * length / 400 + 0.3 if comparative
    assert estimate_complexity(COMPOUND) == round(0.35 + 0.2 * len(COMPOUND) / 400, 3)
    short = "When did it open?"
    assert estimate_complexity(short) == round(0.2 * len(short) / 400, 3)
    compare = "Compare the tram and the ferry"
    assert estimate_complexity(compare) == round(0.3 + 0.2 * len(compare) / 400, 3)


def test_the_template_plan_searches_each_part_then_answers_with_an_ask_fallback() -> None:
    plan = template_plan(COMPOUND, "docs", subquestions=split_subquestions(COMPOUND))
    shape = [(s.step_id, s.action, s.depends_on, s.fallback) for s in plan.steps]
    assert shape == [
        ("s1", "rag_search", [], None),
        ("s2", "rag_search", [], None),
        ("s3", "reasoning", ["s1", "s2"], "ask_user"),
    ]
    assert [s.collection for s in plan.steps[:2]] == ["docs", "docs"]
    assert plan.steps[-1].query == COMPOUND and plan.origin == "template"


def test_idf_is_qdrants_modifier() -> None:
    # ln(1 + (n - df + 0.5) / (df + 0.5)) by hand
    assert idf(0, 10) == pytest.approx(math.log(1 + 10.5 / 0.5))  # ln 22
    assert idf(10, 10) == pytest.approx(math.log(1 + 0.5 / 10.5))
    assert idf(5, 10) == pytest.approx(math.log(2.0))


def test_sparse_scores_read_as_a_share_of_the_reference() -> None:
    assert normalise_sparse(1.5, 3.0) == 0.5
    assert normalise_sparse(4.0, 3.0) == 1.0  # repeated terms are capped at the reference
    assert normalise_sparse(1.0, 0.0) == 0.0 and normalise_sparse(-1.0, 3.0) == 0.0


def test_hybrid_is_the_mean_of_sparse_and_clamped_cosine() -> None:
    assert hybrid_score(0.6, 0.8) == pytest.approx(0.7)
    assert hybrid_score(0.6, -0.4) == pytest.approx(0.3)  # a negative cosine counts 0
    assert hybrid_score(1.0, 1.3) == 1.0
    assert hybrid_score(0.5, None) == pytest.approx(0.25)  # no dense vector

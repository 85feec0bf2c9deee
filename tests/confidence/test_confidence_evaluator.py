"""Evaluator block: four evaluation types, LLM and heuristic."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from confidence import (
    DEFAULT_RUBRIC,
    Criterion,
    EvaluationResult,
    HeuristicEvaluator,
    QualityEvaluator,
    RubricBand,
    grade_for,
    normalised_weights,
)
from grace.providers.llm.evaluator import Evaluator
from tests.fakes import RawToolArgs, ScriptedChatModel

Q = "What is the refund period?"
OUT = "Refunds are accepted within 30 days."
CTX = ["Refunds are accepted within 30 days of purchase."]


def score_reply(score: float, confidence: float = 0.9, **extra: Any) -> dict[str, Any]:
    return {
        "score": score,
        "confidence": confidence,
        "feedback": "fine",
        "suggestions": ["cite the policy"],
        **extra,
    }


def assert_failed(r: EvaluationResult, needle: str) -> None:
    assert r.passed is False
    assert r.confidence == 0.0
    assert r.failed and r.error is not None
    assert needle in r.feedback


# --- scoring -----------------------------------------------------------------------------


def test_scoring_pass_and_fields() -> None:
    model = ScriptedChatModel.replying(score_reply(0.85), usage=(50, 10))
    r = Evaluator(model).evaluate_scoring(Q, OUT, CTX)
    assert r.evaluation_type == "scoring"
    assert r.passed and r.overall_score == 0.85 and r.confidence == 0.9
    assert r.feedback == "fine" and r.suggestions == ["cite the policy"]
    assert r.grade is None and r.ranking is None and r.criteria_scores == {}
    assert (r.input_tokens, r.output_tokens, r.model_calls) == (50, 10, 1)
    assert not r.failed
    prompt = str(model.messages[0][1].content)
    assert "<output>" in prompt and '<passage id="1">' in prompt


def test_scoring_threshold_is_inclusive() -> None:
    model = ScriptedChatModel.replying(score_reply(0.7), score_reply(0.69))
    ev = Evaluator(model, pass_threshold=0.7)
    assert ev.evaluate_scoring(Q, OUT).passed
    assert not ev.evaluate_scoring(Q, OUT).passed


def test_judge_runs_at_temperature_zero() -> None:
    model = ScriptedChatModel.replying(score_reply(0.9))
    ev = Evaluator(model)
    assert model.temperature == 0.7  # caller's model untouched
    assert ev.model.temperature == 0.0  # type: ignore[attr-defined]
    ev.evaluate_scoring(Q, OUT)
    assert len(model.messages) == 1  # the copy shares the script
    kept = Evaluator(ScriptedChatModel.replying(), force_zero_temperature=False)
    assert kept.model.temperature == 0.7  # type: ignore[attr-defined]


# --- criteria -----------------------------------------------------------------------------

CRITERIA = [
    Criterion(name="accuracy", description="Facts match the context", weight=3),
    Criterion(name="clarity", description="Easy to read", weight=1),
]


def criteria_reply(scores: dict[str, float]) -> dict[str, Any]:
    return {
        "scores": [{"name": n, "score": s} for n, s in scores.items()],
        "confidence": 0.8,
        "feedback": "ok",
        "suggestions": [],
    }


def test_criteria_weights_normalised() -> None:
    assert normalised_weights(CRITERIA) == {"accuracy": 0.75, "clarity": 0.25}
    reply = criteria_reply({"accuracy": 0.8, "clarity": 0.4, "extra": 0})
    model = ScriptedChatModel.replying(reply)
    r = Evaluator(model).evaluate_criteria(Q, OUT, CRITERIA, context=CTX)
    assert r.evaluation_type == "criteria"
    assert r.criteria_scores == {"accuracy": 0.8, "clarity": 0.4}
    assert r.overall_score == pytest.approx(0.75 * 0.8 + 0.25 * 0.4)
    assert r.passed  # 0.7 >= 0.7
    prompt = str(model.messages[0][1].content)
    assert 'name="accuracy"' in prompt and "Easy to read" in prompt


def test_criteria_missing_score_is_a_failed_evaluation() -> None:
    model = ScriptedChatModel.replying(criteria_reply({"accuracy": 0.9}))
    assert_failed(Evaluator(model).evaluate_criteria(Q, OUT, CRITERIA), "clarity")


def test_criteria_argument_errors_raise() -> None:
    ev = Evaluator(ScriptedChatModel.replying())
    with pytest.raises(ValueError):
        ev.evaluate_criteria(Q, OUT, [])
    with pytest.raises(ValueError):
        ev.evaluate_criteria(Q, OUT, [Criterion(name="a", weight=0)])
    with pytest.raises(ValueError):
        ev.evaluate_criteria(Q, OUT, [Criterion(name="a"), Criterion(name="a")])


# --- comparison -----------------------------------------------------------------------------


def compare_reply(scores: Sequence[float]) -> dict[str, Any]:
    return {
        "scores": [{"index": i, "score": s} for i, s in enumerate(scores)],
        "confidence": 0.7,
        "feedback": "second is best",
    }


def test_compare_ranks_outputs() -> None:
    model = ScriptedChatModel.replying(compare_reply([0.4, 0.9, 0.6]))
    r = Evaluator(model).compare(Q, ["a", "b", "c"], context=CTX)
    assert r.evaluation_type == "comparison"
    assert r.ranking == [1, 2, 0]
    assert r.overall_score == 0.9 and r.passed
    assert r.criteria_scores == {"output_0": 0.4, "output_1": 0.9, "output_2": 0.6}
    assert '<output index="2">' in str(model.messages[0][1].content)


def test_compare_ties_keep_order() -> None:
    r = Evaluator(ScriptedChatModel.replying(compare_reply([0.5, 0.5]))).compare(Q, ["a", "b"])
    assert r.ranking == [0, 1]
    assert not r.passed


def test_compare_missing_output_is_a_failed_evaluation() -> None:
    model = ScriptedChatModel.replying(compare_reply([0.4, 0.9]))
    assert_failed(Evaluator(model).compare(Q, ["a", "b", "c"]), "[2]")


def test_compare_needs_outputs() -> None:
    with pytest.raises(ValueError):
        Evaluator(ScriptedChatModel.replying()).compare(Q, [])


# --- rubric ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("score", "grade"),
    [
        (1.0, "A"),
        (0.9, "A"),
        (0.89, "B"),
        (0.8, "B"),
        (0.7, "C"),
        (0.6, "D"),
        (0.59, "F"),
        (0, "F"),
    ],
)
def test_default_rubric_bands(score: float, grade: str) -> None:
    assert grade_for(score) == grade
    r = Evaluator(ScriptedChatModel.replying(score_reply(score))).evaluate_rubric(Q, OUT)
    assert r.evaluation_type == "rubric"
    assert r.grade == grade
    assert r.passed is (score >= 0.7)


def test_custom_rubric_and_prompt() -> None:
    bands = [RubricBand(grade="pass", min_score=0.5), RubricBand(grade="good", min_score=0.8)]
    model = ScriptedChatModel.replying(score_reply(0.82))
    r = Evaluator(model).evaluate_rubric(Q, OUT, bands)
    assert r.grade == "good"
    assert "good: score >= 0.8" in str(model.messages[0][1].content)
    assert grade_for(0.1, bands) == "pass"  # below every band: lowest band


def test_default_rubric_values() -> None:
    assert [(b.grade, b.min_score) for b in DEFAULT_RUBRIC] == [
        ("A", 0.9),
        ("B", 0.8),
        ("C", 0.7),
        ("D", 0.6),
        ("F", 0.0),
    ]


# --- malformed judge output for every type ------------------------------------------------

CALLS: dict[str, Callable[[Any], EvaluationResult]] = {
    "scoring": lambda ev: ev.evaluate_scoring(Q, OUT),
    "criteria": lambda ev: ev.evaluate_criteria(Q, OUT, CRITERIA),
    "comparison": lambda ev: ev.compare(Q, ["a", "b"]),
    "rubric": lambda ev: ev.evaluate_rubric(Q, OUT),
}


@pytest.mark.parametrize("kind", list(CALLS))
@pytest.mark.parametrize(
    ("reply", "needle"),
    [
        (RawToolArgs('{"score": 0.9, "confidence": '), "malformed judge output"),
        (RawToolArgs("not json at all"), "malformed judge output"),
        ({"score": "excellent", "scores": "many"}, "malformed judge output"),
        ("Looks great to me!", "no structured verdict"),
        (TimeoutError("judge timed out"), "judge call failed"),
    ],
)
def test_malformed_judge_output_never_raises(kind: str, reply: object, needle: str) -> None:
    r = CALLS[kind](Evaluator(ScriptedChatModel.replying(reply)))
    assert r.evaluation_type == kind
    assert_failed(r, needle)
    assert r.model_calls == 1


async def test_async_variants() -> None:
    model = ScriptedChatModel.replying(
        score_reply(0.9),
        criteria_reply({"accuracy": 1.0, "clarity": 1.0}),
        compare_reply([0.1, 0.2]),
        score_reply(0.65),
    )
    ev = Evaluator(model)
    assert (await ev.aevaluate_scoring(Q, OUT)).passed
    assert (await ev.aevaluate_criteria(Q, OUT, CRITERIA)).overall_score == 1.0
    assert (await ev.acompare(Q, ["a", "b"])).ranking == [1, 0]
    assert (await ev.aevaluate_rubric(Q, OUT)).grade == "D"


def test_llm_evaluator_satisfies_protocol() -> None:
    assert isinstance(Evaluator(ScriptedChatModel.replying()), QualityEvaluator)


# --- heuristic evaluator ----------------------------------------------------------------------


def overlap(question: str, output: str, context: Sequence[str]) -> float:
    words = set(" ".join(context).lower().split())
    out = output.lower().split()
    return sum(w in words for w in out) / len(out) if out else 0.0


def test_heuristic_scoring_and_rubric() -> None:
    ev = HeuristicEvaluator(overlap, confidence=0.6)
    assert isinstance(ev, QualityEvaluator)
    good = ev.evaluate_scoring(Q, "refunds are accepted within 30 days", CTX)
    assert good.passed and good.overall_score == 1.0 and good.confidence == 0.6
    assert good.model_calls == 0
    bad = ev.evaluate_scoring(Q, "call our office in osaka", CTX)
    assert not bad.passed and bad.suggestions
    rubric = ev.evaluate_rubric(Q, "refunds are accepted within 30 days", context=CTX)
    assert rubric.evaluation_type == "rubric" and rubric.grade == "A"


def test_heuristic_criteria_with_per_criterion_functions() -> None:
    ev = HeuristicEvaluator(overlap, criterion_fns={"clarity": lambda q, o, c: 0.2})
    r = ev.evaluate_criteria(Q, "refunds are accepted within 30 days", CRITERIA, context=CTX)
    assert r.criteria_scores == {"accuracy": 1.0, "clarity": 0.2}
    assert r.overall_score == pytest.approx(0.75 * 1.0 + 0.25 * 0.2)
    assert any("clarity" in s for s in r.suggestions)


def test_heuristic_compare() -> None:
    ev = HeuristicEvaluator(overlap)
    r = ev.compare(Q, ["office osaka", "refunds within 30 days", "refunds in osaka"], context=CTX)
    assert r.ranking == [1, 2, 0]
    assert r.overall_score == 1.0


def test_heuristic_failure_never_raises() -> None:
    def broken(q: str, o: str, c: Sequence[str]) -> float:
        raise RuntimeError("tokenizer missing")

    ev = HeuristicEvaluator(broken)
    for kind, call in CALLS.items():
        r = call(ev)
        assert r.evaluation_type == kind
        assert_failed(r, "scoring function failed")
    nan = HeuristicEvaluator(lambda q, o, c: float("nan")).evaluate_scoring(Q, OUT)
    assert nan.failed


def test_heuristic_clamps_scores() -> None:
    assert HeuristicEvaluator(lambda q, o, c: 3.0).evaluate_scoring(Q, OUT).overall_score == 1.0


async def test_heuristic_async() -> None:
    ev = HeuristicEvaluator(lambda q, o, c: 0.75)
    assert (await ev.aevaluate_scoring(Q, OUT)).passed
    assert (await ev.aevaluate_criteria(Q, OUT, CRITERIA)).overall_score == 0.75
    assert (await ev.acompare(Q, ["a"])).ranking == [0]
    assert (await ev.aevaluate_rubric(Q, OUT)).grade == "C"

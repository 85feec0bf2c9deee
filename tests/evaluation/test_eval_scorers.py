"""Each scorer on hand-built run records."""

from __future__ import annotations

import pytest

from graph.evaluation.dataset import Question
from graph.evaluation.record import Chunk, RunRecord, StepRecord
from graph.evaluation.scorers import (
    AbstentionScorer,
    AnswerMatchScorer,
    CitationGroundingScorer,
    CollectionPrecisionScorer,
    LatencyScorer,
    PlanActionScorer,
    score_run,
    verdict,
)

PASSAGE = Chunk(
    source_id="S1",
    source="history.md",
    chunk_index=0,
    score=0.9,
    text="Lumen Bay received a royal charter in 1764. The harbour grew quickly.",
)


def _record(
    *,
    answerable: bool = True,
    answer: str = "Lumen Bay received a royal charter in 1764. [S1]",
    answered: bool = True,
    level: str = "silent",
    cited: list[Chunk] | None = None,
    expected_actions: tuple[str, ...] | None = None,
    latency_ms: float = 10.0,
) -> RunRecord:
    q = Question(
        id="q1",
        question="When did Lumen Bay receive its charter?",
        answerable=answerable,
        answers=("1764",) if answerable else (),
        expected_actions=expected_actions,
    )
    steps = [
        StepRecord(
            step_id="s1",
            action="rag_search",
            query="q",
            collection="c",
            status="success",
            sources=[PASSAGE],
        ),
        StepRecord(step_id="s2", action="reasoning", query="q", collection=None, status="success"),
    ]
    return RunRecord(
        question=q,
        status="completed",
        answer=answer,
        answered=answered,
        confidence=0.9,
        level=level,
        steps=steps,
        cited=[PASSAGE] if cited is None else cited,
        latency_ms=latency_ms,
    )


def test_answer_match() -> None:
    r = AnswerMatchScorer().score(_record())
    assert r is not None and r.passed and r.score == 1.0 and r.details["contained"]
    wrong = AnswerMatchScorer().score(_record(answer="The harbour grew quickly. [S1]"))
    assert wrong is not None and not wrong.passed and wrong.score == 0.0
    abstained = AnswerMatchScorer().score(_record(answered=False))
    assert abstained is not None and "no answer" in abstained.details["why"]
    assert AnswerMatchScorer().score(_record(answerable=False)) is None


def test_plan_actions() -> None:
    assert PlanActionScorer().score(_record()) is None
    ok = PlanActionScorer().score(_record(expected_actions=("rag_search", "reasoning")))
    assert ok is not None and ok.score == 1.0
    half = PlanActionScorer().score(_record(expected_actions=("rag_search", "ask_user")))
    assert half is not None and half.score == 0.5 and not half.passed


def test_collection_precision() -> None:
    assert CollectionPrecisionScorer(expected="c").score(_record()).score == 1.0  # type: ignore[union-attr]
    r = CollectionPrecisionScorer(expected="other").score(_record())
    assert r is not None and r.score == 0.0 and r.details["wrong"] == ["c"]
    assert CollectionPrecisionScorer().score(_record()) is None


def test_citation_grounding() -> None:
    r = CitationGroundingScorer().score(_record())
    assert r is not None and r.passed and r.score == 1.0
    stray = Chunk(source_id="S2", source="other.md", chunk_index=3, score=0.1, text="x")
    bad = CitationGroundingScorer().score(_record(cited=[stray]))
    assert bad is not None and bad.score == 0.0 and bad.details["not_retrieved"] == ["other.md#3"]
    invented = CitationGroundingScorer().score(
        _record(answer="Lumen Bay received a royal charter in 1764. Dragons founded it. [S1]")
    )
    assert invented is not None and invented.score == pytest.approx(0.5)
    assert invented.details["unsupported"] == ["Dragons founded it."]
    assert CitationGroundingScorer().score(_record(answered=False)) is None


def test_abstention() -> None:
    assert AbstentionScorer().score(_record()) is None
    ok = AbstentionScorer().score(_record(answerable=False, level="escalate"))
    assert ok is not None and ok.passed
    bad = AbstentionScorer().score(_record(answerable=False, level="notify"))
    assert bad is not None and bad.score == 0.0 and "why" in bad.details


def test_latency() -> None:
    assert LatencyScorer(budget_ms=100).score(_record(latency_ms=50)).score == 1.0  # type: ignore[union-attr]
    slow = LatencyScorer(budget_ms=100).score(_record(latency_ms=400))
    assert slow is not None and slow.score == 0.25 and not slow.passed


def test_verdict_all_pass_and_weighted_mean() -> None:
    rec = _record(answer="The harbour grew quickly. [S1]")
    results, v = score_run(rec, [AnswerMatchScorer(weight=3.0), LatencyScorer(weight=1.0)])
    # answer 0.0 (w 3) and latency 1.0 (w 1) → mean 0.25
    assert v.weighted_mean == pytest.approx(0.25) and not v.all_passed
    assert v.failed == ["answer_match"]
    assert rec.scorer_details["results"]["latency"]["passed"]
    assert verdict([]).all_passed

"""Hypothesis properties of the calculator: bounded, monotone, ordered decisions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from confidence import (
    ConfidenceAggregator,
    ConfidenceCalculator,
    ConfidenceFactors,
    InterventionLevel,
    SearchStats,
    SourceAgreementCalculator,
    Thresholds,
)

calc = ConfidenceCalculator()
unit = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)
maybe_unit = st.none() | unit

stats_st = st.builds(
    SearchStats,
    count=st.integers(min_value=0, max_value=100),
    max_score=unit,
    mean_score=unit,
    spread=unit,
)

# The default configuration weighs answer_margin (0.4) and multiplies by every answer check.
checks_st = st.dictionaries(
    st.sampled_from(["polarity", "swapped_term", "extra"]), unit, max_size=3
)

factors_st = st.builds(
    ConfidenceFactors,
    is_search_step=st.booleans(),
    search=st.none() | stats_st,
    search_quality=maybe_unit,
    tool_success=unit,
    source_count=st.integers(min_value=0, max_value=20),
    source_agreement=maybe_unit,
    llm_self_eval=maybe_unit,
    query_coverage=maybe_unit,
    answer_margin=maybe_unit,
    answer_checks=checks_st,
)

LEVEL_ORDER = [
    InterventionLevel.ESCALATE,
    InterventionLevel.CONFIRM,
    InterventionLevel.NOTIFY,
    InterventionLevel.SILENT,
]


@settings(max_examples=400, deadline=None)
@given(factors_st)
def test_every_score_in_unit_interval(factors: ConfidenceFactors) -> None:
    s = calc.calculate(factors)
    assert 0.0 <= s.score <= 1.0
    assert all(0.0 <= v <= 1.0 for v in s.breakdown.values())
    assert all(v >= 0.0 for v in s.penalties.values())
    assert "tool_success" in s.breakdown
    if not factors.is_search_step:
        assert all(s.breakdown[f"check:{n}"] == v for n, v in factors.answer_checks.items())
        if factors.answer_margin is not None:
            assert s.breakdown["answer_margin"] == factors.answer_margin


@settings(max_examples=300, deadline=None)
@given(factors_st, unit, unit)
def test_raising_answer_margin_never_lowers_an_answer_step(
    factors: ConfidenceFactors, a: float, b: float
) -> None:
    lo, hi = sorted((a, b))
    f_lo = factors.model_copy(update={"is_search_step": False, "answer_margin": lo})
    f_hi = factors.model_copy(update={"is_search_step": False, "answer_margin": hi})
    assert calc.calculate(f_hi).score >= calc.calculate(f_lo).score - 1e-12


@settings(max_examples=300, deadline=None)
@given(factors_st, st.sampled_from(["polarity", "swapped_term"]), unit, unit)
def test_a_check_scales_an_answer_step_and_never_raises_it(
    factors: ConfidenceFactors, name: str, a: float, b: float
) -> None:
    answer = factors.model_copy(update={"is_search_step": False})
    lo, hi = sorted((a, b))
    passed = answer.model_copy(update={"answer_checks": {**answer.answer_checks, name: 1.0}})
    f_lo = answer.model_copy(update={"answer_checks": {**answer.answer_checks, name: lo}})
    f_hi = answer.model_copy(update={"answer_checks": {**answer.answer_checks, name: hi}})
    s_lo, s_hi, s_pass = (calc.calculate(f).score for f in (f_lo, f_hi, passed))
    assert s_lo <= s_hi + 1e-12 and s_hi <= s_pass + 1e-12
    if not calc.penalties(answer):  # no penalty: the check multiplies the score exactly
        assert s_lo == pytest.approx(s_pass * lo, abs=1e-9)


@settings(max_examples=200, deadline=None)
@given(factors_st)
def test_answer_checks_and_margin_do_not_touch_a_search_step(factors: ConfidenceFactors) -> None:
    search = factors.model_copy(update={"is_search_step": True})
    bare = search.model_copy(update={"answer_checks": {}, "answer_margin": None})
    assert calc.calculate(search) == calc.calculate(bare)


@settings(max_examples=300, deadline=None)
@given(factors_st, unit, unit)
def test_raising_explicit_search_quality_never_lowers_search_step(
    factors: ConfidenceFactors, a: float, b: float
) -> None:
    lo, hi = sorted((a, b))
    f_lo = factors.model_copy(update={"is_search_step": True, "search_quality": lo})
    f_hi = factors.model_copy(update={"is_search_step": True, "search_quality": hi})
    assert calc.calculate(f_hi).score >= calc.calculate(f_lo).score


@settings(max_examples=300, deadline=None)
@given(stats_st, unit, unit, unit)
def test_raising_hit_scores_never_lowers_search_step(
    stats: SearchStats, tool: float, d_max: float, d_mean: float
) -> None:
    better = stats.model_copy(
        update={
            "max_score": min(1.0, stats.max_score + d_max),
            "mean_score": min(1.0, stats.mean_score + d_mean),
        }
    )
    assert calc.search_quality(better) >= calc.search_quality(stats)
    lo = calc.calculate(ConfidenceFactors(is_search_step=True, search=stats, tool_success=tool))
    hi = calc.calculate(ConfidenceFactors(is_search_step=True, search=better, tool_success=tool))
    assert hi.score >= lo.score


@settings(max_examples=300, deadline=None)
@given(stats_st)
def test_search_quality_in_unit_interval(stats: SearchStats) -> None:
    assert 0.0 <= calc.search_quality(stats) <= 1.0


thresholds_st = st.lists(unit, min_size=3, max_size=3).map(
    lambda xs: Thresholds(silent=max(xs), notify=sorted(xs)[1], confirm=min(xs))
)


@settings(max_examples=400, deadline=None)
@given(unit, unit, st.none() | thresholds_st)
def test_decide_action_monotone(a: float, b: float, th: Thresholds | None) -> None:
    lo, hi = sorted((a, b))
    level_lo = calc.decide_action(lo, th).level
    level_hi = calc.decide_action(hi, th).level
    assert LEVEL_ORDER.index(level_hi) >= LEVEL_ORDER.index(level_lo)


@settings(max_examples=200, deadline=None)
@given(st.lists(unit, max_size=30), st.sampled_from(["mean", "min", "weighted"]))
def test_aggregate_bounded_by_min_and_max(scores: list[float], method: str) -> None:
    agg = ConfidenceAggregator().aggregate(scores, method)  # type: ignore[arg-type]
    if not scores:
        assert agg == 0.0
    else:
        assert min(scores) - 1e-9 <= agg <= max(scores) + 1e-9


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(max_size=40), max_size=6))
def test_agreement_in_unit_interval(texts: list[str]) -> None:
    assert 0.0 <= SourceAgreementCalculator().calculate(texts) <= 1.0

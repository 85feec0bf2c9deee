"""Pins every rule of the confidence calculator: the original design's weighted mean (the
``seed_config()`` preset) and the default built on answer evidence."""

from __future__ import annotations

import math

import pytest

from confidence import (
    ActionDecision,
    ConfidenceCalculator,
    ConfidenceConfig,
    ConfidenceFactors,
    ConfidenceScore,
    FactorWeights,
    InterventionLevel,
    Penalties,
    SearchQualityParams,
    SearchStats,
    Thresholds,
    inherit_search_quality,
    search_quality,
    seed_config,
)

SEED = seed_config()
calc = ConfidenceCalculator(SEED)


def seed_weights(**overrides: float) -> FactorWeights:
    return SEED.weights.model_copy(update=overrides)


def non_search(**kw: object) -> ConfidenceFactors:
    kw.setdefault("source_count", 1)  # avoid the no_sources penalty unless tested
    return ConfidenceFactors(is_search_step=False, **kw)


# --- defaults and types --------------------------------------------------------------


def test_seed_preset_is_the_seed_numbers() -> None:
    c = ConfidenceCalculator(seed_config()).config
    assert (c.weights.search_quality, c.weights.tool_success) == (0.6, 0.4)
    assert (c.weights.source_agreement, c.weights.llm_self_eval) == (0.2, 0.3)
    assert c.weights.query_coverage == 0.2
    assert c.weights.answer_margin == 0.0
    assert c.aggregation == "weighted" and c.answer_checks == []


def test_defaults_build_on_answer_evidence() -> None:
    c = ConfidenceCalculator().config
    # retrieval a minor term, tool success only a penalty, the reader's margin counted
    assert (c.weights.search_quality, c.weights.tool_success) == (0.1, 0.0)
    assert (c.weights.llm_self_eval, c.weights.query_coverage, c.weights.answer_margin) == (
        0.3,
        0.2,
        0.4,
    )
    assert c.aggregation == "final"
    assert c.answer_checks == ["polarity", "swapped_term"]


def test_answer_margin_and_checks_enter_the_default_score() -> None:
    s = ConfidenceCalculator().calculate(
        non_search(search_quality=0.8, llm_self_eval=0.9, query_coverage=1.0, answer_margin=0.5)
    )
    mean = (0.1 * 0.8 + 0.3 * 0.9 + 0.2 * 1.0 + 0.4 * 0.5) / 1.0
    assert s.score == pytest.approx(mean)
    assert s.breakdown["answer_margin"] == 0.5 and "tool_success" in s.breakdown
    failed = ConfidenceCalculator().calculate(
        non_search(
            search_quality=0.8,
            llm_self_eval=0.9,
            query_coverage=1.0,
            answer_margin=0.5,
            answer_checks={"polarity": 0.5, "swapped_term": 1.0},
        )
    )
    assert failed.score == pytest.approx(mean * 0.5)
    assert failed.breakdown["check:polarity"] == 0.5
    assert failed.breakdown["check:swapped_term"] == 1.0


def test_confidence_score_minimal_is_valid() -> None:
    s = ConfidenceScore(score=0.5)
    assert s.score == 0.5 and s.breakdown == {} and s.penalties == {}


# --- search quality --------------------------------------------------------------------


def test_search_quality_zero_without_hits() -> None:
    assert calc.search_quality(SearchStats(count=0, max_score=1, mean_score=1, spread=1)) == 0


def test_search_quality_formula() -> None:
    stats = SearchStats(count=3, max_score=0.8, mean_score=0.6, spread=0.4)
    expected = 0.5 * 0.8 + 0.25 * 0.6 + 0.15 * (3 / 5) + 0.1 * 0.4 * 0.8
    assert calc.search_quality(stats) == pytest.approx(expected)
    assert search_quality(stats) == pytest.approx(expected)


def test_search_quality_count_saturates() -> None:
    s5 = SearchStats(count=5, max_score=0.5, mean_score=0.5)
    s50 = SearchStats(count=50, max_score=0.5, mean_score=0.5)
    assert calc.search_quality(s5) == calc.search_quality(s50)


def test_search_quality_perfect_is_one() -> None:
    assert calc.search_quality(
        SearchStats(count=5, max_score=1, mean_score=1, spread=1)
    ) == pytest.approx(1.0)


def test_search_quality_weights_configurable() -> None:
    only_max = ConfidenceConfig(
        search_quality=SearchQualityParams(mean_weight=0, count_weight=0, spread_weight=0)
    )
    stats = SearchStats(count=1, max_score=0.37, mean_score=0.1)
    assert ConfidenceCalculator(only_max).search_quality(stats) == pytest.approx(0.37)
    with pytest.raises(ValueError):
        SearchQualityParams(max_weight=0, mean_weight=0, count_weight=0, spread_weight=0)


# --- search step -------------------------------------------------------------------------


def test_search_step_is_product() -> None:
    f = ConfidenceFactors(is_search_step=True, search_quality=0.8, tool_success=0.5)
    s = calc.calculate(f)
    assert s.score == pytest.approx(0.4)
    assert s.breakdown == {"search_quality": 0.8, "tool_success": 0.5}
    assert s.penalties == {}


def test_search_step_uses_stats() -> None:
    stats = SearchStats(count=4, max_score=0.9, mean_score=0.7, spread=0.3)
    s = calc.calculate(ConfidenceFactors(is_search_step=True, search=stats))
    assert s.score == pytest.approx(calc.search_quality(stats))


def test_explicit_search_quality_overrides_stats() -> None:
    stats = SearchStats(count=4, max_score=0.9, mean_score=0.7)
    s = calc.calculate(ConfidenceFactors(is_search_step=True, search=stats, search_quality=0.3))
    assert s.breakdown["search_quality"] == 0.3


def test_search_step_ignores_non_search_factors() -> None:
    f = ConfidenceFactors(
        is_search_step=True, search_quality=0.5, llm_self_eval=1.0, source_agreement=1.0
    )
    assert calc.calculate(f).score == pytest.approx(0.5)


# --- non-search weighted mean: each weight and condition ---------------------------------


def test_non_search_tool_success_only() -> None:
    s = calc.calculate(non_search(tool_success=0.7))
    assert s.score == pytest.approx(0.7)
    assert s.breakdown == {"tool_success": 0.7}


def test_search_quality_weight_06() -> None:
    s = calc.calculate(non_search(search_quality=0.5, tool_success=1.0))
    assert s.score == pytest.approx((0.6 * 0.5 + 0.4 * 1.0) / 1.0)
    assert s.breakdown == {"search_quality": 0.5, "tool_success": 1.0}


def test_search_quality_counted_only_when_positive() -> None:
    s = calc.calculate(non_search(search_quality=0.0, tool_success=0.9))
    assert "search_quality" not in s.breakdown
    assert s.score == pytest.approx(0.9)


def test_non_search_search_quality_from_stats() -> None:
    stats = SearchStats(count=2, max_score=0.6, mean_score=0.5, spread=0.2)
    sq = calc.search_quality(stats)
    s = calc.calculate(non_search(search=stats))
    assert s.breakdown["search_quality"] == pytest.approx(sq)


def test_source_agreement_weight_02_with_two_sources() -> None:
    s = calc.calculate(non_search(source_count=2, source_agreement=0.5, tool_success=1.0))
    assert s.score == pytest.approx((0.4 * 1.0 + 0.2 * 0.5) / 0.6)
    assert s.breakdown["source_agreement"] == 0.5


def test_source_agreement_ignored_with_one_source() -> None:
    s = calc.calculate(non_search(source_count=1, source_agreement=0.0, tool_success=1.0))
    assert "source_agreement" not in s.breakdown
    assert s.score == pytest.approx(1.0)


def test_source_agreement_ignored_when_not_measured() -> None:
    s = calc.calculate(non_search(source_count=3, tool_success=1.0))
    assert "source_agreement" not in s.breakdown


def test_llm_self_eval_weight_03_counted_even_when_low() -> None:
    # Deliberate change from the seed: a low (but measured) self-evaluation counts.
    s = calc.calculate(non_search(llm_self_eval=0.1, tool_success=1.0))
    assert s.score == pytest.approx((0.4 + 0.3 * 0.1) / 0.7)
    assert s.breakdown["llm_self_eval"] == 0.1


def test_llm_self_eval_not_measured_is_left_out() -> None:
    s = calc.calculate(non_search(llm_self_eval=None, tool_success=1.0))
    assert "llm_self_eval" not in s.breakdown
    assert s.score == pytest.approx(1.0)


def test_query_coverage_weight_02_and_configurable() -> None:
    s = calc.calculate(non_search(query_coverage=0.5, tool_success=1.0))
    assert s.score == pytest.approx((0.4 + 0.2 * 0.5) / 0.6)
    custom = ConfidenceCalculator(seed_config(weights=seed_weights(query_coverage=0.4)))
    s2 = custom.calculate(non_search(query_coverage=0.5, tool_success=1.0))
    assert s2.score == pytest.approx((0.4 + 0.4 * 0.5) / 0.8)


def test_all_factors_weighted_mean() -> None:
    f = non_search(
        search_quality=0.8,
        tool_success=1.0,
        source_count=3,
        source_agreement=0.6,
        llm_self_eval=0.9,
        query_coverage=0.7,
    )
    s = calc.calculate(f)
    num = 0.6 * 0.8 + 0.4 * 1.0 + 0.2 * 0.6 + 0.3 * 0.9 + 0.2 * 0.7
    assert s.score == pytest.approx(num / (0.6 + 0.4 + 0.2 + 0.3 + 0.2))
    assert set(s.breakdown) == {
        "search_quality",
        "tool_success",
        "source_agreement",
        "llm_self_eval",
        "query_coverage",
    }


def test_all_zero_weights_gives_zero_base() -> None:
    zero = seed_weights(
        search_quality=0, tool_success=0, source_agreement=0, llm_self_eval=0, query_coverage=0
    )
    s = ConfidenceCalculator(seed_config(weights=zero)).calculate(non_search())
    assert s.score == 0.0


# --- penalties ---------------------------------------------------------------------------


def test_penalty_no_results() -> None:
    f = ConfidenceFactors(is_search_step=True, search=SearchStats(count=0))
    s = calc.calculate(f)
    assert s.penalties == {"no_results": 0.3}
    assert s.score == 0.0


def test_no_results_when_search_step_measured_nothing() -> None:
    s = calc.calculate(ConfidenceFactors(is_search_step=True))
    assert "no_results" in s.penalties


def test_no_results_penalty_amount_is_subtracted() -> None:
    # explicit quality with a zero-hit search: the penalty still applies
    f = ConfidenceFactors(is_search_step=True, search=SearchStats(count=0), search_quality=0.8)
    s = calc.calculate(f)
    assert s.score == pytest.approx(0.8 - 0.3)


def test_penalty_no_sources() -> None:
    s = calc.calculate(non_search(source_count=0, tool_success=1.0))
    assert s.penalties == {"no_sources": 0.2}
    assert s.score == pytest.approx(0.8)


def test_no_sources_not_applied_to_search_step() -> None:
    f = ConfidenceFactors(is_search_step=True, search_quality=0.9, source_count=0)
    assert "no_sources" not in calc.calculate(f).penalties


def test_penalty_tool_failure() -> None:
    s = calc.calculate(non_search(search_quality=1.0, tool_success=0.0))
    assert s.penalties == {"tool_failure": 0.3}
    assert s.score == pytest.approx(0.6 - 0.3)


def test_tool_failure_on_search_step() -> None:
    f = ConfidenceFactors(is_search_step=True, search_quality=0.9, tool_success=0.0)
    s = calc.calculate(f)
    assert s.penalties == {"tool_failure": 0.3}
    assert s.score == 0.0


def test_partial_tool_success_is_not_failure() -> None:
    assert "tool_failure" not in calc.calculate(non_search(tool_success=0.01)).penalties


def test_penalty_low_coverage_boundary() -> None:
    low = calc.calculate(non_search(tool_success=1.0, query_coverage=0.29))
    at = calc.calculate(non_search(tool_success=1.0, query_coverage=0.3))
    assert low.penalties == {"low_coverage": 0.1}
    assert at.penalties == {}
    assert low.score == pytest.approx((0.4 + 0.2 * 0.29) / 0.6 - 0.1)


def test_low_coverage_not_applied_when_not_measured() -> None:
    assert "low_coverage" not in calc.calculate(non_search()).penalties


def test_penalties_configurable_and_stack() -> None:
    cfg = seed_config(
        penalties=Penalties(no_sources=0.05, tool_failure=0.1, low_coverage=0.02)
    )
    s = ConfidenceCalculator(cfg).calculate(
        ConfidenceFactors(source_count=0, tool_success=0.0, query_coverage=0.0, llm_self_eval=1)
    )
    assert s.penalties == {"no_sources": 0.05, "tool_failure": 0.1, "low_coverage": 0.02}
    base = (0.4 * 0 + 0.3 * 1 + 0.2 * 0) / 0.9
    assert s.score == pytest.approx(base - 0.17)


# --- clamp -------------------------------------------------------------------------------


def test_clamp_at_zero() -> None:
    s = calc.calculate(ConfidenceFactors(source_count=0, tool_success=0.0, query_coverage=0.0))
    assert s.score == 0.0
    assert sum(s.penalties.values()) > 0


def test_clamp_at_one_with_large_weights() -> None:
    s = calc.calculate(non_search(search_quality=1.0, tool_success=1.0, llm_self_eval=1.0))
    assert s.score == 1.0


# --- decide_action -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("score", "level"),
    [
        (1.0, InterventionLevel.SILENT),
        (0.9, InterventionLevel.SILENT),
        (0.8999999, InterventionLevel.NOTIFY),
        (0.7, InterventionLevel.NOTIFY),
        (0.6999999, InterventionLevel.CONFIRM),
        (0.4, InterventionLevel.CONFIRM),
        (0.3999999, InterventionLevel.ESCALATE),
        (0.0, InterventionLevel.ESCALATE),
    ],
)
def test_threshold_boundaries(score: float, level: InterventionLevel) -> None:
    d = calc.decide_action(score)
    assert isinstance(d, ActionDecision)
    assert d.level is level
    assert d.score == score
    assert calc.decide_action(ConfidenceScore(score=score)).level is level


def test_decision_reason_and_recommendation() -> None:
    d = calc.decide_action(0.75)
    assert "0.75" in d.reason and "0.7" in d.reason
    assert d.recommended_action
    e = calc.decide_action(0.2)
    assert "0.2" in e.reason and "0.4" in e.reason
    assert e.recommended_action != d.recommended_action


def test_decide_action_custom_thresholds() -> None:
    th = Thresholds(silent=0.95, notify=0.5, confirm=0.3)
    assert calc.decide_action(0.9, th).level is InterventionLevel.NOTIFY
    assert calc.decide_action(0.3, th).level is InterventionLevel.CONFIRM
    cfg_calc = ConfidenceCalculator(ConfidenceConfig(thresholds=th))
    assert cfg_calc.decide_action(0.9).level is InterventionLevel.NOTIFY


def test_decide_action_clamps_and_rejects_nan() -> None:
    assert calc.decide_action(1.5).level is InterventionLevel.SILENT
    assert calc.decide_action(-0.5).level is InterventionLevel.ESCALATE
    with pytest.raises(ValueError):
        calc.decide_action(math.nan)


def test_thresholds_must_be_ordered() -> None:
    with pytest.raises(ValueError):
        Thresholds(silent=0.5, notify=0.7, confirm=0.4)


# --- inheritance ------------------------------------------------------------------------


def test_inherit_is_max_of_dependencies() -> None:
    assert inherit_search_quality([0.2, 0.85, 0.5]) == 0.85
    assert inherit_search_quality(x for x in [0.3]) == 0.3


def test_inherit_empty_is_none() -> None:
    assert inherit_search_quality([]) is None


def test_inherited_quality_feeds_non_search_step() -> None:
    inherited = inherit_search_quality([0.5, 0.9])
    s = calc.calculate(non_search(search_quality=inherited, tool_success=1.0))
    assert s.breakdown["search_quality"] == 0.9
    assert s.score == pytest.approx(0.6 * 0.9 + 0.4)

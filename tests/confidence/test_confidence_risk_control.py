"""Risk-controlled threshold choice on synthetic scores with known error rates."""

from __future__ import annotations

import math

import numpy as np
import pytest

from confidence.risk_control import (
    binomial_cdf,
    choose_threshold,
    clopper_pearson_upper,
    fewest_runs,
)


def _draw(rng: np.random.Generator, n: int) -> tuple[list[float], list[bool]]:
    """Confidences uniform on [0, 1]; P(wrong | c) = 0.6 (1 − c): the true selective risk
    of {c ≥ λ} is 0.6 (1 − λ) / 2 = 0.3 (1 − λ)."""
    conf = rng.uniform(0.0, 1.0, n)
    wrong = rng.uniform(0.0, 1.0, n) < 0.6 * (1.0 - conf)
    return conf.tolist(), wrong.tolist()


def true_risk(threshold: float) -> float:
    return 0.3 * (1.0 - threshold)


def test_the_guarantee_holds_in_repeated_draws() -> None:
    rng = np.random.default_rng(7)
    alpha, delta, trials = 0.10, 0.10, 400
    violations = found = 0
    for _ in range(trials):
        conf, wrong = _draw(rng, 300)
        chosen = choose_threshold(conf, wrong, target_risk=alpha, delta=delta)
        if chosen.threshold is None:
            continue
        found += 1
        violations += true_risk(chosen.threshold) > alpha
    assert found >= trials / 2  # the target is reachable (λ ≥ 2/3 has risk ≤ 0.1)
    assert violations / trials <= delta  # P(risk > α) ≤ δ


def test_chosen_threshold_is_not_needlessly_high() -> None:
    rng = np.random.default_rng(1)
    conf, wrong = _draw(rng, 5000)
    chosen = choose_threshold(conf, wrong, target_risk=0.10, delta=0.10)
    assert chosen.threshold is not None
    # The oracle threshold is 2/3; with 5,000 runs LTT gets close to it.
    assert 2 / 3 <= chosen.threshold < 0.75
    assert chosen.error_upper is not None and chosen.error_upper <= 0.10 + 1e-9
    assert chosen.selected == sum(c >= chosen.threshold for c in conf)


@pytest.mark.parametrize("min_coverage", [0.1, 0.2])
def test_the_guarantee_holds_when_the_tests_start_lower(min_coverage: float) -> None:
    # Risk 0.1 is reached at coverage 1/3 here: a start nearer to it certifies less often.
    rng = np.random.default_rng(11)
    alpha, delta, trials = 0.10, 0.10, 400
    violations = found = 0
    for _ in range(trials):
        conf, wrong = _draw(rng, 300)
        chosen = choose_threshold(
            conf, wrong, target_risk=alpha, delta=delta, min_coverage=min_coverage
        )
        if chosen.threshold is None:
            continue
        found += 1
        assert chosen.selected >= min_coverage * 300
        violations += true_risk(chosen.threshold) > alpha
    assert found >= trials / 4
    assert violations / trials <= delta


def test_one_confident_mistake_ends_the_tests_from_the_top_but_not_from_a_least_coverage() -> None:
    # 120 runs: the third most confident answer is wrong, the next 40 right, the rest wrong.
    conf = [1.0 - i / 1000 for i in range(120)]
    wrong = [i == 2 or i >= 43 for i in range(120)]
    from_top = choose_threshold(conf, wrong, target_risk=0.10, delta=0.10)
    assert from_top.threshold is None  # 22 runs with 1 wrong: P(Bin(22, 0.1) <= 1) = 0.34
    # From a third (40 runs, 1 wrong: p = 0.08) the mistake is outweighed; 43 pass, 44 not.
    from_third = choose_threshold(conf, wrong, target_risk=0.10, delta=0.10, min_coverage=1 / 3)
    assert from_third.threshold == conf[42] and from_third.selected == 43
    assert from_third.errors == 1 and from_third.min_coverage == 1 / 3
    assert from_third.error_upper is not None and from_third.error_upper <= 0.10
    # A start below what the data can certify certifies nothing: the start is a floor.
    assert choose_threshold(
        conf, wrong, target_risk=0.10, delta=0.10, min_coverage=0.5
    ).threshold is None


def test_no_threshold_when_the_target_cannot_be_certified() -> None:
    conf = [0.9, 0.8, 0.7, 0.6]
    chosen = choose_threshold(conf, [False, True, False, True], target_risk=0.05, delta=0.1)
    assert chosen.threshold is None and chosen.selected == 0 and chosen.error_upper is None


def test_ties_enter_together() -> None:
    conf = [0.9] * 30 + [0.5] * 30
    wrong = [False] * 29 + [True] + [True] * 30
    chosen = choose_threshold(conf, wrong, target_risk=0.2, delta=0.1)
    assert chosen.threshold == 0.9 and chosen.selected == 30 and chosen.errors == 1


def test_input_validation() -> None:
    with pytest.raises(ValueError):
        choose_threshold([0.5], [True, False], target_risk=0.1)
    with pytest.raises(ValueError):
        choose_threshold([0.5], [True], target_risk=0.0)
    with pytest.raises(ValueError, match="min_coverage"):
        choose_threshold([0.5], [True], target_risk=0.1, min_coverage=1.0)


def test_clopper_pearson_upper_known_values() -> None:
    assert clopper_pearson_upper(0, 0) == 1.0
    assert clopper_pearson_upper(0, 22, 0.90) == pytest.approx(1 - 0.1 ** (1 / 22), abs=1e-9)
    assert clopper_pearson_upper(2, 10, 0.95) == pytest.approx(0.5069, abs=1e-3)


def test_binomial_cdf_edges_and_known_values() -> None:
    assert binomial_cdf(22, 22, 0.1) == 1.0 and binomial_cdf(30, 10, 0.5) == 1.0  # certain
    assert binomial_cdf(3, 10, 0.0) == 1.0  # no answer can be wrong
    assert binomial_cdf(3, 10, 1.0) == 0.0  # every answer is wrong
    assert binomial_cdf(0, 22, 0.1) == pytest.approx(0.9**22, rel=1e-12)
    assert binomial_cdf(1, 22, 0.1) == pytest.approx(0.9**22 + 22 * 0.1 * 0.9**21, rel=1e-12)
    assert binomial_cdf(2, 5, 0.3) == pytest.approx(0.83692, rel=1e-12)


def test_binomial_cdf_is_a_probability_where_rounding_would_pass_one() -> None:
    # The summed terms of P(Bin(10, 0.01) <= 9) come to 1 + 2e-16 before the cap.
    assert all(0.0 <= binomial_cdf(k, 10, 0.01) <= 1.0 for k in range(10))


def test_binomial_cdf_sums_terms_of_very_different_size() -> None:
    # The terms of P(Bin(3000, 0.5) <= 1200) span e^-2079 to e^-63: exact by integer sums.
    exact = sum(math.comb(3000, i) for i in range(1201)) / 2**3000
    assert binomial_cdf(1200, 3000, 0.5) == pytest.approx(exact, rel=1e-9, abs=0.0)


def test_clopper_pearson_upper_defaults_to_95_percent_and_is_one_when_all_are_wrong() -> None:
    assert clopper_pearson_upper(0, 10) == pytest.approx(1 - 0.05 ** (1 / 10), abs=1e-12)
    assert clopper_pearson_upper(0, 1) == pytest.approx(0.95, abs=1e-12)
    assert clopper_pearson_upper(10, 10) == 1.0


def test_the_first_test_is_of_exactly_the_fewest_runs_that_can_pass() -> None:
    # α = δ = 0.1: 22 runs (0.9^22 = 0.098 <= 0.1). The 22 most confident are right and the
    # rest wrong: only the first test passes, so exactly those 22 are certified.
    assert fewest_runs(0.1, 0.1) == 22
    conf = [1.0 - i / 100 for i in range(40)]
    wrong = [i >= 22 for i in range(40)]
    chosen = choose_threshold(conf, wrong, target_risk=0.1)
    assert chosen.threshold == conf[21] and chosen.selected == 22 and chosen.errors == 0
    assert chosen.n == 40 and chosen.coverage == pytest.approx(22 / 40)
    assert chosen.delta == 0.1 and chosen.min_coverage == 0.0  # the defaults
    # The bound of 0 wrong in 22 at 1 − δ = 0.9: 1 − 0.1^(1/22).
    assert chosen.error_upper == pytest.approx(1 - 0.1 ** (1 / 22), abs=1e-12)


def test_a_p_value_equal_to_delta_rejects() -> None:
    # α = 0.5, δ = 0.25: two right answers give P(Bin(2, 0.5) <= 0) = 0.25 = δ exactly.
    chosen = choose_threshold([0.8, 0.7], [False, False], target_risk=0.5, delta=0.25)
    assert chosen.threshold == 0.7 and chosen.selected == 2


def test_nothing_certified_reports_no_selection() -> None:
    empty = choose_threshold([], [], target_risk=0.1)
    assert empty.threshold is None and empty.n == 0 and empty.coverage == 0.0
    # Every run wrong: nothing is certified, and no error is counted as selected.
    wrong = choose_threshold([0.9] * 30, [True] * 30, target_risk=0.1)
    assert (wrong.threshold, wrong.selected, wrong.errors, wrong.coverage) == (None, 0, 0, 0.0)


@pytest.mark.parametrize(
    ("target_risk", "delta"), [(0.0, 0.1), (1.0, 0.1), (0.1, 0.0), (0.1, 1.0), (1.5, 0.1)]
)
def test_target_risk_and_delta_must_lie_strictly_inside_zero_one(
    target_risk: float, delta: float
) -> None:
    with pytest.raises(ValueError, match="strictly between"):
        choose_threshold([0.5], [False], target_risk=target_risk, delta=delta)


def test_one_mistake_needs_38_answers_at_alpha_and_delta_of_a_tenth() -> None:
    # P(Bin(37, 0.1) <= 1) = 0.104 fails, P(Bin(38, 0.1) <= 1) = 0.095 passes. The most
    # confident answer is wrong, the next 37 right, the rest wrong.
    conf = [1.0 - i / 1000 for i in range(100)]
    wrong = [i == 0 or i > 37 for i in range(100)]
    at_37 = choose_threshold(conf, wrong, target_risk=0.1, delta=0.1, min_coverage=0.37)
    assert at_37.threshold is None  # the first test, of 37, fails and ends the sequence
    at_38 = choose_threshold(conf, wrong, target_risk=0.1, delta=0.1, min_coverage=0.38)
    assert at_38.threshold == conf[37] and (at_38.selected, at_38.errors) == (38, 1)


def test_a_tie_at_the_bottom_is_not_split() -> None:
    # α = 0.5, δ = 0.25: the two runs at 0.5 enter together (3 runs, 1 wrong: p = 0.5), never
    # the right one alone (2 runs, 0 wrong: p = 0.25).
    chosen = choose_threshold(
        [0.9, 0.5, 0.5], [False, False, True], target_risk=0.5, delta=0.25
    )
    assert chosen.threshold is None

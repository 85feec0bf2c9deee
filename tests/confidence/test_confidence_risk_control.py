"""Risk-controlled threshold choice on synthetic scores with known error rates."""

from __future__ import annotations

import numpy as np
import pytest

from confidence.risk_control import choose_threshold, clopper_pearson_upper


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

"""Calibration of the overall confidence (confidence.calibration): monotone, bounded, fitted."""

from __future__ import annotations

import math

import numpy as np
import pytest
from pydantic import ValidationError

from confidence import (
    CalibrationParams,
    ConfidenceConfig,
    apply_calibration,
    default_calibration,
    fit_calibration_params,
)
from confidence.calibration import fit_isotonic, fit_platt
from graph.evaluation.metrics import ece

GRID = np.linspace(0.0, 1.0, 201).tolist()


def _synthetic(n: int, a: float, b: float, seed: int) -> tuple[list[float], list[bool]]:
    """Scores uniform on [0, 1], labels drawn with P(correct | s) = σ(a·s + b)."""
    rng = np.random.default_rng(seed)
    s = rng.uniform(0.0, 1.0, n)
    p = 1.0 / (1.0 + np.exp(-(a * s + b)))
    return s.tolist(), (rng.uniform(0.0, 1.0, n) < p).tolist()


PARAMS = [
    CalibrationParams(method="none"),
    CalibrationParams(method="platt", a=6.0, b=-4.0),
    CalibrationParams(method="platt", a=0.0, b=1.0),
    CalibrationParams(method="isotonic", x=[0.2, 0.5, 0.8], y=[0.1, 0.4, 0.95]),
    CalibrationParams(method="isotonic", x=[0.5], y=[0.3]),
]


@pytest.mark.parametrize("params", PARAMS, ids=lambda p: f"{p.method}-{p.a}-{len(p.x)}")
def test_monotone_and_bounded(params: CalibrationParams) -> None:
    values = [apply_calibration(s, params) for s in [-0.5, *GRID, 1.5]]
    assert all(0.0 <= v <= 1.0 for v in values)
    assert all(b >= a for a, b in zip(values, values[1:], strict=False))


def test_none_is_the_identity_and_nan_stays_nan() -> None:
    assert apply_calibration(0.37, CalibrationParams()) == 0.37
    assert apply_calibration(0.37, None) == 0.37
    assert math.isnan(apply_calibration(float("nan"), CalibrationParams(method="platt")))


def test_platt_formula_by_hand() -> None:
    p = CalibrationParams(method="platt", a=4.0, b=-2.0)
    assert apply_calibration(0.5, p) == pytest.approx(0.5)
    assert apply_calibration(1.0, p) == pytest.approx(1 / (1 + math.exp(-2.0)))
    assert apply_calibration(0.0, p) == pytest.approx(1 / (1 + math.exp(2.0)))


def test_isotonic_interpolates_between_knots_and_is_flat_outside() -> None:
    p = CalibrationParams(method="isotonic", x=[0.2, 0.6], y=[0.1, 0.5])
    assert apply_calibration(0.4, p) == pytest.approx(0.3)
    assert apply_calibration(0.0, p) == pytest.approx(0.1)
    assert apply_calibration(1.0, p) == pytest.approx(0.5)


@pytest.mark.parametrize(
    "bad",
    [
        {"method": "platt", "a": -1.0},
        {"method": "isotonic", "x": [], "y": []},
        {"method": "isotonic", "x": [0.5, 0.4], "y": [0.1, 0.2]},
        {"method": "isotonic", "x": [0.4, 0.5], "y": [0.3, 0.2]},
        {"method": "isotonic", "x": [0.4], "y": [1.2]},
        {"method": "sigmoid"},
    ],
)
def test_invalid_parameters_are_rejected(bad: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        CalibrationParams.model_validate(bad)


def test_platt_fit_recovers_the_generating_parameters() -> None:
    scores, labels = _synthetic(20_000, a=6.0, b=-3.0, seed=1)
    a, b = fit_platt(scores, labels)
    assert a == pytest.approx(6.0, abs=0.3)
    assert b == pytest.approx(-3.0, abs=0.2)


def test_platt_slope_is_never_negative_and_one_class_gives_the_base_rate() -> None:
    scores, labels = _synthetic(2_000, a=-5.0, b=2.0, seed=2)  # anti-correlated scores
    a, _ = fit_platt(scores, labels)
    assert a == 0.0
    a, b = fit_platt([0.1, 0.5, 0.9], [True, True, True])
    assert a == 0.0 and 1 / (1 + math.exp(-b)) == pytest.approx(4 / 5)


def test_isotonic_fit_respects_the_minimum_bin_size_and_is_monotone() -> None:
    scores, labels = _synthetic(1_000, a=5.0, b=-2.5, seed=3)
    x, y = fit_isotonic(scores, labels, min_bin_size=50)
    assert len(x) <= 1_000 // 50
    assert all(b > a for a, b in zip(x, x[1:], strict=False))
    assert all(b >= a for a, b in zip(y, y[1:], strict=False))
    assert all(0.0 < v < 1.0 for v in y)
    params = fit_calibration_params(scores, labels, method="isotonic", min_bin_size=50)
    assert params.min_bin_size == 50 and len(params.x) == len(x)


def test_isotonic_by_hand() -> None:
    # Sorted: 0.1 F, 0.2 T, 0.3 F, 0.4 T. PAV with bins of ≥ 2: {0.1, 0.2} 1/2, {0.3, 0.4} 1/2
    # → equal means pool into one block: (2 + 1) / (4 + 2) = 0.5 at mean score 0.25.
    x, y = fit_isotonic([0.3, 0.1, 0.4, 0.2], [False, False, True, True], min_bin_size=2)
    assert x == pytest.approx([0.25]) and y == pytest.approx([0.5])
    # Bins of 1: blocks 0.1 F | 0.2 T, 0.3 F pooled (1/2) | 0.4 T.
    x, y = fit_isotonic([0.3, 0.1, 0.4, 0.2], [False, False, True, True], min_bin_size=1)
    assert x == pytest.approx([0.1, 0.25, 0.4])
    assert y == pytest.approx([1 / 3, 2 / 4, 2 / 3])


@pytest.mark.parametrize("method", ["platt", "isotonic"])
def test_fitted_calibration_lowers_ece_on_held_out_data(method: str) -> None:
    # Over-confident raw scores: P(correct | s) = σ(4·s − 3) is far below s.
    train = _synthetic(3_000, a=4.0, b=-3.0, seed=4)
    test_scores, test_labels = _synthetic(3_000, a=4.0, b=-3.0, seed=5)
    params = fit_calibration_params(*train, method=method, min_bin_size=100)
    calibrated = [apply_calibration(s, params) for s in test_scores]
    before = ece(test_scores, test_labels)
    after = ece(calibrated, test_labels)
    assert before is not None and after is not None
    assert before > 0.15
    assert after < 0.05 < before


def test_fit_needs_data() -> None:
    with pytest.raises(ValueError, match="no labelled scores"):
        fit_calibration_params([], [], method="platt")
    with pytest.raises(ValueError, match="equal length"):
        fit_platt([0.1, 0.2], [True])


def test_settings_carry_the_calibration() -> None:
    config = ConfidenceConfig()
    assert config.calibration == default_calibration()
    custom = ConfidenceConfig.model_validate({"calibration": {"method": "platt", "a": 3, "b": -1}})
    assert apply_calibration(1 / 3, custom.calibration) == pytest.approx(0.5)


def test_a_map_applies_only_to_the_provider_it_was_fitted_on() -> None:
    from confidence.calibration import CalibrationParams, default_calibration

    shipped = default_calibration()
    assert shipped.provider == "offline"
    assert shipped.applies_to("offline") and not shipped.applies_to("gemini")
    assert CalibrationParams(method="platt", a=2.0, b=-1.0).applies_to("gemini")
    assert not CalibrationParams().applies_to("offline")  # method none


def test_platt_defaults_are_the_plain_sigmoid_and_unknown_keys_are_refused() -> None:
    assert apply_calibration(0.5, CalibrationParams(method="platt")) == pytest.approx(
        1 / (1 + math.exp(-0.5))
    )
    p = CalibrationParams(method="platt", a=4.0)  # intercept 0
    assert apply_calibration(0.5, p) == pytest.approx(1 / (1 + math.exp(-2.0)))
    with pytest.raises(ValidationError):
        CalibrationParams.model_validate({"method": "platt", "a": 4.0, "slope": 1.0})


def test_isotonic_values_may_be_flat_and_reach_zero_and_one() -> None:
    flat = CalibrationParams(method="isotonic", x=[0.2, 0.6], y=[0.3, 0.3])
    assert apply_calibration(0.9, flat) == apply_calibration(0.1, flat) == 0.3
    ends = CalibrationParams(method="isotonic", x=[0.2, 0.6], y=[0.0, 1.0])
    assert apply_calibration(0.1, ends) == 0.0 and apply_calibration(0.9, ends) == 1.0
    for bad in ({"x": [0.4, 0.4], "y": [0.2, 0.3]}, {"x": [0.4], "y": [1.01]}):
        with pytest.raises(ValidationError):
            CalibrationParams.model_validate({"method": "isotonic", **bad})


def test_fitting_clips_scores_into_zero_one_and_allows_bins_of_one() -> None:
    x, y = fit_isotonic([0.2, 1.5], [False, True], min_bin_size=1)
    assert x == pytest.approx([0.2, 1.0]) and y == pytest.approx([1 / 3, 2 / 3])
    params = fit_calibration_params([0.2, 1.5], [False, True], method="isotonic", min_bin_size=1)
    assert params.min_bin_size == 1 and params.x == pytest.approx([0.2, 1.0])


def test_fitting_none_gives_the_identity() -> None:
    params = fit_calibration_params([0.2, 0.8], [False, True], method="none", fitted_on="d")
    assert params.method == "none" and params.fitted_on == "d"
    assert apply_calibration(0.37, params) == 0.37


def test_knots_that_rounding_would_merge_are_kept_exact() -> None:
    params = fit_calibration_params(
        [0.1, 0.1000001], [False, True], method="isotonic", min_bin_size=1
    )
    assert params.x == [0.1, 0.1000001] and params.y == pytest.approx([1 / 3, 2 / 3], abs=1e-6)


def test_the_shipped_map_reads_as_its_documentation_says() -> None:
    shipped = default_calibration()
    for raw, reads in ((0.9, 0.99), (0.7, 0.95), (0.5, 0.79), (0.34, 0.50)):
        assert apply_calibration(raw, shipped) == pytest.approx(reads, abs=0.01)


def _platt_gradient(scores: list[float], labels: list[bool], a: float, b: float) -> list[float]:
    """Log-loss gradient in (a, b) against Platt's targets (n₊ + 1)/(n₊ + 2) and 1/(n₋ + 2)."""
    s, y = np.asarray(scores), np.asarray(labels)
    n_pos, n_neg = int(y.sum()), int((~y).sum())
    t = np.where(y, (n_pos + 1) / (n_pos + 2), 1 / (n_neg + 2))
    residual = 1 / (1 + np.exp(-(a * s + b))) - t
    return [float(np.sum(residual * s)), float(np.sum(residual))]


@pytest.mark.parametrize(
    ("scores", "labels"),
    [
        (
            [0.05, 0.1, 0.2, 0.3, 0.35, 0.4, 0.5, 0.6, 0.65, 0.7, 0.8, 0.9],
            [False, False, True, False, False, True, False, True, True, False, True, True],
        ),
        ([0.0, 0.0, 0.0, 1e-9, 0.5, 1e-9, 1.0, 1e-9], [False] * 6 + [True, False]),
        (
            [0.96, 0.37, 0.55, 0.59, 0.85, 0.15, 0.41],
            [True, True, False, True, True, True, True],
        ),
        _synthetic(300, a=3.0, b=1.5, seed=6),
    ],
    ids=["hand", "one-positive", "weak-slope", "synthetic"],
)
def test_platt_fit_is_the_stationary_point_on_platts_targets(
    scores: list[float], labels: list[bool]
) -> None:
    a, b = fit_platt(scores, labels)
    assert a > 0.0
    assert _platt_gradient(scores, labels, a, b) == pytest.approx([0.0, 0.0], abs=1e-8)


def test_platt_flat_or_nearly_flat_scores_give_the_smoothed_base_rate() -> None:
    a, b = fit_platt([0.4] * 5, [True, False, True, True, False])
    assert a == 0.0 and b == pytest.approx(math.log(4 / 3))  # σ(b) = (3 + 1) / (5 + 2)
    a, b = fit_platt([0.1, 0.5, 0.9], [False, False, False])
    assert a == 0.0 and b == pytest.approx(math.log(1 / 4))  # σ(b) = 1 / (3 + 2)
    # Scores a hair apart: the fit must not break on a singular Hessian.
    scores = [1.0, 1.0 - 1e-9, 1.0 - 1e-9]
    a, b = fit_platt(scores, [True, False, True])
    mean_target = (3 / 4 + 1 / 3 + 3 / 4) / 3
    for s in scores:
        assert 1 / (1 + math.exp(-(a * s + b))) == pytest.approx(mean_target, abs=1e-6)


def test_platt_anti_correlated_small_sample_gives_a_flat_map() -> None:
    scores = [0.5, 0.3, 0.5, 0.9, 0.9, 0.4, 0.6]
    labels = [True, False, True, True, False, True, False]
    a, b = fit_platt(scores, labels)
    assert a == 0.0
    # With the slope held at 0, the best intercept: σ(b) is the mean smoothed target, exactly
    # (the joint Newton step alone stopped at σ(b) 5e-4 away from it).
    assert 1 / (1 + math.exp(-b)) == pytest.approx((4 * 5 / 6 + 3 * 1 / 5) / 7, abs=1e-12)
    assert _platt_gradient(scores, labels, a, b)[1] == pytest.approx(0.0, abs=1e-12)


def test_platt_scores_against_the_labels_keep_the_intercepts_optimum() -> None:
    rng = np.random.default_rng(11)
    for _ in range(200):
        scores = rng.random(9).tolist()
        labels = [s < 0.5 for s in scores]  # higher scores, fewer right answers
        a, b = fit_platt(scores, labels)
        assert a == 0.0
        assert _platt_gradient(scores, labels, a, b)[1] == pytest.approx(0.0, abs=1e-9)


def test_isotonic_default_bins_hold_ten_runs() -> None:
    scores = [(i + 0.5) / 20 for i in range(20)]
    x, y = fit_isotonic(scores, [False] * 10 + [True] * 10)
    assert x == pytest.approx([0.25, 0.75]) and y == pytest.approx([1 / 12, 11 / 12])
    x, y = fit_isotonic([0.2, 0.4, 0.6], [False, True, True])  # fewer runs than one bin
    assert x == pytest.approx([0.4]) and y == pytest.approx([3 / 5])


def test_isotonic_equal_scores_share_one_block() -> None:
    x, y = fit_isotonic([0.5, 0.5, 0.5], [False, True, True], min_bin_size=1)
    assert x == pytest.approx([0.5]) and y == pytest.approx([3 / 5])


def test_isotonic_pools_equal_and_decreasing_means() -> None:
    # Two ties of mean 1/2 each pool into one knot.
    x, y = fit_isotonic([0.2, 0.2, 0.4, 0.4], [False, True, False, True], min_bin_size=1)
    assert x == pytest.approx([0.3]) and y == pytest.approx([3 / 6])
    # A decreasing pair pools.
    x, y = fit_isotonic([0.1, 0.2], [True, False], min_bin_size=1)
    assert x == pytest.approx([0.15]) and y == pytest.approx([2 / 4])
    # 0.1 (F, T) | 0.2 T | 0.3 F | 0.4 F: pooling 0.2–0.4 drops below 1/2, so it pools again.
    x, y = fit_isotonic(
        [0.1, 0.1, 0.2, 0.3, 0.4], [False, True, True, False, False], min_bin_size=1
    )
    assert x == pytest.approx([0.22]) and y == pytest.approx([3 / 7])


def test_isotonic_a_short_last_block_joins_its_neighbour() -> None:
    # 0.1–0.3 F pool (3 runs); 0.4 T alone is shorter than 2, so it joins them.
    x, y = fit_isotonic([0.1, 0.2, 0.3, 0.4], [False, False, False, True], min_bin_size=2)
    assert x == pytest.approx([0.25]) and y == pytest.approx([2 / 6])
    # 0.1–0.3 F pool; the tie at 0.4 (F, T) is a 2-run block, shorter than 3: one knot.
    x, y = fit_isotonic([0.1, 0.2, 0.3, 0.4, 0.4], [False] * 4 + [True], min_bin_size=3)
    assert x == pytest.approx([0.28]) and y == pytest.approx([2 / 7])


def test_isotonic_smoothed_values_never_decrease() -> None:
    # Means 0 < 1/10, but smoothed 1/3 > 2/12: the running maximum keeps 1/3.
    x, y = fit_isotonic([0.1] + [0.5] * 10, [False, True] + [False] * 9, min_bin_size=1)
    assert x == pytest.approx([0.1, 0.5]) and y == pytest.approx([1 / 3, 1 / 3])

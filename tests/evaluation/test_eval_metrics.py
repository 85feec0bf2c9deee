"""Metrics against hand-computed values."""

from __future__ import annotations

import pytest

from graph.evaluation.metrics import (
    aurc,
    auroc,
    bootstrap_ci,
    ece,
    reliability_bins,
    risk_coverage,
)


def test_auroc_hand_computed() -> None:
    # positives 0.9, 0.4; negatives 0.6, 0.1 → pairs won: (0.9>0.6, 0.9>0.1, 0.4>0.1) = 3 of 4
    assert auroc([True, False, True, False], [0.9, 0.6, 0.4, 0.1]) == pytest.approx(0.75)


def test_auroc_ties_count_half_and_single_class_is_none() -> None:
    assert auroc([True, False], [0.5, 0.5]) == pytest.approx(0.5)
    assert auroc([True, True], [0.1, 0.9]) is None
    assert auroc([], []) is None


def test_ece_hand_computed() -> None:
    # bin [0.9,1.0]: conf 0.95, 0.95 acc 0.5 → gap 0.45, weight 2/4
    # bin [0.2,0.3): conf 0.25, 0.25 acc 0.0 → gap 0.25, weight 2/4
    value = ece([0.95, 0.95, 0.25, 0.25], [True, False, False, False])
    assert value == pytest.approx(0.5 * 0.45 + 0.5 * 0.25)


def test_ece_perfect_and_edge_bins() -> None:
    assert ece([1.0, 0.0], [True, False]) == pytest.approx(0.0)
    bins = reliability_bins([1.0, 0.0, 0.1], [True, False, False])
    assert bins[9].count == 1 and bins[0].count == 1 and bins[1].count == 1
    assert ece([], []) is None


def test_risk_coverage_and_aurc_hand_computed() -> None:
    # sorted by confidence: 0.9 ok, 0.8 wrong, 0.3 ok → risks 0, 1/2, 1/3
    coverage, risk = risk_coverage([0.3, 0.9, 0.8], [True, True, False])
    assert coverage == pytest.approx([1 / 3, 2 / 3, 1.0])
    assert risk == pytest.approx([0.0, 0.5, 1 / 3])
    assert aurc([0.3, 0.9, 0.8], [True, True, False]) == pytest.approx((0 + 0.5 + 1 / 3) / 3)


def test_bootstrap_ci_brackets_point_estimate() -> None:
    labels = [True, False] * 20
    scores = [0.8 if y else 0.3 for y in labels]
    scores[0] = 0.2  # one mistake keeps AUROC below 1
    lo_hi = bootstrap_ci(auroc, labels, scores, n_boot=200)
    assert lo_hi is not None
    lo, hi = lo_hi
    point = auroc(labels, scores)
    assert point is not None and lo <= point <= hi <= 1.0
    assert bootstrap_ci(auroc, [], [], n_boot=10) is None

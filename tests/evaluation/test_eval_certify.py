"""The SILENT certificate over mixes of questions (graph.evaluation.certify), on synthetic runs."""

from __future__ import annotations

import numpy as np
import pytest

from confidence.risk_control import clopper_pearson_upper as exact_upper
from graph.evaluation.certify import (
    StratumCounts,
    certify_at_calibration_mix,
    certify_over_mixes,
    clopper_pearson_lower,
    clopper_pearson_upper,
    mix_bound,
    mix_risk,
    worst_mix_risk,
)


def test_the_two_clopper_pearson_upper_bounds_agree() -> None:
    for k, n, c in [(0, 10, 0.9), (3, 50, 0.95), (12, 300, 0.99)]:
        assert clopper_pearson_upper(k, n, c) == pytest.approx(exact_upper(k, n, c), abs=1e-9)


def test_clopper_pearson_lower_mirrors_the_upper_bound() -> None:
    assert clopper_pearson_lower(0, 10) == 0.0
    assert clopper_pearson_lower(3, 10, 0.9) == pytest.approx(1 - clopper_pearson_upper(7, 10, 0.9))
    assert clopper_pearson_lower(3, 10, 0.9) < 0.3 < clopper_pearson_upper(3, 10, 0.9)


def test_mix_risk_moves_with_the_unanswerable_share() -> None:
    # Answerable: 40 % SILENT, 5 % of them wrong; unanswerable: 2 % SILENT (all wrong).
    assert mix_risk(0.4, 0.05, 0.02, 0.0) == pytest.approx(0.05)
    at_half = (0.5 * 0.4 * 0.05 + 0.5 * 0.02) / (0.5 * 0.4 + 0.5 * 0.02)
    assert mix_risk(0.4, 0.05, 0.02, 0.5) == pytest.approx(at_half)
    assert worst_mix_risk(0.4, 0.05, 0.02, 0.5) == pytest.approx(at_half)
    # No unanswerable question answered SILENT: every mix has the answerable error.
    assert worst_mix_risk(0.4, 0.2, 0.0, 0.5) == pytest.approx(0.2)
    assert worst_mix_risk(0.4, 0.2, 0.01, 0.5) > 0.2
    assert mix_risk(0.0, 0.0, 0.0, 0.3) == 1.0


def _mixed(rng: np.random.Generator, n_ans: int, n_unans: int) -> dict[str, list]:
    """Answerable runs score ~U(0.3, 1), wrong with P 0.3 (1 − score); unanswerable ~U(0, 0.7)."""
    s_ans = rng.uniform(0.3, 1.0, n_ans)
    w_ans = rng.uniform(0, 1, n_ans) < 0.3 * (1 - s_ans)
    s_un = rng.uniform(0.0, 0.7, n_unans)
    return {
        "scores": [*s_ans.tolist(), *s_un.tolist()],
        "wrong": [*w_ans.tolist(), *([True] * n_unans)],
        "answerable": [True] * n_ans + [False] * n_unans,
    }


def test_certify_over_mixes_bounds_every_mix_it_claims() -> None:
    data = _mixed(np.random.default_rng(0), 1500, 1000)
    n = len(data["scores"])
    cert = certify_over_mixes(
        data["scores"], may_be_silent=[True] * n, wrong=data["wrong"],
        answerable=data["answerable"], strata=["en"] * n, target_risk=0.10,
        max_unanswerable_share=0.5,
    )
    assert cert.threshold is not None and cert.worst_case is not None
    assert cert.worst_case <= 0.10 and cert.strata == ("en",)
    assert "50% unanswerable" in cert.assumption
    # The true P(wrong | SILENT) at the threshold, for every share up to 0.5, is ≤ α:
    # answerable runs ≥ t are (1 − t) / 0.7 of them, wrong 0.15 (1 − t) of the time on
    # average; unanswerable ones ≥ t are (0.7 − t) / 0.7 of them.
    t = cert.threshold
    silent, wrong, unanswerable = (1 - t) / 0.7, 0.15 * (1 - t), max(0.0, 0.7 - t) / 0.7
    assert worst_mix_risk(silent, wrong, unanswerable, 0.5) <= 0.10


def test_certify_over_mixes_refuses_when_unanswerable_runs_score_high() -> None:
    rng = np.random.default_rng(1)
    data = _mixed(rng, 300, 300)
    scores = [s if a else s + 0.3 for s, a in zip(data["scores"], data["answerable"], strict=True)]
    n = len(scores)
    cert = certify_over_mixes(
        scores, may_be_silent=[True] * n, wrong=data["wrong"], answerable=data["answerable"],
        strata=["en"] * n, target_risk=0.10,
    )
    assert cert.threshold is None and cert.worst_case is None


def test_the_sentence_rule_takes_runs_out_of_silent() -> None:
    # The same runs, but the unanswerable ones that score high fail the rule: now certified.
    rng = np.random.default_rng(1)
    data = _mixed(rng, 1500, 1000)
    scores = [s if a else s + 0.3 for s, a in zip(data["scores"], data["answerable"], strict=True)]
    n = len(scores)
    rule = list(data["answerable"])
    cert = certify_over_mixes(
        scores, may_be_silent=rule, wrong=data["wrong"], answerable=data["answerable"],
        strata=["en"] * n, target_risk=0.10,
    )
    assert cert.threshold is not None
    assert all(c.unanswerable_silent == 0 for c in cert.counts)


def test_per_stratum_bounds_are_bonferroni_corrected() -> None:
    counts = [
        StratumCounts("en", answerable=500, silent=200, silent_wrong=5, unanswerable=400,
                      unanswerable_silent=0),
        StratumCounts("ja", answerable=500, silent=200, silent_wrong=5, unanswerable=400,
                      unanswerable_silent=0),
    ]
    one, _ = mix_bound(counts[:1], delta=0.1, max_share=0.5)
    two, bounds = mix_bound(counts, delta=0.1, max_share=0.5)
    assert two > one  # each bound at 1 - 0.1/6 instead of 1 - 0.1/3
    assert bounds[0]["wrong_upper"] == pytest.approx(clopper_pearson_upper(5, 200, 1 - 0.1 / 6))


def test_certify_over_mixes_checks_its_inputs() -> None:
    with pytest.raises(ValueError, match="align"):
        certify_over_mixes([0.5], may_be_silent=[], wrong=[False], answerable=[True],
                           strata=["en"], target_risk=0.1)
    with pytest.raises(ValueError, match="max_unanswerable_share"):
        certify_over_mixes([0.5], may_be_silent=[True], wrong=[False], answerable=[True],
                           strata=["en"], target_risk=0.1, max_unanswerable_share=1.0)


def test_mapie_certifies_the_calibration_mix() -> None:
    data = _mixed(np.random.default_rng(2), 1500, 300)
    n = len(data["scores"])
    threshold = certify_at_calibration_mix(
        data["scores"], may_be_silent=[True] * n, wrong=data["wrong"], target_risk=0.10
    )
    assert threshold is not None and 0.5 <= threshold < 1.0
    # Its true risk at the calibration mix: answerable runs above 0.7 only, wrong 0.3 (1 - s).
    above = [w for s, w in zip(data["scores"], data["wrong"], strict=True) if s >= threshold]
    assert sum(above) / len(above) <= 0.10
    assert certify_at_calibration_mix(
        [0.9, 0.8], may_be_silent=[False, False], wrong=[True, True], target_risk=0.1
    ) is None

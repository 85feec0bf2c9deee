"""The SILENT certificate over mixes of questions (graph.evaluation.certify), on synthetic runs."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from confidence.risk_control import clopper_pearson_lower
from graph.evaluation.certify import (
    DEFAULT_START,
    SILENT_RATE_SHARE,
    StratumCounts,
    certify_at_calibration_mix,
    certify_over_mixes,
    mix_bound,
    mix_pvalue,
    mix_risk,
    stratum_test,
    worst_mix_risk,
)


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


def test_the_certificate_holds_in_repeated_draws() -> None:
    # The true P(wrong | SILENT) at half unanswerable is known at every threshold (see above);
    # the chosen threshold's exceeds α in at most δ of the draws.
    rng = np.random.default_rng(3)
    alpha, delta, trials = 0.10, 0.10, 150
    found = violations = 0
    for _ in range(trials):
        data = _mixed(rng, 600, 400)
        n = len(data["scores"])
        cert = certify_over_mixes(
            data["scores"], may_be_silent=[True] * n, wrong=data["wrong"],
            answerable=data["answerable"], strata=["en"] * n, target_risk=alpha, delta=delta,
        )
        if cert.threshold is None:
            continue
        found += 1
        t = cert.threshold
        true = worst_mix_risk((1 - t) / 0.7, 0.15 * (1 - t), max(0.0, 0.7 - t) / 0.7, 0.5)
        violations += true > alpha
    assert found >= trials / 2
    assert violations / trials <= delta


def test_the_tests_start_where_the_default_share_is_silent() -> None:
    data = _mixed(np.random.default_rng(0), 1500, 1000)
    n = len(data["scores"])
    args = {
        "may_be_silent": [True] * n, "wrong": data["wrong"], "answerable": data["answerable"],
        "strata": ["en"] * n, "target_risk": 0.10,
    }
    cert = certify_over_mixes(data["scores"], **args)
    assert cert.min_coverage == DEFAULT_START and cert.selected >= DEFAULT_START * n
    # Started where 90 % of the runs are SILENT, nothing certifies: no set that large passes.
    assert cert.threshold is not None
    late = certify_over_mixes(data["scores"], **args, min_coverage=0.9)
    assert late.threshold is None and late.min_coverage == 0.9


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


def test_per_stratum_tests_are_bonferroni_corrected() -> None:
    counts = [
        StratumCounts("en", answerable=500, silent=200, silent_wrong=5, unanswerable=400,
                      unanswerable_silent=0),
        StratumCounts("ja", answerable=500, silent=200, silent_wrong=5, unanswerable=400,
                      unanswerable_silent=0),
    ]
    one, _ = mix_bound(counts[:1], delta=0.1, max_share=0.5)
    two, bounds = mix_bound(counts, delta=0.1, max_share=0.5)
    assert two > one  # each stratum at δ / 2
    assert bounds[0]["silent_lower"] == pytest.approx(
        clopper_pearson_lower(200, 500, 1 - SILENT_RATE_SHARE * 0.05)
    )


def test_without_unanswerable_share_the_test_is_the_exact_binomial_test() -> None:
    # ρ = 0: only e matters; the p-value is P(Bin(m, α) ≤ k), hand-computed.
    counts = StratumCounts("en", answerable=100, silent=22, silent_wrong=0, unanswerable=50,
                           unanswerable_silent=7)
    assert mix_pvalue(counts, weight=0.0, target_risk=0.1) == pytest.approx(0.9**22)
    one = replace(counts, silent_wrong=1)
    assert mix_pvalue(one, weight=0.0, target_risk=0.1) == pytest.approx(
        0.9**22 + 22 * 0.1 * 0.9**21
    )


def test_the_joint_p_value_on_a_hand_computed_case() -> None:
    # m = 10 answerable SILENT, none wrong; n_u = 1 unanswerable run, SILENT; w = 1, α = 0.5:
    # T = K / 10 + U, observed 1. The null line: e + 0.5 u = 0.5, u in [0, 1]. T ≤ 1 fails
    # only when U = 1 and K ≥ 1, so P(T ≤ 1) = 1 − u (1 − (1 − e)^10), largest at u = 0: 1.
    counts = StratumCounts("x", answerable=20, silent=10, silent_wrong=0, unanswerable=1,
                           unanswerable_silent=1)
    assert mix_pvalue(counts, weight=1.0, target_risk=0.5) == pytest.approx(1.0)
    # Observed U = 0, K = 0 (T = 0): P(K = 0, U = 0) = (1 − e)^10 (1 − u) = (0.5 (1 + u))^10
    # (1 − u) on the line, largest where 10 / (1 + u) = 1 / (1 − u), u = 9/11; the bound on
    # the grid is never below it and a little above.
    clean = replace(counts, unanswerable_silent=0)
    p = mix_pvalue(clean, weight=1.0, target_risk=0.5)
    exact = (0.5 * 20 / 11) ** 10 * (2 / 11)
    assert exact <= p <= exact * 1.05


def test_the_joint_test_rejects_a_false_null_at_most_delta_of_the_time() -> None:
    # At the boundary (P(wrong | SILENT) = α at half unanswerable), simulated calibration sets.
    rng = np.random.default_rng(5)
    n_a, n_u, alpha, delta = 576, 383, 0.10, 0.10
    for s, e in [(0.25, 0.02), (0.25, 0.06), (0.4, 0.09)]:
        u = (alpha - e) * s / (1 - alpha) * 1.0001
        assert mix_risk(s, e, u, 0.5) > alpha
        passed = 0
        for _ in range(400):
            m = int(rng.binomial(n_a, s))
            counts = StratumCounts("x", n_a, m, int(rng.binomial(m, e)), n_u,
                                   int(rng.binomial(n_u, u)))
            passed += stratum_test(counts, target_risk=alpha, delta=delta, max_share=0.5)[0]
        assert passed / 400 <= delta


def test_the_joint_test_is_tighter_than_three_separate_bounds() -> None:
    # 144 of 576 answerable SILENT, 4 wrong; 1 of 383 unanswerable SILENT.
    counts = StratumCounts("all", 576, 144, 4, 383, 1)
    assert stratum_test(counts, target_risk=0.10, delta=0.1, max_share=0.5)[0]
    # Three Clopper–Pearson bounds at δ / 3 each, every one at its worst: above 0.10.
    c = 1 - 0.1 / 3
    s_low = clopper_pearson_lower(144, 576, c)
    e_up, u_up = 1 - clopper_pearson_lower(140, 144, c), 1 - clopper_pearson_lower(382, 383, c)
    assert worst_mix_risk(s_low, e_up, u_up, 0.5) > 0.10


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


def test_without_unanswerable_runs_only_a_mix_without_them_is_certified() -> None:
    counts = StratumCounts("en", answerable=500, silent=200, silent_wrong=2, unanswerable=0,
                           unanswerable_silent=0)
    assert not stratum_test(counts, target_risk=0.10, delta=0.1, max_share=0.5)[0]
    assert stratum_test(counts, target_risk=0.10, delta=0.1, max_share=0.0)[0]

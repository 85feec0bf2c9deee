"""Risk-controlled thresholds: a silent threshold whose error is bounded with stated confidence.

Given labelled runs — a confidence and whether the answer given at that confidence was wrong
("answered a question the documents do not answer" counts as wrong) — choose the lowest
threshold λ such that, with probability at least 1 − δ over the draw of the calibration runs,

    P(answer wrong | confidence ≥ λ) ≤ α.

Method: Learn-then-Test with fixed-sequence testing (Angelopoulos, Bates, Candès, Jordan and
Lei, 2021). Candidate thresholds are the distinct observed confidences, tested from the
highest down. For each candidate the null hypothesis "the selective risk exceeds α" is
tested with the exact binomial p-value P(Bin(n, α) ≤ k), where n answers score at or above
the candidate and k of them are wrong. The sequence starts at the highest candidate that
selects at least :func:`fewest_runs` answers — a smaller set could not be certified even
without errors — and, when ``min_coverage`` is given, at least that share of all runs.
Testing stops at the first candidate whose null is not rejected at level δ; the last
rejected candidate is chosen.

Where the sequence starts depends only on the number of runs and on the settings, never on
which answers were wrong, so any start keeps the guarantee; it decides the power. Started at
the very top, one confident mistake among the first :func:`fewest_runs` answers ends the
test at once: with α = δ = 0.10 the first test is of 22 answers, and one wrong among them
fails it (P(Bin(22, 0.1) ≤ 1) = 0.34), although 35 answers with that one mistake would have
had p = 0.12 and 38 would pass. ``min_coverage`` — the smallest share of questions the user
would want answered silently at all — moves the start down to where such a mistake can be
outweighed; it cannot certify a smaller set than that share. Fixed-sequence testing needs no
multiplicity correction, so the family-wise error is at most δ. The reported bound is the
one-sided Clopper–Pearson upper limit at 1 − δ of the chosen set's error rate (≤ α by
construction).

The guarantee assumes the calibration runs and future questions are exchangeable (drawn from
the same distribution of questions over the same corpus); a new corpus or a new kind of
question needs its own calibration. It bounds the error rate of silent answers, not the
number of questions answered silently: that share (coverage) is what the bound costs.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

__all__ = [
    "RiskControlledThreshold",
    "binomial_cdf",
    "choose_threshold",
    "clopper_pearson_lower",
    "clopper_pearson_upper",
    "fewest_runs",
    "log_factorials",
]

METHOD = "Learn-then-Test, fixed-sequence binomial tests (exact), Clopper-Pearson bound"
"""The method's name as written into calibration files and reports."""


@dataclass(frozen=True)
class RiskControlledThreshold:
    """The outcome of :func:`choose_threshold`."""

    threshold: float | None
    """Lowest threshold whose selective risk is certified ≤ ``target_risk``; None = none is."""
    target_risk: float
    """α: the largest acceptable share of wrong answers at or above the threshold."""
    delta: float
    """δ: the probability that the guarantee fails (confidence level 1 − δ)."""
    n: int
    """Calibration runs used."""
    selected: int
    """Runs at or above the threshold (0 when no threshold is certified)."""
    errors: int
    """Wrong answers among them."""
    error_upper: float | None
    """Clopper–Pearson upper bound (level 1 − δ) of their error rate."""
    min_coverage: float = 0.0
    """The least share of the runs the first test selected (0: from the top)."""
    method: str = METHOD
    """How the threshold was chosen."""

    @property
    def coverage(self) -> float:
        """Share of calibration runs at or above the threshold."""
        return self.selected / self.n if self.n else 0.0


@lru_cache(maxsize=64)
def log_factorials(n: int) -> np.ndarray:
    """``log(i!)`` for i = 0 … n (read-only; cached per ``n``)."""
    table = np.concatenate(([0.0], np.cumsum(np.log(np.arange(1, n + 1, dtype=float)))))
    table.setflags(write=False)
    return table


def binomial_cdf(k: int, n: int, p: float) -> float:
    """P(Bin(n, p) ≤ k), summed in log space (exact for the sizes calibration uses)."""
    if k >= n or p <= 0.0:
        return 1.0
    if p >= 1.0 or k < 0:
        return 0.0
    lf = log_factorials(n)
    i = np.arange(k + 1)
    terms = lf[n] - lf[i] - lf[n - i] + i * math.log(p) + (n - i) * math.log1p(-p)
    top = float(terms.max())
    return min(1.0, math.exp(top) * float(np.exp(terms - top).sum()))


@lru_cache(maxsize=65536)
def clopper_pearson_upper(errors: int, n: int, confidence: float = 0.95) -> float:
    """One-sided exact upper bound of a binomial proportion (1.0 when ``n`` is 0).

    The p at which P(Bin(n, p) ≤ errors) = 1 − confidence, found by bisection (the
    ``confidence`` quantile of Beta(errors + 1, n − errors)). GRACE's one Clopper–Pearson:
    the certificate, ``grace eval``'s intervals and the threshold tests all use it.
    """
    if n == 0 or errors >= n:
        return 1.0
    low, high = errors / n, 1.0
    for _ in range(60):
        mid = (low + high) / 2
        if binomial_cdf(errors, n, mid) > 1.0 - confidence:
            low = mid
        else:
            high = mid
    return high


def clopper_pearson_lower(successes: int, n: int, confidence: float = 0.95) -> float:
    """One-sided exact lower bound of a binomial proportion (0.0 when ``n`` or ``successes`` is 0).

    The mirror of :func:`clopper_pearson_upper`: one minus the upper bound of the failures.
    """
    if n == 0 or successes <= 0:
        return 0.0
    return 1.0 - clopper_pearson_upper(n - successes, n, confidence)


def fewest_runs(target_risk: float, delta: float) -> int:
    """The fewest runs at which an error-free set can be certified: (1 − α)^n ≤ δ."""
    return math.ceil(math.log(delta) / math.log1p(-target_risk))


def choose_threshold(
    confidences: Sequence[float],
    wrong: Sequence[bool],
    *,
    target_risk: float,
    delta: float = 0.1,
    min_coverage: float = 0.0,
) -> RiskControlledThreshold:
    """The lowest threshold whose selective risk is certified ≤ ``target_risk`` (see module).

    Args:
        confidences: Each calibration run's confidence.
        wrong: Whether the answer of that run was wrong (an answer to an unanswerable
            question is wrong).
        target_risk: α in (0, 1).
        delta: δ in (0, 1).
        min_coverage: Start the tests at the threshold that selects at least this share of
            the runs, in [0, 1) (0: at the highest that could be certified).

    """
    if len(confidences) != len(wrong):
        raise ValueError("confidences and wrong must have the same length")
    if not 0.0 < target_risk < 1.0 or not 0.0 < delta < 1.0:
        raise ValueError("target_risk and delta must lie strictly between 0 and 1")
    if not 0.0 <= min_coverage < 1.0:
        raise ValueError("min_coverage must lie in [0, 1)")
    pairs = sorted(zip(confidences, wrong, strict=True), key=lambda p: -p[0])
    start = max(fewest_runs(target_risk, delta), math.ceil(min_coverage * len(pairs)))
    chosen: tuple[float, int, int] | None = None
    errors = 0
    for i, (conf, is_wrong) in enumerate(pairs):
        errors += bool(is_wrong)
        if i + 1 < len(pairs) and pairs[i + 1][0] == conf:
            continue  # a threshold selects every run with that confidence
        if i + 1 < start:
            continue  # too few runs to certify anything yet: not a test
        if binomial_cdf(errors, i + 1, target_risk) > delta:
            break
        chosen = (conf, i + 1, errors)
    n = len(pairs)
    if chosen is None:
        return RiskControlledThreshold(
            threshold=None, target_risk=target_risk, delta=delta, n=n, selected=0, errors=0,
            error_upper=None, min_coverage=min_coverage,
        )
    threshold, selected, k = chosen
    return RiskControlledThreshold(
        threshold=threshold,
        target_risk=target_risk,
        delta=delta,
        n=n,
        selected=selected,
        errors=k,
        error_upper=clopper_pearson_upper(k, selected, 1.0 - delta),
        min_coverage=min_coverage,
    )

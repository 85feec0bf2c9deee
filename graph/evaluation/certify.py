"""The SILENT certificate over mixes of questions, and MAPIE's for the calibration mix.

``grace calibrate`` certifies the learned model's SILENT threshold so that
P(wrong | SILENT) ≤ α holds, with probability ≥ 1 − δ, for **every** mix of questions whose
share of unanswerable ones is at most a stated maximum π (docs/confidence.md, "The
certificate"). A certificate for one mix does not carry over to another: P(wrong | SILENT)
moves with the share of unanswerable questions, since every SILENT answer to one is wrong.
With, per stratum (a language, or all runs),

- ``s`` = P(SILENT | answerable), ``e`` = P(wrong | SILENT, answerable),
- ``u`` = P(SILENT | unanswerable),

a share π of unanswerable questions gives
P(wrong | SILENT) = ((1 − π) s e + π u) / ((1 − π) s + π u) (:func:`mix_risk`), and
(rearranged) that is ≤ α exactly when

    e + (1 − α) · ρ · u / s ≤ α,     ρ = π / (1 − π).

The left side grows with ρ, so the largest share π is the worst and every smaller one
follows. The test (:func:`stratum_test`) takes two steps, neither with a bound per rate:

1. a Clopper–Pearson lower bound ``s_L`` on ``s`` from the answerable runs, at confidence
   1 − :data:`SILENT_RATE_SHARE` · δ (``s`` rests on a hundred or more SILENT runs, so its
   bound moves little with δ; ``e`` and ``u`` rest on a handful of counts). Where
   ``s ≥ s_L`` the condition follows from ``e + (1 − α) w u ≤ α`` with ``w = ρ / s_L``;
2. one exact test of that linear condition, conditional on the number ``m`` of answerable
   runs SILENT: wrong ones among them ``K ~ Bin(m, e)`` (the conditional error the brief
   asks for), unanswerable SILENT ``U ~ Bin(n_u, u)``, independent. Statistic
   ``T = K / m + w U / n_u``; p-value ``sup P(T ≤ t_obs)`` over the null
   ``e + (1 − α) w u ≥ α``, at level (1 − :data:`SILENT_RATE_SHARE`) · δ. ``P(T ≤ t)`` falls
   as ``e`` or ``u`` grows, so the supremum lies on the line ``e + (1 − α) w u = α``; it is
   bounded from above on each of :data:`GRID` pieces of the line by its value at the piece's
   smallest ``e`` and smallest ``u`` (:func:`mix_pvalue`), so the computed p-value is never
   below the true one.

The two steps fail together with probability ≤ δ (the first by its confidence, the second
given ``m``, whatever ``m`` is). A joint test spends δ once on the few wrong and
unanswerable SILENT runs together, where three separate bounds (each at its own worst)
spent it three times. Strata (languages) are tested at δ / strata each (Bonferroni).

Thresholds are tested by fixed sequence (:func:`certify_over_mixes`), from a start that
depends on how many runs a threshold selects, never on which are wrong, down to the first
failure: no correction over the thresholds.

What MAPIE (scikit-learn-contrib) has — Learn-then-Test risk control of a binary classifier's
precision, :class:`mapie.risk_control.BinaryClassificationController` — is used for the
certificate at the calibration runs' own mix (:func:`certify_at_calibration_mix`); what it
lacks, the bound over a range of mixes, is here. The exact binomial tools
(:func:`~confidence.risk_control.clopper_pearson_lower`, the log factorials) are
:mod:`confidence.risk_control`'s.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from confidence.risk_control import clopper_pearson_lower, log_factorials

__all__ = [
    "ARGUMENT",
    "DEFAULT_START",
    "GRID",
    "MIX_METHOD",
    "SILENT_RATE_SHARE",
    "MixCertificate",
    "StratumCounts",
    "certify_at_calibration_mix",
    "certify_over_mixes",
    "mix_bound",
    "mix_pvalue",
    "mix_risk",
    "stratum_test",
    "worst_mix_risk",
]

MIX_METHOD = (
    "per stratum: Clopper-Pearson lower bound on the SILENT rate of answerable questions, "
    "then one exact test of wrong-among-SILENT-answerable and SILENT-unanswerable together "
    "at the largest unanswerable share; Bonferroni over strata; fixed-sequence tests from the "
    "start down"
)
"""The over-mixes method's name as written into calibration files and reports."""

SILENT_RATE_SHARE = 0.2
"""Share of δ spent on the lower bound of P(SILENT | answerable); the rest goes to the joint
test of the wrong and the unanswerable SILENT runs (module docstring)."""
GRID = 200
"""Pieces of the null line on which :func:`mix_pvalue` bounds the p-value from above."""
ARGUMENT = (
    "With s = P(SILENT | answerable), e = P(wrong | SILENT, answerable), u = P(SILENT | "
    "unanswerable) and a share p of unanswerable questions, P(wrong | SILENT) <= target exactly "
    "when e + (1 - target) * (p / (1 - p)) * u / s <= target, which grows with p: the largest "
    "share is the worst. Per stratum, s >= s_L (Clopper-Pearson lower bound at confidence "
    f"1 - {SILENT_RATE_SHARE:g} delta); given the number of answerable runs SILENT, one exact "
    "test of the null e + (1 - target) * w * u >= target (w = p / (1 - p) / s_L) from the wrong "
    f"and the unanswerable SILENT counts rejects it at level {1 - SILENT_RATE_SHARE:g} delta. "
    "Fixed-sequence tests over thresholds; Bonferroni over strata. Valid when each kind's runs "
    "are independent draws, per stratum, like the future questions of that kind."
)
"""The certificate's argument in a few sentences, as written into the model file."""
DEFAULT_START = 0.15
"""Share of all runs SILENT at which the fixed sequence starts when no ``min_coverage`` is
given: GRACE's least useful SILENT share, the setting of the shipped model before the joint
test (``--min-coverage 0.15``). A smaller set is not certified."""


def mix_risk(silent: float, wrong: float, unanswerable_silent: float, share: float) -> float:
    """P(wrong | SILENT) when a share ``share`` of the questions is unanswerable.

    ``silent``: P(SILENT | answerable); ``wrong``: P(wrong | SILENT, answerable);
    ``unanswerable_silent``: P(SILENT | unanswerable) — every such answer is wrong.
    1.0 when nothing would be answered SILENT.
    """
    answered = (1.0 - share) * silent
    total = answered + share * unanswerable_silent
    return (answered * wrong + share * unanswerable_silent) / total if total > 0 else 1.0


def worst_mix_risk(
    silent: float, wrong: float, unanswerable_silent: float, max_share: float
) -> float:
    """The largest :func:`mix_risk` over shares in ``[0, max_share]``.

    ``mix_risk`` is a ratio of two linear functions of the share, so monotone in it: the
    largest value is at one end.
    """
    return max(
        mix_risk(silent, wrong, unanswerable_silent, 0.0),
        mix_risk(silent, wrong, unanswerable_silent, max_share),
    )


@dataclass(frozen=True)
class StratumCounts:
    """One stratum's (a language's, or all runs') counts at a threshold."""

    name: str
    answerable: int
    silent: int
    """Answerable runs SILENT."""
    silent_wrong: int
    """Of them, wrong."""
    unanswerable: int
    unanswerable_silent: int
    """Unanswerable runs SILENT (each one wrong)."""


def _pmf(ks: np.ndarray, n: int, ps: np.ndarray) -> np.ndarray:
    """Bin(n, p) probabilities of ``ks`` (columns) for each p of ``ps`` (rows)."""
    lf = log_factorials(n)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_p, log_q = np.log(ps)[:, None], np.log1p(-ps)[:, None]
        terms = (
            lf[n] - lf[ks] - lf[n - ks]
            + np.where(ks == 0, 0.0, ks * log_p)
            + np.where(ks == n, 0.0, (n - ks) * log_q)
        )
    return np.asarray(np.exp(terms))


def mix_pvalue(counts: StratumCounts, *, weight: float, target_risk: float) -> float:
    """p-value of "e + (1 − α) · weight · u ≥ α" from one stratum's counts (module docstring).

    ``e``: P(wrong | SILENT, answerable), from ``silent_wrong`` of ``silent``;
    ``u``: P(SILENT | unanswerable), from ``unanswerable_silent`` of ``unanswerable``;
    ``weight``: ρ / s_L. 1.0 when no answerable run is SILENT.
    """
    m, n_u = counts.silent, counts.unanswerable
    if m == 0:
        return 1.0
    observed = counts.silent_wrong / m + weight * counts.unanswerable_silent / max(n_u, 1)
    slope = (1.0 - target_risk) * weight
    top = 1.0 if slope <= target_risk else target_risk / slope
    us = np.linspace(0.0, top, GRID + 1)
    u_low = us[:-1]  # each piece's least u …
    e_low = np.clip(target_risk - slope * us[1:], 0.0, 1.0)  # … and least e
    ku = np.arange(n_u + 1)
    # Most wrong answers a run set with ku unanswerable SILENT may have and T ≤ observed
    # (the tolerance counts ties in: a larger p-value, never a smaller one).
    most = np.floor(m * (observed - weight * ku / max(n_u, 1)) + 1e-9).astype(int)
    keep = most >= 0
    ku, most = ku[keep], np.minimum(most[keep], m)
    cdf = np.cumsum(_pmf(np.arange(int(most.max()) + 1), m, e_low), axis=1)
    p = (_pmf(ku, n_u, u_low) * cdf[:, most]).sum(axis=1)
    return float(min(1.0, p.max()))


def stratum_test(
    counts: StratumCounts, *, target_risk: float, delta: float, max_share: float
) -> tuple[bool, float]:
    """Whether P(wrong | SILENT) ≤ α is shown for every mix up to ``max_share``, and s_L.

    With probability ≥ 1 − ``delta`` it is not shown when it is false (module docstring).
    """
    s_lower = clopper_pearson_lower(
        counts.silent, counts.answerable, 1.0 - SILENT_RATE_SHARE * delta
    )
    if s_lower <= 0.0:
        return False, s_lower
    weight = max_share / (1.0 - max_share) / s_lower
    p = mix_pvalue(counts, weight=weight, target_risk=target_risk)
    return p <= (1.0 - SILENT_RATE_SHARE) * delta, s_lower


def _passes(
    counts: Sequence[StratumCounts], *, target_risk: float, delta: float, max_share: float
) -> bool:
    """Every stratum's test passes, each at δ / strata (Bonferroni)."""
    share = delta / max(len(counts), 1)
    return all(
        stratum_test(c, target_risk=target_risk, delta=share, max_share=max_share)[0]
        for c in counts
    )


def mix_bound(
    counts: Sequence[StratumCounts], *, delta: float, max_share: float
) -> tuple[float, list[dict[str, float]]]:
    """The least target risk the test would show for these counts, over strata, and each one's.

    The test inverted: per stratum (at δ / strata), the smallest α it passes at, by bisection
    (its p-value falls as α grows: the null region shrinks) — an upper confidence bound of
    P(wrong | SILENT) for every mix up to ``max_share``; 1.0 where none passes. Each
    stratum's entry also has its ``silent_lower`` (s_L).
    """
    share = delta / max(len(counts), 1)
    out = []
    for c in counts:
        low, high = 0.0, 1.0
        for _ in range(30):
            mid = (low + high) / 2
            if stratum_test(c, target_risk=mid, delta=share, max_share=max_share)[0]:
                high = mid
            else:
                low = mid
        _, s_lower = stratum_test(c, target_risk=high, delta=share, max_share=max_share)
        out.append({"silent_lower": s_lower, "bound": high})
    return max((b["bound"] for b in out), default=1.0), out


@dataclass(frozen=True)
class MixCertificate:
    """The outcome of :func:`certify_over_mixes`."""

    threshold: float | None
    """Lowest threshold certified; None: none is."""
    target_risk: float
    delta: float
    max_unanswerable_share: float
    """The assumption: every mix with at most this share of unanswerable questions."""
    strata: tuple[str, ...]
    """What the bounds are taken per (languages, or ``all``)."""
    worst_case: float | None
    """The bound of P(wrong | SILENT) over the mixes and strata at the threshold
    (:func:`mix_bound`)."""
    counts: tuple[StratumCounts, ...] = ()
    """Each stratum's counts at the threshold."""
    bounds: tuple[dict[str, float], ...] = ()
    """Each stratum's bounds at the threshold (same order)."""
    selected: int = 0
    """Runs SILENT at the threshold."""
    n: int = 0
    min_coverage: float = DEFAULT_START
    """The share of runs SILENT where the tests started."""
    method: str = MIX_METHOD

    @property
    def assumption(self) -> str:
        """The assumption the bound holds under, in one sentence."""
        per = "each language" if self.strata != ("all",) else "the questions as a whole"
        return (
            f"answerable and unanswerable questions each like the calibration runs' (for {per}); "
            f"any mix with at most {self.max_unanswerable_share:.0%} unanswerable"
        )


def certify_over_mixes(
    scores: Sequence[float],
    *,
    may_be_silent: Sequence[bool],
    wrong: Sequence[bool],
    answerable: Sequence[bool],
    strata: Sequence[str],
    target_risk: float,
    delta: float = 0.1,
    max_unanswerable_share: float = 0.5,
    min_coverage: float | None = None,
) -> MixCertificate:
    """The lowest SILENT threshold whose P(wrong | SILENT) ≤ α for every mix of questions.

    A run is SILENT at threshold λ when its score is ≥ λ and ``may_be_silent`` (the
    sentence rule holds). Each candidate threshold (the scores of runs that may be SILENT)
    is tested (:func:`stratum_test` per stratum, Bonferroni over strata) from a start down
    until the first failure (fixed-sequence testing: no correction over thresholds). The
    start is the first threshold at which ``min_coverage`` of all runs (default
    :data:`DEFAULT_START`; 0: from the top) is SILENT and the test would pass had no run
    been wrong; both depend on how many runs a threshold selects, never on which are wrong.
    With probability ≥ 1 − δ the chosen threshold's P(wrong | SILENT) is ≤ α at every mix.
    """
    n = len(scores)
    start = DEFAULT_START if min_coverage is None else min_coverage
    if not (len(may_be_silent) == len(wrong) == len(answerable) == len(strata) == n):
        raise ValueError("scores, may_be_silent, wrong, answerable and strata must align")
    if not 0.0 < target_risk < 1.0 or not 0.0 < delta < 1.0:
        raise ValueError("target_risk and delta must lie strictly between 0 and 1")
    if not 0.0 <= max_unanswerable_share < 1.0 or not 0.0 <= start < 1.0:
        raise ValueError("max_unanswerable_share and min_coverage must lie in [0, 1)")
    base = MixCertificate(
        threshold=None, target_risk=target_risk, delta=delta,
        max_unanswerable_share=max_unanswerable_share, strata=tuple(sorted(set(strata))),
        worst_case=None, n=n, min_coverage=start,
    )
    return _sequence(_Table.of(scores, may_be_silent, wrong, answerable, strata), base)


@dataclass(frozen=True)
class _Table:
    """The runs as arrays, for counting at many thresholds."""

    scores: Any
    silent_ok: Any
    wrong: Any
    answerable: Any
    strata: Any
    names: tuple[str, ...]
    candidates: list[float]

    @classmethod
    def of(
        cls,
        scores: Sequence[float],
        may_be_silent: Sequence[bool],
        wrong: Sequence[bool],
        answerable: Sequence[bool],
        strata: Sequence[str],
    ) -> _Table:
        ok = np.asarray(may_be_silent, dtype=bool)
        s = np.asarray(scores, dtype=float)
        return cls(
            scores=s, silent_ok=ok, wrong=np.asarray(wrong, dtype=bool),
            answerable=np.asarray(answerable, dtype=bool), strata=np.asarray(strata),
            names=tuple(sorted(set(strata))),
            candidates=sorted({float(v) for v in s[ok]}, reverse=True),
        )

    def counts_at(self, threshold: float) -> list[StratumCounts]:
        """Each stratum's counts with SILENT = score ≥ ``threshold`` and the rule holding."""
        silent = self.silent_ok & (self.scores >= threshold)
        out = []
        for name in self.names:
            m = self.strata == name
            a, u = m & self.answerable, m & ~self.answerable
            out.append(
                StratumCounts(
                    name=str(name), answerable=int(a.sum()), silent=int((silent & a).sum()),
                    silent_wrong=int((silent & a & self.wrong).sum()),
                    unanswerable=int(u.sum()), unanswerable_silent=int((silent & u).sum()),
                )
            )
        return out


def _sequence(table: _Table, base: MixCertificate) -> MixCertificate:
    """The fixed sequence: from the start down to the first failure."""
    chosen = base
    test = {
        "target_risk": base.target_risk, "delta": base.delta,
        "max_share": base.max_unanswerable_share,
    }
    started = False
    for threshold in table.candidates:
        counts = table.counts_at(threshold)
        selected = sum(c.silent + c.unanswerable_silent for c in counts)
        if not started:
            started = selected >= math.ceil(base.min_coverage * base.n) and _passes(
                _error_free(counts), **test
            )
            if not started:
                continue  # not a test yet
        if not _passes(counts, **test):
            break
        chosen = replace(base, threshold=threshold, counts=tuple(counts), selected=selected)
    if chosen.threshold is None:
        return chosen
    worst, bounds = mix_bound(
        chosen.counts, delta=base.delta, max_share=base.max_unanswerable_share
    )
    return replace(chosen, worst_case=min(worst, base.target_risk), bounds=tuple(bounds))


def _error_free(counts: Sequence[StratumCounts]) -> list[StratumCounts]:
    """The same SILENT runs, all answerable and right (which depends on no run's label).

    Above the first threshold whose error-free counts pass, too few runs are SILENT for any
    outcome to pass.
    """
    return [
        replace(
            c, silent=min(c.answerable, c.silent + c.unanswerable_silent), silent_wrong=0,
            unanswerable_silent=0,
        )
        for c in counts
    ]

def certify_at_calibration_mix(
    scores: Sequence[float],
    *,
    may_be_silent: Sequence[bool],
    wrong: Sequence[bool],
    target_risk: float,
    delta: float = 0.1,
) -> float | None:
    """The SILENT threshold certified for the calibration runs' own mix, by MAPIE, or None.

    MAPIE's :class:`mapie.risk_control.BinaryClassificationController` (Learn-then-Test,
    Hoeffding–Bentkus p-values, Bonferroni–Holm over a 0.01 grid from 0.50 up to the top
    score) controls the precision
    P(right | SILENT) ≥ 1 − α, where SILENT is a score ≥ λ with the sentence rule holding.
    It assumes future questions are drawn like the calibration runs; what it lacks — a bound
    for another mix — is :func:`certify_over_mixes`.
    """
    import warnings

    from mapie.risk_control import BinaryClassificationController

    gated = np.where(np.asarray(may_be_silent, dtype=bool), np.asarray(scores, dtype=float), 0.0)
    right = (~np.asarray(wrong, dtype=bool)).astype(int)

    def predict(x: Any) -> Any:
        p = np.asarray(x, dtype=float)[:, 0]
        return np.stack([1.0 - p, p], axis=1)

    # A threshold no run reaches has no precision at all: the grid stops below the top score.
    grid = np.round(np.arange(0.50, 0.995, 0.01), 2)
    grid = grid[grid <= gated.max()] if gated.size else grid[:0]
    if grid.size == 0:
        return None
    controller = BinaryClassificationController(
        predict, "precision", 1.0 - target_risk, confidence_level=1.0 - delta,
        list_predict_params=grid,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "no parameter controls the risk": None says it
        controller.calibrate(gated[:, None], right)
    best = controller.best_predict_param
    return None if best is None else float(best)

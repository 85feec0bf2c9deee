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
from dataclasses import dataclass, replace
from typing import Any

__all__ = [
    "MixCertificate",
    "RiskControlledThreshold",
    "StratumCounts",
    "binomial_cdf",
    "certify_at_calibration_mix",
    "certify_over_mixes",
    "choose_threshold",
    "clopper_pearson_lower",
    "clopper_pearson_upper",
    "fewest_runs",
    "mix_bound",
    "mix_risk",
    "worst_mix_risk",
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


def binomial_cdf(k: int, n: int, p: float) -> float:
    """P(Bin(n, p) ≤ k), summed in log space (exact for the sizes calibration uses)."""
    if k >= n or p <= 0.0:
        return 1.0
    if p >= 1.0:
        return 0.0
    log_p, log_q = math.log(p), math.log1p(-p)
    terms = [
        math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * log_p
        + (n - i) * log_q
        for i in range(k + 1)
    ]
    top = max(terms)
    return min(1.0, math.exp(top) * sum(math.exp(t - top) for t in terms))


def clopper_pearson_upper(errors: int, n: int, confidence: float = 0.95) -> float:
    """One-sided exact upper bound of a binomial proportion (1.0 when ``n`` is 0).

    The p at which P(Bin(n, p) ≤ errors) = 1 − confidence: the ``confidence`` quantile of
    Beta(errors + 1, n − errors).
    """
    if n == 0 or errors >= n:
        return 1.0
    from scipy.stats import beta

    return float(beta.ppf(confidence, errors + 1, n - errors))


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


def clopper_pearson_lower(successes: int, n: int, confidence: float = 0.95) -> float:
    """One-sided exact lower bound of a binomial proportion (0.0 when ``n`` is 0)."""
    if n == 0 or successes <= 0:
        return 0.0
    return 1.0 - clopper_pearson_upper(n - successes, n, confidence)


MIX_METHOD = (
    "per-kind Clopper-Pearson bounds (answerable: SILENT rate, wrong rate among SILENT; "
    "unanswerable: SILENT rate), Bonferroni over the bounds, worst case over the mixes, "
    "fixed-sequence tests from the highest threshold down"
)
"""The over-mixes method's name as written into calibration files and reports."""


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

    def bounds(self, confidence: float) -> dict[str, float]:
        """The three one-sided bounds at ``confidence`` each (the least favourable side)."""
        return {
            "silent_lower": clopper_pearson_lower(self.silent, self.answerable, confidence),
            "wrong_upper": clopper_pearson_upper(self.silent_wrong, self.silent, confidence),
            "unanswerable_silent_upper": clopper_pearson_upper(
                self.unanswerable_silent, self.unanswerable, confidence
            ),
        }


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
    """The largest bound of P(wrong | SILENT) over the mixes and strata at the threshold."""
    counts: tuple[StratumCounts, ...] = ()
    """Each stratum's counts at the threshold."""
    bounds: tuple[dict[str, float], ...] = ()
    """Each stratum's bounds at the threshold (same order)."""
    selected: int = 0
    """Runs SILENT at the threshold."""
    n: int = 0
    method: str = MIX_METHOD

    @property
    def assumption(self) -> str:
        """The assumption the bound holds under, in one sentence."""
        per = "each language" if self.strata != ("all",) else "the questions as a whole"
        return (
            f"answerable and unanswerable questions each like the calibration runs' (for {per}); "
            f"any mix with at most {self.max_unanswerable_share:.0%} unanswerable"
        )


def mix_bound(
    counts: Sequence[StratumCounts], *, delta: float, max_share: float
) -> tuple[float, list[dict[str, float]]]:
    """The worst-case bound of P(wrong | SILENT) over mixes and strata, and each stratum's bounds.

    Three bounds per stratum, each at confidence ``1 − delta / (3 · strata)`` (Bonferroni):
    all hold together with probability ≥ 1 − ``delta``.
    """
    confidence = 1.0 - delta / (3 * max(len(counts), 1))
    bounds = [c.bounds(confidence) for c in counts]
    worst = max(
        worst_mix_risk(
            b["silent_lower"], b["wrong_upper"], b["unanswerable_silent_upper"], max_share
        )
        for b in bounds
    )
    return worst, bounds


STARTS: tuple[float, ...] = (0.10, 0.15, 0.20, 0.25, 0.30)
"""Shares of all runs SILENT at which :func:`certify_over_mixes` starts its test sequences
when no ``min_coverage`` is given (δ is split evenly among them)."""


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
    min_coverage: float = 0.0,
) -> MixCertificate:
    """The lowest SILENT threshold whose P(wrong | SILENT) ≤ α for every mix of questions.

    A run is SILENT at threshold λ when its score is ≥ λ and ``may_be_silent`` (the
    sentence rule holds). For each stratum (a language) three bounds are taken on the runs
    at λ — the SILENT rate of answerable runs (lower), the wrong rate among them (upper) and
    the SILENT rate of unanswerable runs (upper) — and the worst P(wrong | SILENT) over
    shares of unanswerable questions in ``[0, max_unanswerable_share]`` is bounded from them
    (:func:`mix_bound`). The candidate thresholds (the scores of runs that may be SILENT) are
    tested from a start down until the first failure (fixed-sequence testing). The starts are
    where a share of all runs is SILENT — ``min_coverage`` when given, else each of
    :data:`STARTS` with δ split among them (Bonferroni) — and never above the highest
    threshold whose runs, had none been wrong, would pass; both depend on how many runs a
    threshold selects, never on which are wrong. The lowest threshold any sequence reaches
    is chosen: with probability ≥ 1 − δ its bound holds.
    """
    n = len(scores)
    if not (len(may_be_silent) == len(wrong) == len(answerable) == len(strata) == n):
        raise ValueError("scores, may_be_silent, wrong, answerable and strata must align")
    if not 0.0 < target_risk < 1.0 or not 0.0 < delta < 1.0:
        raise ValueError("target_risk and delta must lie strictly between 0 and 1")
    if not 0.0 <= max_unanswerable_share < 1.0 or not 0.0 <= min_coverage < 1.0:
        raise ValueError("max_unanswerable_share and min_coverage must lie in [0, 1)")
    starts = (min_coverage,) if min_coverage > 0 else STARTS
    base = MixCertificate(
        threshold=None, target_risk=target_risk, delta=delta / len(starts),
        max_unanswerable_share=max_unanswerable_share, strata=tuple(sorted(set(strata))),
        worst_case=None, n=n,
    )
    table = _Table.of(scores, may_be_silent, wrong, answerable, strata)
    chosen = base
    for share in starts:
        found = _sequence(table, base, share)
        if found.threshold is not None and (
            chosen.threshold is None or found.threshold < chosen.threshold
        ):
            chosen = found
    return replace(chosen, delta=delta)


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
        import numpy as np

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


def _sequence(table: _Table, base: MixCertificate, share: float) -> MixCertificate:
    """One fixed sequence: from where ``share`` of the runs is SILENT, down to a failure."""
    chosen = base
    for threshold in table.candidates:
        counts = table.counts_at(threshold)
        selected = sum(c.silent + c.unanswerable_silent for c in counts)
        if selected < math.ceil(share * base.n) or not _could_pass(counts, base):
            continue  # not a test yet
        worst, bounds = mix_bound(counts, delta=base.delta, max_share=base.max_unanswerable_share)
        if worst > base.target_risk:
            break
        chosen = replace(
            base, threshold=threshold, worst_case=worst, counts=tuple(counts),
            bounds=tuple(bounds), selected=selected,
        )
    return chosen


def _could_pass(counts: Sequence[StratumCounts], base: MixCertificate) -> bool:
    """Whether these counts would pass with no error at all (which depends on no run's error).

    Above the first such threshold too few answerable runs are SILENT for any outcome to
    outweigh the bound on unanswerable ones.
    """
    clean = [
        replace(c, silent=c.silent + c.unanswerable_silent, silent_wrong=0, unanswerable_silent=0)
        for c in counts
    ]
    if any(c.silent == 0 for c in clean):
        return False
    worst, _ = mix_bound(clean, delta=base.delta, max_share=base.max_unanswerable_share)
    return worst <= base.target_risk


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

    import numpy as np
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

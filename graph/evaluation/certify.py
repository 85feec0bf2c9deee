"""The SILENT certificate over mixes of questions, and MAPIE's for the calibration mix.

``grace calibrate`` certifies the learned model's SILENT threshold so that
P(wrong | SILENT) ≤ α holds, with probability ≥ 1 − δ, for **every** mix of questions whose
share of unanswerable ones is at most a stated maximum (docs/confidence.md, "The
certificate"). A certificate for one mix does not carry over to another: P(wrong | SILENT)
moves with the share of unanswerable questions, since every SILENT answer to one is wrong.
With, per stratum (a language),

- ``s`` = P(SILENT | answerable), ``e`` = P(wrong | SILENT, answerable),
- ``u`` = P(SILENT | unanswerable),

a share π of unanswerable questions gives
P(wrong | SILENT) = ((1 − π) s e + π u) / ((1 − π) s + π u) (:func:`mix_risk`), which rises
with ``e`` and ``u`` and falls with ``s``; one-sided Clopper–Pearson bounds on the three
(lower for ``s``, upper for the others), Bonferroni-corrected over all bounds, bound it for
every π in [0, π_max] at once (it is monotone in π: the worst is at an end).

What MAPIE (scikit-learn-contrib) has — Learn-then-Test risk control of a binary classifier's
precision, :class:`mapie.risk_control.BinaryClassificationController` — is used for the
certificate at the calibration runs' own mix (:func:`certify_at_calibration_mix`); what it
lacks, the bound over a range of mixes, is here. The exact binomial Learn-then-Test of the
calibration map's thresholds stays in :mod:`confidence.risk_control`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

__all__ = [
    "MIX_METHOD",
    "STARTS",
    "MixCertificate",
    "StratumCounts",
    "certify_at_calibration_mix",
    "certify_over_mixes",
    "clopper_pearson_lower",
    "clopper_pearson_upper",
    "mix_bound",
    "mix_risk",
    "worst_mix_risk",
]


def clopper_pearson_upper(errors: int, n: int, confidence: float = 0.95) -> float:
    """One-sided exact upper bound of a binomial proportion (1.0 when ``n`` is 0).

    The ``confidence`` quantile of Beta(errors + 1, n − errors) (scipy), the same bound as
    :func:`confidence.risk_control.clopper_pearson_upper` without its bisection: the
    certificate evaluates thousands.
    """
    if n == 0 or errors >= n:
        return 1.0
    from scipy.stats import beta

    return float(beta.ppf(confidence, errors + 1, n - errors))


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

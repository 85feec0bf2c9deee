"""Confidence metrics: AUROC (scikit-learn), ECE, risk–coverage / AURC and bootstrap CIs.

- :func:`auroc` — ``sklearn.metrics.roc_auc_score``; ``None`` when only one class occurs.
- :func:`ece` — expected calibration error with ``bins`` equal-width bins on [0, 1]
  (bin ``i`` holds ``i/b ≤ c < (i+1)/b``, the last one includes 1):
  ``Σ_bins (n_bin / n) · |mean(correct) − mean(confidence)|``.
- :func:`risk_coverage` — answers sorted by confidence, highest first; at coverage ``k/n``
  the risk is the error rate among the ``k`` most confident (ties kept in input order).
- :func:`aurc` — area under that curve: the mean risk over ``k = 1 … n``.
- :func:`bootstrap_ci` — percentile interval of a metric over resamples of the runs
  (resamples where the metric is undefined are skipped).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

__all__ = [
    "ReliabilityBin",
    "auroc",
    "aurc",
    "bootstrap_ci",
    "ece",
    "reliability_bins",
    "risk_coverage",
]


def auroc(labels: Sequence[bool], scores: Sequence[float]) -> float | None:
    """Area under the ROC curve of ``scores`` predicting ``labels`` (None if one class)."""
    from sklearn.metrics import roc_auc_score  # lazy: keeps `grace` start-up fast

    y = np.asarray(labels, dtype=bool)
    if y.size == 0 or y.all() or not y.any():
        return None
    return float(roc_auc_score(y, np.asarray(scores, dtype=float)))


@dataclass(frozen=True)
class ReliabilityBin:
    """One bin of a reliability diagram."""

    lower: float
    upper: float
    count: int
    mean_confidence: float
    accuracy: float


def reliability_bins(
    confidences: Sequence[float], correct: Sequence[bool], bins: int = 10
) -> list[ReliabilityBin]:
    """Equal-width bins on [0, 1] with their count, mean confidence and accuracy."""
    c = np.clip(np.asarray(confidences, dtype=float), 0.0, 1.0)
    y = np.asarray(correct, dtype=float)
    idx = np.minimum((c * bins).astype(int), bins - 1)
    out = []
    for i in range(bins):
        mask = idx == i
        n = int(mask.sum())
        out.append(
            ReliabilityBin(
                lower=i / bins,
                upper=(i + 1) / bins,
                count=n,
                mean_confidence=float(c[mask].mean()) if n else 0.0,
                accuracy=float(y[mask].mean()) if n else 0.0,
            )
        )
    return out


def ece(confidences: Sequence[float], correct: Sequence[bool], bins: int = 10) -> float | None:
    """Expected calibration error over ``bins`` equal-width bins (None when empty)."""
    n = len(confidences)
    if n == 0:
        return None
    parts = reliability_bins(confidences, correct, bins)
    return float(sum(b.count / n * abs(b.accuracy - b.mean_confidence) for b in parts))


def risk_coverage(
    confidences: Sequence[float], correct: Sequence[bool]
) -> tuple[list[float], list[float]]:
    """Coverage ``k/n`` and risk (error rate of the ``k`` most confident), ``k = 1 … n``."""
    c = np.asarray(confidences, dtype=float)
    y = np.asarray(correct, dtype=float)
    order = np.argsort(-c, kind="stable")
    errors = np.cumsum(1.0 - y[order])
    k = np.arange(1, len(c) + 1)
    return (k / len(c)).tolist(), (errors / k).tolist()


def aurc(confidences: Sequence[float], correct: Sequence[bool]) -> float | None:
    """Area under the risk–coverage curve (mean risk over all coverages; lower is better)."""
    if len(confidences) == 0:
        return None
    _, risk = risk_coverage(confidences, correct)
    return float(np.mean(risk))


def bootstrap_ci(
    metric: Callable[[Sequence[bool], Sequence[float]], float | None],
    labels: Sequence[bool],
    scores: Sequence[float],
    *,
    n_boot: int = 1000,
    alpha: float = 0.05,
    seed: int = 0,
) -> tuple[float, float] | None:
    """Percentile bootstrap ``(1 − alpha)`` interval of ``metric(labels, scores)``."""
    y = np.asarray(labels, dtype=bool)
    s = np.asarray(scores, dtype=float)
    if y.size == 0:
        return None
    rng = np.random.default_rng(seed)
    values = []
    for _ in range(n_boot):
        idx = rng.integers(0, y.size, y.size)
        v = metric(y[idx].tolist(), s[idx].tolist())
        if v is not None:
            values.append(v)
    if not values:
        return None
    lo, hi = np.quantile(values, [alpha / 2, 1 - alpha / 2])
    return round(float(lo), 4), round(float(hi), 4)

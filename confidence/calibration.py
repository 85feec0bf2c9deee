"""Calibration of the run's overall confidence into P(answer correct).

The calculator's overall confidence is a *ranking* score: higher means more likely right,
but 0.7 need not mean "right 7 times in 10". A calibration map ``g`` turns the raw score
``s`` into a probability, so the decision thresholds (0.9 / 0.7 / 0.4) read as
probabilities that the answer is correct. Every map here is **monotone non-decreasing** (the
order of runs, and so AUROC / AURC, is unchanged) and **bounded** in [0, 1].

Methods (``confidence.calibration.method``):

- ``none`` — ``g(s) = s``.
- ``platt`` — Platt scaling (Platt 1999): ``g(s) = σ(a·s + b)`` with ``a ≥ 0``. Fitted by
  maximum likelihood (Newton steps) on Platt's smoothed targets ``(N₊ + 1)/(N₊ + 2)`` and
  ``1/(N₋ + 2)``, which keep it from claiming certainty on a small set. Two parameters:
  the right choice for tens of labelled runs.
- ``isotonic`` — isotonic regression (pool-adjacent-violators, Zadrozny & Elkan 2002), with
  every block holding at least ``min_bin_size`` runs (adjacent blocks are pooled until they
  do), block values smoothed to ``(k + 1)/(n + 2)`` (never exactly 0 or 1) and linear
  interpolation between block centres (flat outside them). Needs hundreds of runs.

A pure module: numpy and pydantic only. numpy is imported by the functions that need it (the
isotonic map and the fitting), not with the module: applying the shipped Platt map is a
run's only use and needs none.
"""

# No `from __future__ import annotations`: pydantic reads the fields' types at import; as
# objects they need no evaluating (docs/performance.md).
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "CalibrationMethod",
    "CalibrationParams",
    "apply_calibration",
    "default_calibration",
    "fit_isotonic",
    "fit_platt",
    "fit_calibration_params",
]

CalibrationMethod = Literal["none", "platt", "isotonic"]
"""How the overall confidence is mapped to P(correct)."""


class CalibrationParams(BaseModel):
    """A fitted calibration map (settings ``confidence.calibration``)."""

    model_config = ConfigDict(extra="forbid")

    method: CalibrationMethod = "none"
    """``none`` (identity), ``platt`` or ``isotonic``."""
    a: float = Field(default=1.0, ge=0.0)
    """Platt slope (≥ 0, so the map is non-decreasing)."""
    b: float = 0.0
    """Platt intercept."""
    x: list[float] = Field(default_factory=list)
    """Isotonic knots: raw scores (block centres), strictly increasing."""
    y: list[float] = Field(default_factory=list)
    """Isotonic values at the knots, non-decreasing, in [0, 1]."""
    min_bin_size: int = Field(default=10, ge=1)
    """Isotonic: fewest runs per block when fitted (recorded for the reader)."""
    fitted_on: str = ""
    """Where the parameters come from (data set, size, date) — for the reader only."""
    provider: str = "any"
    """Engine whose raw scores the map was fitted on (``offline``, ``gemini``, ``openai`` …)
    or ``any``: scores of another engine are left uncalibrated, since a map fitted on one
    judge's scale says nothing about another's."""

    def applies_to(self, provider: str) -> bool:
        """Whether this map calibrates scores produced by ``provider``."""
        return self.method != "none" and self.provider in ("any", provider)

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if self.method == "isotonic":
            if not self.x or len(self.x) != len(self.y):
                raise ValueError("isotonic calibration needs knots x and values y of equal length")
            if any(b <= a for a, b in zip(self.x, self.x[1:], strict=False)):
                raise ValueError("isotonic knots x must be strictly increasing")
            if any(b < a for a, b in zip(self.y, self.y[1:], strict=False)):
                raise ValueError("isotonic values y must be non-decreasing")
            if any(not 0.0 <= v <= 1.0 for v in self.y):
                raise ValueError("isotonic values y must lie in [0, 1]")
        return self


def _sigmoid(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def apply_calibration(score: float, params: CalibrationParams | None) -> float:
    """Return the calibrated confidence of a raw score (clamped to [0, 1]; NaN stays NaN)."""
    s = float(score)
    if math.isnan(s):
        return s
    s = min(1.0, max(0.0, s))
    if params is None or params.method == "none":
        return s
    if params.method == "platt":
        return _sigmoid(params.a * s + params.b)
    import numpy as np

    return float(np.interp(s, params.x, params.y))


def _arrays(scores: Sequence[float], labels: Sequence[bool]) -> "tuple[np.ndarray, np.ndarray]":
    import numpy as np

    s = np.clip(np.asarray(scores, dtype=float), 0.0, 1.0)
    y = np.asarray(labels, dtype=float)
    if s.shape != y.shape or s.ndim != 1:
        raise ValueError("scores and labels must be 1-D sequences of equal length")
    if s.size == 0:
        raise ValueError("no labelled scores to fit a calibration on")
    if np.isnan(s).any():
        raise ValueError("scores contain NaN")
    return s, y


def fit_platt(
    scores: Sequence[float], labels: Sequence[bool], *, max_iter: int = 100
) -> tuple[float, float]:
    """Fit ``σ(a·s + b)`` (``a ≥ 0``) by maximum likelihood on Platt's smoothed targets.

    Returns:
        ``(a, b)``. With one class only, ``a = 0`` and ``σ(b)`` is the smoothed base rate.
        Where the best slope would be negative (scores that rank against the labels), the
        slope is held at ``a = 0`` and ``σ(b)`` is the mean of the smoothed targets: the
        best intercept under that constraint.

    """
    import numpy as np

    s, y = _arrays(scores, labels)
    n_pos, n_neg = float(y.sum()), float(y.size - y.sum())
    t = np.where(y > 0.5, (n_pos + 1.0) / (n_pos + 2.0), 1.0 / (n_neg + 2.0))
    base = (n_pos + 1.0) / (y.size + 2.0)
    a, b = 0.0, math.log(base / (1.0 - base))

    def loss(a_: float, b_: float) -> float:
        z = a_ * s + b_
        return float(np.sum(np.logaddexp(0.0, z) - t * z))

    if n_pos == 0 or n_neg == 0 or np.ptp(s) == 0.0:
        return 0.0, b
    current = loss(a, b)
    for _ in range(max_iter):
        p = 1.0 / (1.0 + np.exp(-(a * s + b)))
        g = np.array([np.sum((p - t) * s), np.sum(p - t)])
        w = p * (1.0 - p)
        h = np.array([[np.sum(w * s * s), np.sum(w * s)], [np.sum(w * s), np.sum(w)]])
        h += 1e-9 * np.eye(2)
        step = np.linalg.solve(h, g)
        lr = 1.0
        while lr > 1e-8:
            na, nb = max(a - lr * step[0], 0.0), b - lr * step[1]
            new = loss(na, nb)
            if new <= current + 1e-12:
                break
            lr /= 2.0
        else:
            break
        done = abs(na - a) + abs(nb - b) < 1e-10
        a, b, current = na, nb, new
        if done:
            break
    if a == 0.0:  # the slope held at its bound: the intercept's own optimum, not the joint step's
        mean = float(t.mean())
        b = math.log(mean / (1.0 - mean))
    return float(a), float(b)


def fit_isotonic(
    scores: Sequence[float], labels: Sequence[bool], *, min_bin_size: int = 10
) -> tuple[list[float], list[float]]:
    """Pool-adjacent-violators with at least ``min_bin_size`` runs per block.

    Runs are sorted by score (equal scores always share a block). Blocks are pooled while a
    block's mean is at least the next one's or a block is smaller than ``min_bin_size``. Each
    block gives a knot ``(mean score, (k + 1)/(n + 2))``; a running maximum keeps the values
    non-decreasing after smoothing.

    Returns:
        Knots ``x`` (strictly increasing) and values ``y`` (non-decreasing, in (0, 1)).

    """
    if min_bin_size < 1:
        raise ValueError("min_bin_size must be at least 1")
    import numpy as np

    s, y = _arrays(scores, labels)
    order = np.argsort(s, kind="stable")
    s, y = s[order], y[order]
    # Start from one block per distinct score: [sum_s, sum_y, n].
    blocks: list[list[float]] = []
    for value, label in zip(s.tolist(), y.tolist(), strict=True):
        if blocks and blocks[-1][0] / blocks[-1][2] == value:
            blocks[-1][0] += value
            blocks[-1][1] += label
            blocks[-1][2] += 1
        else:
            blocks.append([value, label, 1.0])

    def violates(left: list[float], right: list[float]) -> bool:
        return left[1] / left[2] >= right[1] / right[2]

    merged = True
    while merged and len(blocks) > 1:
        merged = False
        i = 0
        out: list[list[float]] = []
        while i < len(blocks):
            cur = blocks[i]
            if out and (violates(out[-1], cur) or out[-1][2] < min_bin_size):
                prev = out.pop()
                cur = [prev[0] + cur[0], prev[1] + cur[1], prev[2] + cur[2]]
                merged = True
            out.append(cur)
            i += 1
        if len(out) > 1 and out[-1][2] < min_bin_size:
            last = out.pop()
            prev = out.pop()
            out.append([prev[0] + last[0], prev[1] + last[1], prev[2] + last[2]])
            merged = True
        blocks = out
    xs = [b[0] / b[2] for b in blocks]
    ys = np.maximum.accumulate([(b[1] + 1.0) / (b[2] + 2.0) for b in blocks]).tolist()
    return [float(v) for v in xs], [float(v) for v in ys]


def fit_calibration_params(
    scores: Sequence[float],
    labels: Sequence[bool],
    *,
    method: CalibrationMethod = "platt",
    min_bin_size: int = 10,
    fitted_on: str = "",
) -> CalibrationParams:
    """Fit a calibration map of raw scores to P(label) by ``method``."""
    if method == "none":
        return CalibrationParams(method="none", fitted_on=fitted_on)
    if method == "platt":
        a, b = fit_platt(scores, labels)
        return CalibrationParams(method="platt", a=round(a, 6), b=round(b, 6), fitted_on=fitted_on)
    x, y = fit_isotonic(scores, labels, min_bin_size=min_bin_size)
    rx = [round(v, 6) for v in x]
    if any(b <= a for a, b in zip(rx, rx[1:], strict=False)):
        rx = x  # rounding would merge two knots: keep them exact
    return CalibrationParams(
        method="isotonic",
        x=rx,
        y=[round(v, 6) for v in y],
        min_bin_size=min_bin_size,
        fitted_on=fitted_on,
    )


DEFAULT_CALIBRATION = CalibrationParams(
    method="platt",
    a=8.124261,
    b=-2.751617,
    fitted_on="grace/data/sample: 30 runs, offline provider, platt, 2026-11-23 "
    "(answer-evidence score)",
    provider="offline",
)
"""The shipped calibration: Platt scaling fitted with ``grace calibrate`` on the project's own
sample dataset (``grace/data/sample``, offline provider) — never on the dev set, which is
the held-out test. ``P(correct) = σ(8.124·s − 2.752)``: a raw 0.9 reads 0.99, 0.8 reads 0.98,
0.7 reads 0.95, 0.6 reads 0.89, 0.5 reads 0.79, 0.34 reads 0.50. The sample is easy (AUROC
1.0), so the map is optimistic on harder questions; the shipped thresholds account for that
(``confidence.config.SHIPPED``). Refit on your own labelled questions (and for a model
provider, whose scores are distributed differently)."""


def default_calibration() -> CalibrationParams:
    """The calibration GRACE ships with (a copy; settings may replace it)."""
    return DEFAULT_CALIBRATION.model_copy(deep=True)

"""Reliability diagram and risk–coverage plot (matplotlib, Agg backend, PNG files)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from graph.evaluation.metrics import aurc, ece, reliability_bins, risk_coverage  # noqa: E402

__all__ = ["plot_reliability", "plot_risk_coverage"]


def plot_reliability(
    confidences: Sequence[float], correct: Sequence[bool], path: Path, *, bins: int = 10
) -> Path:
    """Write a reliability diagram (accuracy per confidence bin, with counts) to ``path``."""
    parts = reliability_bins(confidences, correct, bins)
    fig, ax = plt.subplots(figsize=(5, 5))
    width = 1.0 / bins
    ax.bar(
        [b.lower for b in parts],
        [b.accuracy for b in parts],
        width=width,
        align="edge",
        edgecolor="black",
        alpha=0.7,
        label="accuracy",
    )
    for b in parts:
        if b.count:
            ax.text(b.lower + width / 2, b.accuracy + 0.02, str(b.count), ha="center", fontsize=7)
    ax.plot([0, 1], [0, 1], "--", color="grey", label="perfect calibration")
    value = ece(confidences, correct, bins)
    ax.set(
        xlim=(0, 1),
        ylim=(0, 1.08),
        xlabel="confidence",
        ylabel="share answered correctly",
        title=f"Reliability (ECE {value:.3f})" if value is not None else "Reliability",
    )
    ax.legend(loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def plot_risk_coverage(
    confidences: Sequence[float],
    correct: Sequence[bool],
    path: Path,
    thresholds: Mapping[str, float] | None = None,
) -> Path:
    """Write the risk–coverage curve (error rate among the most confident answers).

    Each decision threshold (``silent``, ``notify`` …) is marked at the coverage it gives.
    """
    coverage, risk = risk_coverage(confidences, correct)
    fig, ax = plt.subplots(figsize=(5, 4))
    ax.plot(coverage, risk, drawstyle="steps-post")
    if risk:
        ax.axhline(risk[-1], linestyle="--", color="grey", label="risk at full coverage")
    n = len(confidences) or 1
    for name, value in (thresholds or {}).items():
        share = sum(c >= value for c in confidences) / n
        ax.axvline(share, linestyle=":", color="tab:red")
        ax.text(share, 0.95, f" {name} ≥ {value:.2f}", rotation=90, va="top", fontsize=7)
    if risk:
        ax.legend(loc="lower right")
    area = aurc(confidences, correct)
    ax.set(
        xlim=(0, 1),
        ylim=(0, 1),
        xlabel="coverage",
        ylabel="risk (error rate)",
        title=f"Risk–coverage (AURC {area:.3f})" if area is not None else "Risk–coverage",
    )
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path

"""graph/evaluation/plots.py: what the two PNG plots show, with hand-derived values.

Four answers: confidences 0.95 (correct), 0.85, 0.15, 0.05 (wrong).

- Reliability, 10 bins: bins 9, 8, 1, 0 hold one answer each, accuracy 1, 0, 0, 0;
  ECE = (|1 − 0.95| + |0 − 0.85| + |0 − 0.15| + |0 − 0.05|) / 4 = 1.1 / 4 = 0.275.
- Risk–coverage, most confident first: risk 0/1, 1/2, 2/3, 3/4 at coverage 1/4 … 4/4;
  AURC = (0 + 0.5 + 0.6667 + 0.75) / 4 = 0.479. Threshold 0.9 covers 1/4 of the answers,
  0.1 covers 3/4.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from matplotlib.figure import Figure

from graph.evaluation import plots

CONF = [0.95, 0.85, 0.15, 0.05]
CORRECT = [True, False, False, False]


@pytest.fixture
def figures(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Figure]]:
    """The figures the plots draw, kept open after they are saved."""
    kept: list[Figure] = []
    monkeypatch.setattr(plots.plt, "close", kept.append)
    yield kept
    for fig in kept:
        fig.clear()


def _png_size(path: Path) -> tuple[int, int]:
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(header[16:20], "big"), int.from_bytes(header[20:24], "big")


def test_reliability_diagram_bars_counts_and_ece(tmp_path: Path, figures: list[Any]) -> None:
    path = plots.plot_reliability(CONF, CORRECT, tmp_path / "rel.png")
    assert path == tmp_path / "rel.png" and _png_size(path) == (600, 600)  # 5 in at 120 dpi
    [fig] = figures
    [ax] = fig.axes
    assert ax.get_title() == "Reliability (ECE 0.275)"
    bars = ax.patches
    assert [round(b.get_x(), 2) for b in bars] == [i / 10 for i in range(10)]
    assert [b.get_height() for b in bars] == [0, 0, 0, 0, 0, 0, 0, 0, 0, 1]
    labels = sorted((round(t.get_position()[0], 2), t.get_text()) for t in ax.texts)
    assert labels == [(0.05, "1"), (0.15, "1"), (0.85, "1"), (0.95, "1")]  # bin centres


def test_reliability_diagram_of_nothing_has_no_ece(tmp_path: Path, figures: list[Any]) -> None:
    plots.plot_reliability([], [], tmp_path / "rel.png")
    [fig] = figures
    assert fig.axes[0].get_title() == "Reliability" and not fig.axes[0].texts


def test_risk_coverage_curve_thresholds_and_aurc(tmp_path: Path, figures: list[Any]) -> None:
    path = plots.plot_risk_coverage(
        CONF, CORRECT, tmp_path / "rc.png", thresholds={"silent": 0.9, "confirm": 0.1}
    )
    assert _png_size(path) == (600, 480)
    [fig] = figures
    [ax] = fig.axes
    assert ax.get_title() == "Risk–coverage (AURC 0.479)"
    curve, full, silent, confirm = ax.lines
    assert list(curve.get_xdata()) == [0.25, 0.5, 0.75, 1.0]
    assert list(curve.get_ydata()) == pytest.approx([0.0, 0.5, 2 / 3, 0.75])
    assert list(full.get_ydata()) == [0.75, 0.75]  # the risk of answering everything
    assert list(silent.get_xdata()) == [0.25, 0.25] and list(confirm.get_xdata()) == [0.75, 0.75]
    assert [t.get_text() for t in ax.texts] == [" silent ≥ 0.90", " confirm ≥ 0.10"]


def test_risk_coverage_of_nothing_has_no_aurc(tmp_path: Path, figures: list[Any]) -> None:
    plots.plot_risk_coverage([], [], tmp_path / "rc.png")
    [fig] = figures
    [ax] = fig.axes
    assert ax.get_title() == "Risk–coverage" and ax.get_legend() is None

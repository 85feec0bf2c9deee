"""Honest figures for the learned confidence model: article-grouped cross-validation.

``python -m bench.confidence_cv CALIB_RUNS [--dev DEV_RUNS]`` reads the ``runs.jsonl`` that
``grace calibrate --eval-output DIR`` (or ``grace eval`` with ``confidence.model: null``)
wrote, and reports, with 95 % intervals from a bootstrap over articles:

- on the calibration runs, every run scored by a model fitted on the other articles only
  (5-fold GroupKFold by article) — the figures a new corpus can expect;
- on a second set (``--dev``), scored by the model fitted on all calibration runs.

Thresholds are the shipped model's (``confidence/data/offline-model.json``), or ``--silent`` /
``--notify``. Not part of the test suite (it reads data sets by path).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from confidence.correctness_model import default_model
from graph.evaluation import fit as learn
from graph.evaluation.metrics import auroc

Figures = dict[str, float | None]


def figures(
    p: Any, runs: Sequence[dict[str, Any]], silent: float, notify: float
) -> Figures:
    """The issue's figures for scores ``p`` of ``runs`` at the given thresholds."""
    correct = np.array([learn._correct(r) for r in runs])  # noqa: SLF001
    wrong = np.array([learn._wrong(r) for r in runs])  # noqa: SLF001
    answerable = np.array([bool(r["question"]["answerable"]) for r in runs])
    is_silent = p >= silent
    pause = p < notify
    order = np.argsort(-p)
    errors = np.cumsum(wrong[order])
    ok = np.where(errors <= 0.10 * np.arange(1, len(p) + 1))[0]
    return {
        "silent_error": float(wrong[is_silent].mean()) if is_silent.any() else None,
        "silent_share": float(is_silent.mean()),
        "coverage_at_risk_0.10": float((ok.max() + 1) / len(p)) if len(ok) else 0.0,
        "answerability_auroc": auroc(answerable.tolist(), p.tolist()),
        "auroc": auroc(correct.tolist(), p.tolist()),
        "pause_answerable": float(pause[answerable].mean()),
        "pause_unanswerable": float(pause[~answerable].mean()),
    }


def _bootstrap(
    stat: Callable[[Any], Figures], groups: Sequence[str], n_boot: int = 500
) -> dict[str, tuple[float, float]]:
    """95 % intervals by resampling whole articles."""
    rng = np.random.default_rng(0)
    names = sorted(set(groups))
    index = {g: [i for i, x in enumerate(groups) if x == g] for g in names}
    draws: dict[str, list[float]] = {}
    for _ in range(n_boot):
        pick = rng.choice(len(names), size=len(names), replace=True)
        rows = np.array([i for k in pick for i in index[names[k]]])
        for key, value in stat(rows).items():
            if value is not None:
                draws.setdefault(key, []).append(value)
    return {
        k: (float(np.percentile(v, 2.5)), float(np.percentile(v, 97.5))) for k, v in draws.items()
    }


def report(runs: Sequence[dict[str, Any]], p: Any, silent: float, notify: float) -> dict[str, Any]:
    """Figures with article-bootstrap intervals, overall and per question kind."""
    groups = [learn.article_of(r["question"]) for r in runs]

    def stat(rows: Any) -> Figures:
        return figures(p[rows], [runs[i] for i in rows], silent, notify)

    out: dict[str, Any] = {
        "n": len(runs),
        "figures": stat(np.arange(len(runs))),
        "ci95": _bootstrap(stat, groups),
    }
    kinds = sorted({r["question"]["kind"] for r in runs})
    out["by_kind"] = {}
    for kind in kinds:
        rows = np.array([i for i, r in enumerate(runs) if r["question"]["kind"] == kind])
        chosen = p[rows]
        out["by_kind"][kind] = {
            "n": len(rows),
            "silent_share": float((chosen >= silent).mean()),
            "pause_share": float((chosen < notify).mean()),
        }
    return out


def main() -> None:
    """Print the cross-validated (and second-set) figures as JSON."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("calib_runs", type=Path)
    parser.add_argument("--dev", type=Path, default=None)
    parser.add_argument("--silent", type=float, default=None)
    parser.add_argument("--notify", type=float, default=None)
    args = parser.parse_args()
    shipped = default_model()
    silent = args.silent or (shipped.thresholds.silent if shipped else 0.9)
    notify = args.notify or (shipped.thresholds.notify if shipped else learn.DEFAULT_NOTIFY)
    runs = learn.read_runs(args.calib_runs)
    x = learn.feature_matrix(runs)
    y = np.array([learn._correct(r) for r in runs])  # noqa: SLF001
    groups = [learn.article_of(r["question"]) for r in runs]
    result: dict[str, Any] = {"thresholds": {"silent": silent, "notify": notify}}
    result["calib_cross_validated"] = report(runs, learn.cross_fitted(x, y, groups), silent, notify)
    if args.dev is not None:
        dev = learn.read_runs(args.dev)
        params = learn._fit(x, y)  # noqa: SLF001
        p_dev = learn._predict(params, learn.feature_matrix(dev))  # noqa: SLF001
        result["dev"] = report(dev, p_dev, silent, notify)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
